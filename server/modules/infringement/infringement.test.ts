// Infringement words and product screening through the real HTTP stack: the tenant's list and the host's default
// list (read, add, delete, import xlsx/csv/txt), bad input answered 400 with nothing changed, duplicates ignored, who
// may edit (main account and host only), tenant isolation, and screening that marks exactly the products whose titles
// or descriptions hold a word (host defaults plus the tenant's, whole words in Latin text, substrings in CJK).
import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infringementWords, products } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { startTestServer, type ApiResponse, type TestServer, type TestTenant } from "../../testing/harness.ts";
import { htmlText, splitCsvLine } from "./service.ts";

let s: TestServer;
let a: TestTenant;
let b: TestTenant;
let sub: { id: string; token: string };
let host: string;

beforeAll(async () => {
  s = await startTestServer();
  a = await s.createTenant();
  b = await s.createTenant();
  sub = await s.createSubUser(a);
  host = await s.adminToken();
});
afterAll(() => s?.close());

const W = "/api/InfringementWord";

async function list(token: string, query: Record<string, string | number> = {}, which = "GetInfringementWord") {
  const res = await s.api("GET", `${W}/${which}`, { token, query: { MaxResultCount: 1000, ...query } });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as { items: { id: string; word: string; creationTime: string }[]; totalCount: number };
}
const words = async (token: string, which?: string) => (await list(token, {}, which)).items.map((i) => i.word).sort();
const create = (token: string, body: unknown) => s.api("POST", `${W}/CreateIfringementWord`, { token, body });

