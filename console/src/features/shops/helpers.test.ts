// The shop centre's pure parts: the list state in the URL, the pricing forms against the contract's rules, and the
// authorization flow's window handling and result parsing.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AUTH_WINDOW_NAME,
  parseAuthMessage,
  readAuthReturn,
  startAuthorization,
  stripAuthParams,
  watchAuthWindow,
  type AuthHost,
} from "./meli-auth.ts";
import { siteLabel, siteName, shopTitle } from "./names.ts";
import {
  batchInfoOf,
  batchPricingForm,
  emptyBatchValues,
  pricingForm,
  pricingInfoOf,
  pricingSummary,
  pricingValuesOf,
} from "./pricing-form.ts";
import {
  changeListState,
  defaultListState,
  hasListFilter,
  readListState,
  writeListState,
} from "../../components/list/use-list-url-state.ts";
import { readShopsTab, shopListSchema, toAccountsQuery, writeShopsTab } from "./search-params.ts";
import type { ShopAccount } from "#shared/contract/meli.ts";

const USER = "3f0c8a52-1b7e-4c1d-9a43-2f6f0e9b7a11";

const shop = (over: Partial<ShopAccount> = {}): ShopAccount => ({
  id: "s1",
  group: "g1",
  groupName: "SELLER1",
  ownerId: USER,
  ownerName: "demo",
  alias: null,
  site: 1,
  name: "SELLER1",
  email: null,
  corp: null,
  status: 1,
  statusMessage: null,
  isCbt: false,
  custId: "1800000017",
  isFull: false,
  adjustRate: null,
  tinyPrice: null,
  limitMinPrice: null,
  limitMaxPrice: null,
  currency: "MXN",
  brand: null,
  creationTime: "2026-01-02T03:04:05Z",
  isRecieveOrder: true,
  sort: 0,
  overPrice: null,
  minMargin: null,
  autoReprice: false,
  autoRepriceMaxPercent: null,
  lastModificationTime: null,
  ...over,
});

describe("names", () => {
  it("names the sites as the spec does, with Mercado Libre's id unless the name carries it", () => {
    expect([1, 2, 3, 4, 5].map(siteName)).toEqual(["墨西哥", "巴西", "智利", "哥伦比亚", "跨境（CBT）"]);
    expect(siteLabel(1)).toBe("墨西哥（MLM）");
    expect(siteLabel(5)).toBe("跨境（CBT）");
    expect(siteName(9)).toBe("站点 9");
    expect(shopTitle({ alias: "  ", name: "NICK" })).toBe("NICK");
    expect(shopTitle({ alias: "主店", name: "NICK" })).toBe("主店");
  });
});

describe("list state in the URL", () => {
  it("reads and writes filters, sorting and paging, leaving defaults out", () => {
    const p = new URLSearchParams(`q=abc&site=2&status=3&user=${USER.toUpperCase()}&sort=creationTime%20asc&page=3&size=50&tab=groups`);
    const s = readListState(shopListSchema, p);
    expect(s).toEqual({ q: "abc", site: "2", status: "3", user: USER, sort: "creationTime asc", page: 3, size: 50 });
    expect(readShopsTab(p)).toBe("groups");
    expect(toAccountsQuery(s)).toEqual({
      KeyWord: "abc",
      Site: 2,
      Status: 3,
      UserId: USER,
      Sorting: "creationTime asc",
      SkipCount: 100,
      MaxResultCount: 50,
    });
    // What the toolbar's reset writes: no filter and the default order, keeping the tab and the page size.
    const cleared = writeListState(shopListSchema, p, { ...defaultListState(shopListSchema), size: s.size });
    expect(cleared.toString()).toBe("size=50&tab=groups");
    expect(writeShopsTab(cleared, "list").toString()).toBe("size=50");
    expect(writeListState(shopListSchema, new URLSearchParams(), defaultListState(shopListSchema)).toString()).toBe("");
    // A filter change goes back to page 1; a page change keeps the filters.
    expect(changeListState(s, { site: "1" })).toMatchObject({ site: "1", page: 1 });
    expect(changeListState(s, { page: 2 })).toMatchObject({ site: "2", page: 2 });
  });

  it("drops broken values", () => {
    const s = readListState(shopListSchema, new URLSearchParams("site=9&status=7&user=me&sort=password%20desc&page=-1&size=33"));
    expect(s).toEqual({ q: "", site: "all", status: "all", user: "all", sort: "", page: 1, size: 20 });
    expect(hasListFilter(shopListSchema, s)).toBe(false);
    // The order is not a filter.
    expect(hasListFilter(shopListSchema, { ...s, sort: "name asc" })).toBe(false);
    expect(toAccountsQuery(s)).toEqual({ SkipCount: 0, MaxResultCount: 20 });
  });
});

