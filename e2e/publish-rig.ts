// Publishing against a sandbox in its own process, for the reliability test (e2e/publish-reliability.test.ts) and the
// publish benchmark (bench/publish.ts): the sandbox (`server/sandbox/main.ts`), a recording tap between the app and
// the sandbox (every Mercado Libre call with its start, end, status and Retry-After: the sandbox counts calls per
// route but keeps no times), the app's processes (`server/main.ts`, all-in-one or ROLE=api / ROLE=worker; the console
// is not built: these processes serve the API and the jobs only), and the set-up a seller does before publishing:
// categories synced by the host, a shop connected through the sandbox's consent form and AuthBack, a GTIN pool and
// publishable products.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from "../server/sandbox/store.ts";
import { createSandbox } from "../server/sandbox/sandbox.ts";
import { plainLeaf, requiredAttributes } from "../server/testing/sandbox-kit.ts";
import { accessToken, callApi, cleanEnv, freePort, parseFirstStart, repoRoot } from "./app-process.ts";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type Proc = {
  child: ChildProcess;
  /** The "[ready]" line's URL (null for a worker). */
  url: string | null;
  output(): string;
  /** SIGKILL (or another signal) and wait for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
};

const MAX_CAPTURE = 256 * 1024;

/** Starts `node --import tsx <script>` and waits for the line `ready` matches. */
async function startProcess(script: string, env: NodeJS.ProcessEnv, ready: RegExp, timeoutMs = 120_000): Promise<Proc> {
  const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const keep = (d: string) => {
    if (out.length < MAX_CAPTURE) out += d;
  };
  child.stdout!.setEncoding("utf8").on("data", keep);
  child.stderr!.setEncoding("utf8").on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const started = Date.now();
  let m: RegExpExecArray | null = null;
  while (!(m = ready.exec(out))) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${script} exited before ready:\n${out}`);
    if (Date.now() - started > timeoutMs) {
      child.kill("SIGKILL");
      throw new Error(`${script} not ready after ${timeoutMs} ms:\n${out}`);
    }
    await sleep(50);
  }
  return {
    child,
    url: m[1] ?? null,
    output: () => out,
    async kill(signal: NodeJS.Signals = "SIGKILL") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** The sandbox alone, on a free loopback port; `ctl` speaks to its /_sandbox controls. */
export async function startSandboxProcess() {
  const port = await freePort();
  const proc = await startProcess(
    "server/sandbox/main.ts",
    cleanEnv({ SANDBOX_PORT: String(port), HOST: "127.0.0.1" }),
    /\[sandbox\] Mercado Libre sandbox at (http:\/\/\S+)/,
  );
  const url = `http://127.0.0.1:${port}`;
  async function ctl<T = unknown>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${url}/_sandbox/${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }
  return {
    proc,
    url,
    ctl,
    creations: () =>
      ctl<{ creations: { key: string; itemIds: string[] }[]; duplicates: { key: string; itemIds: string[] }[] }>("GET", "creations"),
    calls: () => ctl<Record<string, number>>("GET", "calls"),
  };
}
export type SandboxProcess = Awaited<ReturnType<typeof startSandboxProcess>>;

export type TapCall = {
  /**
   * ms (performance.now() of this process): when the request reached the tap, when the tap began to pass its answer on
   * (the app cannot have read the answer before), and when the answer was passed on.
   */
  start: number;
  answered: number;
  end: number;
  method: string;
  path: string;
  /** The query string (without "?"). */
  query: string;
  status: number;
  retryAfter: string | null;
  /** Whether the call carried a seller's token (every seller call of these runs is the one shop's). */
  seller: boolean;
  /** The call's x-idempotency-key (a creation's: its listing), null without one. */
  key: string | null;
};

/** A recording reverse proxy in front of the sandbox: the app's MELI_API_URL. */
export async function startTap(target: string) {
  const calls: TapCall[] = [];
  const body = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const parts: Buffer[] = [];
      req.on("data", (c: Buffer) => parts.push(c));
      req.on("end", () => resolve(Buffer.concat(parts)));
      req.on("error", reject);
    });
  const server: Server = createServer(async (req, res) => {
    const start = performance.now();
    try {
      const payload = await body(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (v === undefined || ["host", "content-length", "connection", "accept-encoding"].includes(k)) continue;
        headers[k] = Array.isArray(v) ? v.join(", ") : v;
      }
      const answer = await fetch(target + req.url, {
        method: req.method,
        headers,
        body: payload.length ? new Uint8Array(payload) : undefined,
      });
      const text = Buffer.from(await answer.arrayBuffer());
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (!["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"].includes(k)) out[k] = v;
      });
      const answered = performance.now();
      res.writeHead(answer.status, out);
      res.end(text);
      calls.push({
        start,
        answered,
        end: performance.now(),
        method: req.method ?? "GET",
        path: (req.url ?? "").split("?")[0],
        query: (req.url ?? "").split("?")[1] ?? "",
        status: answer.status,
        retryAfter: answer.headers.get("retry-after"),
        seller: !!req.headers.authorization,
        key: (req.headers["x-idempotency-key"] as string | undefined) ?? null,
      });
    } catch (err) {
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: String(err), error: "tap", status: 502, cause: [] }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Tap = Awaited<ReturnType<typeof startTap>>;