async function upload(token: string, content: Buffer, filename = "words.txt"): Promise<ApiResponse> {
  const boundary = `----erp${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const res = await s.app.inject({
    method: "POST",
    url: `${W}/ImportInfringementWord`,
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
  let body: unknown = null;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, headers: res.headers, raw: res.body };
}

async function newTenant() {
  const t = await s.createTenant();
  return t;
}

describe("CreateIfringementWord / GetInfringementWord / DeleteInfringementWord", () => {
  it("adds trimmed words once, ignoring case-insensitive duplicates, and answers counts", async () => {
    const t = await newTenant();
    const r1 = await create(t.token, { words: ["  Nike ", "nike", "ADIDAS", "阿迪达斯", "Gucci"] });
    expect(r1.status, r1.raw).toBe(200);
    expect(r1.body.result).toMatchObject({ successCount: 4, ignoreCount: 1 });
    expect(await words(t.token)).toEqual(["ADIDAS", "Gucci", "Nike", "阿迪达斯"].sort());
    const r2 = await create(t.token, { words: ["NIKE", "gucci", "Puma"] });
    expect(r2.body.result).toMatchObject({ successCount: 1, ignoreCount: 2 });
    expect((await list(t.token)).totalCount).toBe(5);
  });

  it("searches, sorts and pages", async () => {
    const t = await newTenant();
    await create(t.token, { words: ["apple", "Pineapple", "banana", "50%_off"] });
    expect((await list(t.token, { Search: "APPLE" })).items.map((i) => i.word).sort()).toEqual(["Pineapple", "apple"]);
    expect((await list(t.token, { Search: "%" })).items.map((i) => i.word)).toEqual(["50%_off"]);
    expect((await list(t.token, { Search: "_" })).items.map((i) => i.word)).toEqual(["50%_off"]);
    const sorted = await list(t.token, { Sorting: "word asc" });
    expect(sorted.items.map((i) => i.word)).toEqual(["50%_off", "apple", "banana", "Pineapple"]);
    const page = await list(t.token, { Sorting: "word desc", SkipCount: 1, MaxResultCount: 2 });
    expect(page).toMatchObject({ totalCount: 4, items: [{ word: "banana" }, { word: "apple" }] });
    const bad = await s.api("GET", `${W}/GetInfringementWord`, { token: t.token, query: { Sorting: "id; drop table x" } });
    expect(bad.status).toBe(400);
  });

  it("answers bad input with a 400 envelope and changes nothing", async () => {
    const t = await newTenant();
    await create(t.token, { words: ["keep"] });
    for (const body of [
      {},
      { words: [] },
      { words: ["ok", ""] },
      { words: ["   "] },
      { words: ["line\nbreak"] },
      { words: ["x".repeat(101)] },
      { words: "nike" },
      { words: [42] },
      { word: "single" },
    ]) {
      const res = await create(t.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ message: expect.any(String) });
    }
    const del = await s.api("POST", `${W}/DeleteInfringementWord`, { token: t.token, body: { ids: ["not-a-guid"] } });
    expect(del.status).toBe(400);
    expect(await words(t.token)).toEqual(["keep"]);
  });

  it("deletes by id, only the caller's list", async () => {
    const t = await newTenant();
    const other = await newTenant();
    await create(t.token, { words: ["one", "two", "three"] });
    await create(other.token, { words: ["one"] });
    const mine = await list(t.token);
    const theirs = await list(other.token);
    const ids = mine.items.filter((i) => i.word !== "three").map((i) => i.id);
    const res = await s.api("POST", `${W}/DeleteInfringementWord`, {
      token: t.token,
      body: { ids: [...ids, theirs.items[0].id, randomUUID()] },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toEqual({ count: 2 });
    expect(await words(t.token)).toEqual(["three"]);
    expect(await words(other.token)).toEqual(["one"]);
  });

  it("lets a sub-account read but not change the tenant's list", async () => {
    await create(a.token, { words: ["subcheck"] });
    expect(await words(sub.token)).toContain("subcheck");
    const before = await words(a.token);
    expect((await create(sub.token, { words: ["fromsub"] })).status).toBe(403);
    const id = (await list(a.token, { Search: "subcheck" })).items[0].id;
    expect((await s.api("POST", `${W}/DeleteInfringementWord`, { token: sub.token, body: { ids: [id] } })).status).toBe(403);
    expect((await upload(sub.token, Buffer.from("fromsub\n"))).status).toBe(403);
    expect(await words(a.token)).toEqual(before);
  });

  it("shows another tenant nothing of a list", async () => {
    await create(a.token, { words: ["secretbrand"] });
    expect(await words(b.token)).not.toContain("secretbrand");
    expect((await list(b.token, { Search: "secretbrand" })).totalCount).toBe(0);
    expect(await words(b.token, "GetDefaultfringementWord")).not.toContain("secretbrand");
  });

  it("needs a login", async () => {
    expect((await s.api("GET", `${W}/GetInfringementWord`)).status).toBe(401);
    expect((await s.api("POST", `${W}/CreateIfringementWord`, { body: { words: ["x"] } })).status).toBe(401);
  });
});

describe("the host's default list", () => {
  it("is kept by the host with the same calls and read by every tenant", async () => {
    const r = await create(host, { words: ["DefaultBrand", "默认品牌"] });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.result).toMatchObject({ successCount: 2 });
    expect(await words(host)).toEqual(expect.arrayContaining(["DefaultBrand", "默认品牌"]));
    for (const t of [a, b]) {
      expect(await words(t.token, "GetDefaultfringementWord")).toEqual(expect.arrayContaining(["DefaultBrand", "默认品牌"]));
      expect(await words(t.token)).not.toContain("DefaultBrand");
    }
    expect(await words(sub.token, "GetDefaultfringementWord")).toContain("DefaultBrand");
    // Stored as the host tenant's rows.
    const rows = await inScope(s.database.db, hostAllScope, (tx) =>
      tx.select().from(infringementWords).where(eq(infringementWords.normalizedWord, "defaultbrand")),
    );
    expect(rows.map((x) => x.tenantId)).toEqual(["00000000-0000-0000-0000-000000000000"]);
  });

  it("cannot be changed by a tenant", async () => {
    const def = (await list(a.token, { Search: "DefaultBrand" }, "GetDefaultfringementWord")).items[0];
    const res = await s.api("POST", `${W}/DeleteInfringementWord`, { token: a.token, body: { ids: [def.id] } });
    expect(res.body.result).toEqual({ count: 0 }); // a tenant's delete works on its own list only
    expect(await words(a.token, "GetDefaultfringementWord")).toContain("DefaultBrand");
  });

  it("is imported and deleted by the host", async () => {
    const imp = await upload(host, Buffer.from("HostImported\nDefaultBrand\n"));
    expect(imp.status, imp.raw).toBe(200);
    expect(imp.body.result).toMatchObject({ successCount: 1, ignoreCount: 1 });
    const id = (await list(host, { Search: "HostImported" })).items[0].id;
    const del = await s.api("POST", `${W}/DeleteInfringementWord`, { token: host, body: { ids: [id] } });
    expect(del.body.result).toEqual({ count: 1 });
    expect(await words(a.token, "GetDefaultfringementWord")).not.toContain("HostImported");
  });
});

describe("ImportInfringementWord", () => {
  it("imports a txt file, one word per line, duplicates ignored", async () => {
    const t = await newTenant();
    await create(t.token, { words: ["already"] });
    const res = await upload(t.token, Buffer.from("\uFEFFalpha\r\nBeta\n\nbeta\n  gamma  \nALREADY\n"));
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({ successCount: 3, ignoreCount: 2 });
    expect(await words(t.token)).toEqual(["Beta", "alpha", "already", "gamma"].sort());
  });

  it("imports a csv file cell by cell (quotes, commas, tabs) and GB18030 text", async () => {
    const t = await newTenant();
    const res = await upload(t.token, Buffer.from('word\n"a, b",c\nd\te\n"say ""hi"""\n'), "w.csv");
    expect(res.status, res.raw).toBe(200);
    expect(await words(t.token)).toEqual(["a, b", "c", "d", "e", 'say "hi"', "word"].sort());
    // "耐克" in GB18030.
    const gb = await upload(t.token, Buffer.from([0xc4, 0xcd, 0xbf, 0xcb, 0x0a]));
    expect(gb.status, gb.raw).toBe(200);
    expect(await words(t.token)).toContain("耐克");
  });

  it("imports an xlsx workbook, every cell of its first sheet a word", async () => {
    const t = await newTenant();
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("words");
    ws.addRow(["Nike", "阿迪达斯"]);
    ws.addRow(["nike", 2024]);
    ws.addRow(["multi\nline", "__proto__"]);
    wb.addWorksheet("more").addRow(["not read"]);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await upload(t.token, buf, "words.xlsx");
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toMatchObject({ successCount: 6, ignoreCount: 1 });
    expect(await words(t.token)).toEqual(["2024", "Nike", "__proto__", "line", "multi", "阿迪达斯"].sort());
  });

  it("refuses bad files and changes nothing", async () => {
    const t = await newTenant();
    await create(t.token, { words: ["keep"] });
    expect((await upload(t.token, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).status).toBe(415);
    expect((await upload(t.token, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(2000)]))).status).toBe(415);
    expect(await upload(t.token, Buffer.from("PK\x03\x04garbage")).then((r) => r.status)).toBe(400);
    expect((await upload(t.token, Buffer.from("\n\n  \n"))).status).toBe(400);
    expect((await upload(t.token, Buffer.from("x"), "../evil.txt")).status).toBe(400);
    expect((await upload(t.token, Buffer.from("w".repeat(6 * 1024 * 1024)))).status).toBe(413);
    const many = Array.from({ length: 10_001 }, (_, i) => `w${i}`).join("\n");
    expect((await upload(t.token, Buffer.from(many))).status).toBe(400);
    const json = await s.api("POST", `${W}/ImportInfringementWord`, { token: t.token, body: { words: ["x"] } });
    expect(json.status).toBe(415);
    expect(await words(t.token)).toEqual(["keep"]);
  });

  it("counts an over-long line as ignored", async () => {
    const t = await newTenant();
    const res = await upload(t.token, Buffer.from(`good\n${"x".repeat(150)}\n`));
    expect(res.body.result).toMatchObject({ successCount: 1, ignoreCount: 1 });
  });
});

describe("Product ScreeningforInfringement", () => {
  async function addProduct(
    t: TestTenant,
    p: { title?: Record<string, string>; titleText?: string; description?: Record<string, string>; userId?: string; isDeleted?: boolean },
  ) {
    const id = randomUUID();
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.insert(products).values({
        tenantId: t.tenantId,
        id,
        userId: p.userId ?? t.userId,
        title: p.title ?? {},
        titleText: p.titleText ?? "",
        description: p.description ?? {},
        isDeleted: p.isDeleted ?? false,
      }),
    );
    return id;
  }
  const wordOf = async (t: TestTenant, id: string) =>
    (await inScope(s.database.db, { tenantId: t.tenantId }, (tx) => tx.select().from(products).where(eq(products.id, id))))[0]
      .infringementWord;
  const screen = (token: string, ids: string[]) => s.api("POST", "/api/Product/ScreeningforInfringement", { token, body: { ids } });

  it("marks exactly the products holding a word, with the host defaults and the tenant's list", async () => {
    const t = await newTenant();
    await create(host, { words: ["HostOnlyWord"] });
    await create(t.token, { words: ["nike", "耐克", "air max"] });
    const p = {
      nike: await addProduct(t, { title: { en: "Nike running shoes" } }),
      nikelab: await addProduct(t, { title: { en: "NikeLab jacket" } }),
      cjk: await addProduct(t, { title: { zh: "正品耐克运动鞋" } }),
      spanish: await addProduct(t, { title: { zh: "运动鞋", es: "Zapatillas NIKE originales" } }),
      desc: await addProduct(t, { title: { en: "Plain shoes" }, description: { en: "<p>Like <b>Air Max</b> &amp; more</p>" } }),
      attr: await addProduct(t, { title: { en: "Plain" }, description: { en: '<img alt="x" class="nike">' } }),
      host: await addProduct(t, { title: { pt: "tênis hostonlyword" } }),
      longest: await addProduct(t, { title: { en: "nike air max 90" } }),
      clean: await addProduct(t, { title: { en: "Generic sneakers" }, titleText: "Generic sneakers" }),
    };
    // A stale flag is cleared.
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.update(products).set({ infringementWord: "old" }).where(eq(products.id, p.clean)),
    );
    const res = await screen(t.token, Object.values(p));
    expect(res.status, res.raw).toBe(200);
    expect(res.body.result).toEqual({ count: 9, flagged: 6 });
    expect(await wordOf(t, p.nike)).toBe("nike");
    expect(await wordOf(t, p.nikelab)).toBeNull();
    expect(await wordOf(t, p.cjk)).toBe("耐克");
    expect(await wordOf(t, p.spanish)).toBe("nike");
    expect(await wordOf(t, p.desc)).toBe("air max");
    expect(await wordOf(t, p.attr)).toBeNull();
    expect(await wordOf(t, p.host)).toBe("HostOnlyWord");
    expect(await wordOf(t, p.longest)).toBe("air max");
    expect(await wordOf(t, p.clean)).toBeNull();
  });

  it("applies the host defaults to every tenant, and never another tenant's words", async () => {
    await create(host, { words: ["everywhere"] });
    await create(a.token, { words: ["onlyinA"] });
    const pb = await addProduct(b, { title: { en: "everywhere onlyinA" } });
    const res = await screen(b.token, [pb]);
    expect(res.body.result).toEqual({ count: 1, flagged: 1 });
    expect(await wordOf(b, pb)).toBe("everywhere");
    const pa = await addProduct(a, { title: { en: "onlyinA" } });
    await screen(a.token, [pa]);
    expect(await wordOf(a, pa)).toBe("onlyinA");
  });

  it("screens a sub-account's own products only, never another tenant's or deleted ones", async () => {
    await create(a.token, { words: ["subword"] });
    const mine = await addProduct(a, { title: { en: "subword" }, userId: sub.id });
    const owners = await addProduct(a, { title: { en: "subword" } });
    const deleted = await addProduct(a, { title: { en: "subword" }, isDeleted: true });
    const res = await screen(sub.token, [mine, owners, deleted]);
    expect(res.body.result).toEqual({ count: 1, flagged: 1 });
    expect(await wordOf(a, mine)).toBe("subword");
    expect(await wordOf(a, owners)).toBeNull();
    expect((await screen(b.token, [owners])).body.result).toEqual({ count: 0, flagged: 0 });
    expect(await wordOf(a, owners)).toBeNull();
    expect((await screen(a.token, [owners])).body.result).toEqual({ count: 1, flagged: 1 });
  });

  it("refuses bad input", async () => {
    expect((await screen(a.token, [])).status).toBe(400);
    expect((await screen(a.token, ["nope"])).status).toBe(400);
    expect(
      (
        await screen(
          a.token,
          Array.from({ length: 1001 }, () => randomUUID()),
        )
      ).status,
    ).toBe(400);
  });

  it("screens many products in batches", async () => {
    const t = await newTenant();
    await create(t.token, { words: Array.from({ length: 2000 }, (_, i) => `brand${i}`) });
    const ids: string[] = [];
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) => {
      const rows = Array.from({ length: 450 }, (_, i) => {
        const id = randomUUID();
        ids.push(id);
        return { tenantId: t.tenantId, id, userId: t.userId, title: { en: i % 3 === 0 ? `brand${i} shoes` : `shoes ${i}` } };
      });
      return tx.insert(products).values(rows);
    });
    const res = await screen(t.token, ids);
    expect(res.body.result).toEqual({ count: 450, flagged: 150 });
    // The same products selected by the list's filter instead of ids: 2,150 of them hold "brand", in more than one batch.
    await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
      tx.execute(`insert into products (tenant_id, id, user_id, title)
        select '${t.tenantId}', gen_random_uuid(), '${t.userId}', jsonb_build_object('es', 'brand' || g || ' zapatos')
        from generate_series(1, 2000) g`),
    );
    const byFilter = await s.api("POST", "/api/Product/ScreeningforInfringement", { token: t.token, body: { filter: { title: "brand" } } });
    expect(byFilter.status, byFilter.raw).toBe(200);
    // brand2000 is not a word (the words are brand0…brand1999).
    expect(byFilter.body.result).toEqual({ count: 2150, flagged: 2149 });
    const other = await newTenant();
    const foreign = await s.api("POST", "/api/Product/ScreeningforInfringement", { token: other.token, body: { filter: {} } });
    expect(foreign.body.result).toEqual({ count: 0, flagged: 0 });
  });
});

describe("helpers", () => {
  it("splits csv lines", () => {
    expect(splitCsvLine("a,b")).toEqual(["a", "b"]);
    expect(splitCsvLine('"a,b", c')).toEqual(["a,b", "c"]);
    expect(splitCsvLine("x")).toEqual(["x"]);
    expect(splitCsvLine("")).toEqual([""]);
    expect(splitCsvLine('"unterminated')).toEqual(["unterminated"]);
  });
  it("reads the visible text of HTML", () => {
    expect(htmlText('<p class="nike">A &amp; B&#x4E2D;&#25991;</p><script>nike()</script>')).toBe(" A & B中文  ");
  });
});