describe("pricing forms", () => {
  it("prefills a shop's rules and sends every field back, blanks as null", () => {
    const values = pricingValuesOf(shop({ adjustRate: 1.2, tinyPrice: 0.99, limitMaxPrice: 500, sort: 3, brand: "ACME" }));
    expect(values).toMatchObject({
      adjustRate: "1.2",
      tinyPrice: "0.99",
      limitMinPrice: "",
      limitMaxPrice: "500",
      sort: "3",
      brand: "ACME",
      minMargin: "",
    });
    const parsed = pricingForm.parse({ ...values, alias: " 主店 ", sort: "", minMargin: "12.5" });
    expect(pricingInfoOf(parsed)).toEqual({
      alias: "主店",
      adjustRate: 1.2,
      overPrice: null,
      tinyPrice: 0.99,
      limitMinPrice: null,
      limitMaxPrice: 500,
      brand: "ACME",
      sort: 0,
      minMargin: 12.5,
      autoReprice: false,
      autoRepriceMaxPercent: null,
    });
  });

  it("refuses what the contract refuses, in Chinese", () => {
    const messages = (input: Record<string, string>) => {
      const r = pricingForm.safeParse({ ...pricingValuesOf(shop()), ...input });
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(messages({ tinyPrice: "1" })).toEqual(["tinyPrice: 价格尾数应在 0 到 0.99 之间", "tinyPrice: 价格尾数应小于 1"]);
    expect(messages({ adjustRate: "0" })).toEqual(["adjustRate: 价格倍率应在 0.01 到 100 之间"]);
    expect(messages({ adjustRate: "abc" })[0]).toBe("adjustRate: 价格倍率请输入不小于0的数字，最多4位小数");
    expect(messages({ sort: "1.5" })).toEqual(["sort: 排序值请输入整数"]);
    expect(messages({ sort: "-20" })).toEqual([]);
    expect(messages({ limitMinPrice: "100", limitMaxPrice: "50" })).toEqual(["limitMaxPrice: 最高限价不能低于最低限价"]);
    expect(messages({ alias: "x".repeat(65) })).toEqual(["alias: 店铺别名最多64个字符"]);
    expect(messages({ minMargin: "100" })).toEqual(["minMargin: 最低利润率应在 0 到 99.99 之间"]);
    expect(messages({ minMargin: "-1" })[0]).toMatch(/^minMargin: 最低利润率/);
    expect(messages({ minMargin: "0" })).toEqual([]);
  });

  it("batch: only ticked rules change, a ticked blank clears, nothing ticked is refused", () => {
    const none = batchPricingForm.safeParse(emptyBatchValues());
    expect(none.success).toBe(false);
    expect(none.error?.issues[0]).toMatchObject({ path: ["apply"], message: "请至少勾选一项要修改的规则" });
    const v = emptyBatchValues();
    v.apply.adjustRate = true;
    v.adjustRate = "1.5";
    v.apply.limitMaxPrice = true;
    v.apply.sort = true;
    v.sort = "-2";
    expect(batchInfoOf(batchPricingForm.parse(v))).toEqual({ adjustRate: 1.5, limitMaxPrice: null, sort: -2 });
    const noSort = { ...emptyBatchValues(), apply: { ...emptyBatchValues().apply, sort: true } };
    expect(batchPricingForm.safeParse(noSort).error?.issues[0]).toMatchObject({ path: ["sort"], message: "请输入排序值" });
  });

  it("summarizes the rules for the table", () => {
    // Nothing set: the defaults the price formula applies (shared/publish/price.ts, margin.ts).
    expect(pricingSummary(shop())).toEqual(["倍率 ×1.6（默认）", "最低利润率 10%（默认）"]);
    expect(pricingSummary(shop({ adjustRate: 1.25, overPrice: 10, tinyPrice: 0.9, limitMaxPrice: 900, minMargin: 15 }))).toEqual([
      "倍率 ×1.25",
      "加价 +10",
      "尾数 .90",
      "限价 不限 ~ 900",
      "最低利润率 15%",
    ]);
  });
});

describe("authorization results", () => {
  it("reads AuthBack's return URL and drops it", () => {
    const p = new URLSearchParams("site=1&auth=success&groupId=g1&added=2&updated=0&message=%E6%8E%88%E6%9D%83%E6%88%90%E5%8A%9F");
    expect(readAuthReturn(p)).toEqual({ ok: true, reason: null, message: "授权成功", groupId: "g1", added: 2, updated: 0 });
    expect(stripAuthParams(p).toString()).toBe("site=1");
    expect(readAuthReturn(new URLSearchParams("auth=failed&reason=denied"))).toMatchObject({
      ok: false,
      reason: "denied",
      message: "店铺授权失败，请重新授权",
    });
    expect(readAuthReturn(new URLSearchParams("auth=maybe"))).toBeNull();
  });

  it("accepts only AuthBack's message shape", () => {
    expect(
      parseAuthMessage({ type: "meli-auth", ok: false, reason: "limit", message: "店铺数量已达上限", groupId: null, url: "x" }),
    ).toEqual({
      ok: false,
      reason: "limit",
      message: "店铺数量已达上限",
      groupId: null,
      added: null,
      updated: null,
    });
    expect(parseAuthMessage({ type: "other", ok: true })).toBeNull();
    expect(parseAuthMessage("meli-auth")).toBeNull();
    expect(parseAuthMessage({ type: "meli-auth", ok: "yes" })).toBeNull();
  });
});

describe("the authorization window", () => {
  afterEach(() => vi.useRealTimers());

  const fakePopup = () => {
    const w = { closed: false, location: { href: "about:blank" }, close: vi.fn(), document: null } as unknown as Window & {
      close: ReturnType<typeof vi.fn>;
    };
    w.close.mockImplementation(() => ((w as { closed: boolean }).closed = true));
    return w;
  };

  it("opens a window first, then sends it to the authorization page", async () => {
    const popup = fakePopup();
    const host: AuthHost = { open: vi.fn(() => popup), assign: vi.fn() };
    const started = await startAuthorization(async () => "https://auth.example/authorization?state=s", host);
    expect(host.open).toHaveBeenCalledWith("about:blank", AUTH_WINDOW_NAME, expect.stringContaining("popup"));
    expect(started).toEqual({ mode: "popup", popup });
    expect(popup.location.href).toBe("https://auth.example/authorization?state=s");
    expect(host.assign).not.toHaveBeenCalled();
  });

  it("goes there in this window when the window is blocked", async () => {
    const host: AuthHost = { open: () => null, assign: vi.fn() };
    expect(await startAuthorization(async () => "https://auth.example/a", host)).toEqual({ mode: "same-window" });
    expect(host.assign).toHaveBeenCalledWith("https://auth.example/a");
  });

  it("closes the window when GetAuthUrl fails", async () => {
    const popup = fakePopup();
    const host: AuthHost = { open: () => popup, assign: vi.fn() };
    await expect(startAuthorization(() => Promise.reject(new Error("403")), host)).rejects.toThrow("403");
    expect(popup.close).toHaveBeenCalled();
    expect(host.assign).not.toHaveBeenCalled();
  });

  it("takes AuthBack's message from this origin only, and reports a window closed without one", () => {
    vi.useFakeTimers();
    const target = new EventTarget();
    const win = Object.assign(target, { location: { origin: "http://erp.test" } }) as unknown as Window;
    const post = (origin: string, data: unknown) => target.dispatchEvent(Object.assign(new Event("message"), { origin, data }));

    const popup = fakePopup();
    const onResult = vi.fn();
    const onClosed = vi.fn();
    watchAuthWindow(popup, onResult, onClosed, 500, win);
    post("http://evil.test", { type: "meli-auth", ok: true, message: "伪造" });
    post("http://erp.test", { type: "something-else" });
    expect(onResult).not.toHaveBeenCalled();
    post("http://erp.test", { type: "meli-auth", ok: true, message: "授权成功", groupId: "g1" });
    expect(onResult).toHaveBeenCalledWith(expect.objectContaining({ ok: true, message: "授权成功", groupId: "g1" }));
    popup.close();
    vi.advanceTimersByTime(2000);
    expect(onClosed).not.toHaveBeenCalled();

    const popup2 = fakePopup();
    watchAuthWindow(popup2, onResult, onClosed, 500, win);
    popup2.close();
    vi.advanceTimersByTime(1000);
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(onResult).toHaveBeenCalledTimes(1);
  });
});