export const ADMIN_PASSWORD = "Publish-rig-2026";
const SIGNING_KEY = "publish-rig-signing-key-0123456789abcdef";

/** The app's environment: its own data directory (and database when given), Mercado Libre = the tap + sandbox. */
/** The app's settings for the Mercado Libre sandbox at `sandboxUrl` (its API at `apiUrl`: a recording tap, say). */
export const sandboxEnv = (sandboxUrl: string, apiUrl = sandboxUrl) => ({
  MELI_API_URL: apiUrl,
  MELI_AUTH_URL: `${sandboxUrl}/auth`,
  MELI_CLIENT_ID: DEFAULT_CLIENT_ID,
  MELI_CLIENT_SECRET: DEFAULT_CLIENT_SECRET,
});

export function appEnv(o: { dataDir: string; databaseUrl?: string; apiUrl: string; sandboxUrl: string; port?: number }) {
  return {
    DATA_DIR: o.dataDir,
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    HOST: "127.0.0.1",
    PORT: String(o.port ?? 0),
    LOG_LEVEL: "warn",
    ADMIN_PASSWORD,
    TOKEN_SIGNING_KEY: SIGNING_KEY,
    ...sandboxEnv(o.sandboxUrl, o.apiUrl),
  };
}

/** The app's process: ROLE all (default), api or worker (PostgreSQL only). */
export async function startServer(env: Record<string, string>, role: "all" | "api" | "worker" = "all"): Promise<Proc> {
  const port = env.PORT === "0" || !env.PORT ? String(await freePort()) : env.PORT;
  return startProcess(
    "server/main.ts",
    cleanEnv({ ...env, PORT: port, ROLE: role }),
    role === "worker" ? /\[ready\] worker()/ : /\[ready\] (http:\/\/\S+)/,
    180_000,
  );
}

/** A valid EAN-13 (GS1 check digit) from a 12-digit body. */
export function ean13(body: string): string {
  let sum = 0;
  for (let i = 11, w = 3; i >= 0; i--, w = 4 - w) sum += Number(body[i]) * w;
  return body + ((10 - (sum % 10)) % 10);
}

/** The MLM leaf the products go to and a value for each of its required attributes (the sandbox's trees are seeded). */
export function mlmCategory() {
  const leaf = plainLeaf(createSandbox(), "MLM");
  return {
    cateId: leaf.id,
    attrs: requiredAttributes(leaf).map((a) => ({
      id: a.id,
      valueId: (a as { value_id?: string }).value_id ?? null,
      valueName: (a as { value_name?: string }).value_name ?? null,
    })),
  };
}

export type Seller = { url: string; token: string; groupId: string; sellerId: number };

type Consent = {
  nickname: string;
  /** The seller's site: MLM… for a local seller, CBT for a global seller. */
  site: string;
  /** A global seller's marketplaces (MLM, MLB…). */
  marketplaces?: string[];
  /** GetAuthUrl's sites (default: Mexico, or global selling for a CBT seller). */
  sites?: number[];
};

/** The sandbox's consent form as the seller's browser posts it: answers the code of the redirect, and its state. */
async function consentCode(auth: URL, o: Consent, challenge?: string): Promise<{ code: string; state: string }> {
  const form = new URLSearchParams(auth.searchParams);
  if (challenge) form.set("code_challenge", challenge);
  form.set("nickname", o.nickname);
  // The test seller signs up the first time, and signs in with the same password after that.
  form.set("password", "seller-pass-1");
  form.set("signup", "1");
  form.set("site", o.site);
  for (const m of o.marketplaces ?? []) form.append("marketplaces", m);
  form.set("decision", "allow");
  const consent = await fetch(auth.toString().split("?")[0], {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual",
  });
  if (consent.status !== 302) throw new Error(`consent: ${consent.status} ${await consent.text()}`);
  const back = new URL(consent.headers.get("location")!);
  return { code: back.searchParams.get("code")!, state: back.searchParams.get("state")! };
}

const authUrl = async (url: string, token: string, o: Consent) =>
  new URL(
    await callApi<string>(url, token, "GET", `/api/Meli/GetAuthUrl?sites=${(o.sites ?? [o.site === "CBT" ? 5 : 1]).join("&sites=")}`),
  );

/** Connects a sandbox seller to the app (GetAuthUrl, the sandbox's consent form, AuthBack); answers its shop group id. */
export async function connectSeller(url: string, token: string, o: Consent): Promise<string> {
  const { code, state } = await consentCode(await authUrl(url, token, o), o);
  const page = await (await fetch(`${url}/api/Meli/AuthBack?${new URLSearchParams({ code, state })}`)).text();
  if (!page.includes("auth=success")) throw new Error(`AuthBack did not connect the shop:\n${page.slice(0, 2000)}`);
  const groups = await callApi<{ groups: { groupId: string; name: string }[] }>(url, token, "GET", "/api/MeliAccount/GetMeliAccGroup");
  return groups.groups.find((g) => g.name === o.nickname)!.groupId;
}

/**
 * A token of the sandbox seller for reading what it holds, as a second app would get one (the seller's consent again,
 * with this side's own PKCE verifier, and the code exchanged at /oauth/token): the app's access token stays valid,
 * its refresh token is rotated away, so call this after the app's work. Answers the token and the sandbox's API base.
 */
export async function sellerToken(url: string, token: string, o: Consent): Promise<{ api: string; token: string }> {
  const auth = await authUrl(url, token, o);
  const verifier = randomBytes(32).toString("base64url");
  const { code } = await consentCode(auth, o, createHash("sha256").update(verifier).digest("base64url"));
  const api = auth
    .toString()
    .split("?")[0]
    .replace(/\/auth\/authorization$/, "");
  const res = await fetch(`${api}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: auth.searchParams.get("client_id")!,
      client_secret: DEFAULT_CLIENT_SECRET,
      code,
      redirect_uri: auth.searchParams.get("redirect_uri")!,
      code_verifier: verifier,
    }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!res.ok || !body.access_token) throw new Error(`token exchange: ${res.status} ${JSON.stringify(body)}`);
  return { api, token: body.access_token };
}

async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/**
 * What a seller does before publishing, on a freshly started app (its first start's output names the demo tenant):
 * the host syncs Mexico's categories, the demo user connects the sandbox seller `nickname`, fills the GTIN pool and
 * creates publishable products: `count` whose titles contain each `tag` (a publish request's filter).
 */
export async function prepareSeller(
  app: Proc,
  sandbox: SandboxProcess,
  o: { nickname: string; products: { tag: string; count: number }[] },
): Promise<Seller> {
  const url = app.url!;
  const demo = parseFirstStart(app.output()).demo;
  if (!demo) throw new Error(`no demo tenant in the first start's output:\n${app.output()}`);
  const host = await accessToken(url, "admin", ADMIN_PASSWORD);
  const token = await accessToken(url, demo.user, demo.password, demo.tenant);

  const { taskId } = await callApi<{ taskId: string }>(url, host, "POST", "/api/MeliCategory/UpdateAllCategory", {
    sites: [1],
    withFees: true,
  });
  for (let i = 0; ; i++) {
    const page = await callApi<{ items: { id: string; taskStatus: number }[] }>(
      url,
      host,
      "GET",
      "/api/TaskInfo/GetTaskInfoByPage?TaskType=9&MaxResultCount=10",
    );
    const task = page.items.find((t) => t.id === taskId);
    if (task?.taskStatus === 3) break;
    if (task?.taskStatus === 4 || i > 1200) throw new Error(`category sync did not finish: ${JSON.stringify(task)}`);
    await sleep(100);
  }

  await connectSeller(url, token, { nickname: o.nickname, site: "MLM" });
  const accounts = await callApi<{ items: { group: string }[] }>(url, token, "GET", "/api/MeliAccount/GetAccounts?MaxResultCount=10");
  const groupId = accounts.items[0].group;
  const { id: sellerId } = await sandbox.ctl<{ id: number }>("POST", "sellers", { nickname: o.nickname });

  // The leaf requires a GTIN: one code per product, and a few spare.
  const total = o.products.reduce((n, p) => n + p.count, 0);
  const codes = Array.from({ length: total + 10 }, (_, i) => ean13(`750${String(i + 1).padStart(9, "0")}`));
  await callApi(url, token, "POST", "/api/MeliCode/SetCodes", { codes });

  const wanted = o.products.flatMap(({ tag, count }) => Array.from({ length: count }, (_, i) => ({ tag, n: i + 1 })));
  await pool(wanted, 4, async ({ tag, n }) => {
    await callApi(url, token, "POST", "/api/Product/CreateOrUpdateProduct", {
      title: { es: `Lámpara LED ${tag} modelo ${n}`, zh: `LED台灯 ${n}` },
      description: { es: "<p>Luz cálida y fría</p>" },
      price: 100,
      currency: "CNY",
      sku: `${tag}-${n}`,
      stock: 5,
      weight: 450,
      size: "20x15x10",
      images: [`https://img.example.com/${tag}-${n}.jpg`],
    });
  });
  return { url, token, groupId, sellerId };
}

export type BatchView = { id: string; status: number; total: number; success: number; fail: number; skipped: number };
export type ListingRow = { id: string; productId: string; status: number; itemId: string | null; reason: string | null };

/** Publishes every product whose title contains `tag` to Mexico; answers the batch as the call answered it. */
export function publishTagged(s: Seller, tag: string, count: number): Promise<BatchView> {
  const { cateId, attrs } = mlmCategory();
  return callApi<BatchView>(s.url, s.token, "POST", "/api/MeliStatNew/Publish", {
    accountGroupId: s.groupId,
    sites: [1],
    filter: { title: tag },
    maxProductCount: count,
    cateInfo: [{ site: 1, cateId, attrs }],
  });
}

async function batchOf(s: Seller, batchId: string): Promise<BatchView> {
  const page = await callApi<{ items: BatchView[] }>(s.url, s.token, "POST", "/api/MeliStatNew/GetPublishBatchesByPage", {
    maxResultCount: 100,
  });
  const b = page.items.find((x) => x.id === batchId);
  if (!b) throw new Error(`batch ${batchId} not listed`);
  return b;
}

export async function listingsOf(s: Seller, batchId: string): Promise<ListingRow[]> {
  const out: ListingRow[] = [];
  for (let skip = 0; ; skip += 1000) {
    const page = await callApi<{ items: ListingRow[]; totalCount: number }>(
      s.url,
      s.token,
      "POST",
      "/api/MeliStatNew/GetPublishBatchListings",
      {
        batchId,
        skipCount: skip,
        maxResultCount: 1000,
      },
    );
    out.push(...page.items);
    if (out.length >= page.totalCount || !page.items.length) return out;
  }
}

/** Polls the batch until no listing is pending or publishing (or the time runs out: answers what it saw last). */
export async function waitForBatch(s: Seller, batchId: string, timeoutMs: number, every = 500): Promise<BatchView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const b = await batchOf(s, batchId);
    if (b.success + b.fail + b.skipped >= b.total || Date.now() > until) return b;
    await sleep(every);
  }
}

/** Seller calls that reached the sandbox (the tap's record), optionally only creations (POST /items). */
export const sellerCalls = (calls: TapCall[], creationsOnly = false) =>
  calls.filter((c) => c.seller && (!creationsOnly || (c.method === "POST" && c.path === "/items")));

/**
 * For each 429: the first seller call sent after it and how long after the answer it went (ms), when the refused request
 * (same idempotency key) went again, and the seller calls that reached the sandbox while the app must have been holding.
 *
 * Only the tap's clock is used, and only in the safe direction. The app read the 429 at some moment R after the tap
 * began to answer (`answered`). The refused request goes again no earlier than R + Retry-After, so R lies between
 * `answered` and its next try − Retry-After. Between that upper bound and `answered` + Retry-After, the app had read
 * the 429 and its Retry-After had not ended: a call that reached the tap then was sent before R (in flight when the app
 * read the 429) or not held at all. A busy app that reads the 429 late narrows this window instead of failing the test.
 */
export function callsAfter429(record: TapCall[]) {
  const calls = sellerCalls(record).sort((a, b) => a.start - b.start);
  return calls
    .filter((c) => c.status === 429)
    .map((r) => {
      const next = calls.find((c) => c.start > r.answered);
      const again = r.key === null ? undefined : calls.find((c) => c.start > r.answered && c.key === r.key);
      const ra = Number(r.retryAfter ?? "NaN");
      const holding = { from: again ? Math.max(r.answered, again.start - ra * 1000) : r.answered, to: r.answered + ra * 1000 };
      const inside = calls.filter((c) => c.start > holding.from && c.start < holding.to);
      return {
        retryAfter: ra,
        key: r.key,
        gapMs: next ? next.start - r.answered : null,
        /** When the refused request went again, ms after the tap began to answer the 429; null if it never did. */
        againMs: again ? again.start - r.answered : null,
        /** How long the window in which the app was surely holding lasted, ms. */
        holdingMs: Math.max(0, holding.to - holding.from),
        /** Seller calls that reached the sandbox inside that window, ms after the 429's answer. */
        early: inside.map((c) => ({
          key: c.key,
          ms: Math.round(c.start - r.answered),
          text: `${Math.round(c.start - r.answered)} ms ${c.method} ${c.path} ${c.status}`,
        })),
      };
    });
}

/** The most calls in any window of `windowMs` (sliding, over the calls' start times). */
export function maxInWindow(calls: TapCall[], windowMs: number): number {
  const t = calls.map((c) => c.start).sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < t.length; i++) {
    while (t[i] - t[j] >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}
