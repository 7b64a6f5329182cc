// Pure helpers of the collection screens: labels and the crawler's messages, the URL box, the URL state of the lists,
// the edit form's schema.
import { describe, expect, it } from "vitest";
import { CollectStatus, TaskStatus } from "#shared/contract/enums.ts";
import { collectEditForm, editValuesOf, updateBodyOf } from "./collect-edit-schema.ts";
import { readListState, writeListState } from "../../components/list/use-list-url-state.ts";
import { formatPrice } from "../../lib/format.ts";
import { platformLabel } from "../../lib/labels.ts";
import { chunks, fileProblem, parseUrlLines, titleOf, urlLinesProblem } from "./format.ts";
import { isUnfinished, taskMessageText, taskView, taskViewLabels } from "./labels.ts";
import { collectListSchema, taskListSchema, toCollectFilter, toCollectQuery, toTaskQuery } from "./search-params.ts";
import type { CollectDetail } from "#shared/contract/collect.ts";

const USER = "3fa85f64-5717-4562-b3fc-2c963f66afa6";

describe("labels", () => {
  it("shows a failed task blocked by a login or captcha page as 已拦截", () => {
    expect(taskViewLabels[taskView(TaskStatus.Failed, "blocked: captcha")]).toBe("已拦截");
    expect(taskViewLabels[taskView(TaskStatus.Failed, "采集失败：HTTP 404")]).toBe("失败");
    expect(taskViewLabels[taskView(TaskStatus.Running, null)]).toBe("采集中");
    expect(taskViewLabels[taskView(TaskStatus.Pending, null)]).toBe("等待中");
    expect(taskViewLabels[taskView(TaskStatus.Succeeded, "采集成功")]).toBe("成功");
    expect(isUnfinished(TaskStatus.Running)).toBe(true);
    expect(isUnfinished(TaskStatus.Failed)).toBe(false);
  });
  it("puts the crawler's messages into Chinese and leaves Chinese ones alone", () => {
    expect(taskMessageText("blocked: captcha")).toMatch(/^已拦截：.*验证码/);
    expect(taskMessageText("blocked: login")).toMatch(/^已拦截：.*登录/);
    expect(taskMessageText("采集失败：HTTP 404")).toBe("采集失败：来源网站返回 HTTP 404");
    expect(taskMessageText("采集失败：HTTP 503，30 秒后重试（已尝试 1 次）")).toBe(
      "采集失败：来源网站返回 HTTP 503，30 秒后重试（已尝试 1 次）",
    );
    expect(taskMessageText("采集失败：refused: private address 10.0.0.1")).toBe("采集失败：目标地址不允许访问（内网或受限地址）");
    expect(taskMessageText("采集失败：host shop.example not found")).toBe("采集失败：域名 shop.example 无法解析");
    expect(taskMessageText("采集失败：no complete answer within 15000 ms")).toBe("采集失败：请求超时");
    expect(taskMessageText("采集成功")).toBe("采集成功");
    expect(taskMessageText(null)).toBe("");
    expect(platformLabel(1)).toBe("1688");
    expect(platformLabel(99)).toBe("平台 99");
  });
});

describe("format", () => {
  it("formats prices and ranges with the currency", () => {
    expect(formatPrice("12.5", null, "CNY")).toBe("CNY 12.50");
    expect(formatPrice("12.5", "30", "CNY")).toBe("CNY 12.50 ~ 30.00");
    expect(formatPrice(null, null, "CNY")).toBe("-");
  });
  it("picks the title in zh, es, en, then any language", () => {
    expect(titleOf({ en: "Shirt", zh: "衬衫" })).toEqual({ text: "衬衫", language: "zh" });
    expect(titleOf({ pt: "Camisa" })).toEqual({ text: "Camisa", language: "pt" });
    expect(titleOf({})).toEqual({ text: "", language: null });
  });
  it("reads the URL box: one per line, repeats once, bad lines named", () => {
    const p = parseUrlLines(" https://a.com/1 \n\nhttps://a.com/1\nftp://x\n//img.example/2\nnot a url");
    expect(p.urls).toEqual(["https://a.com/1", "https://img.example/2"]);
    expect(p.duplicates).toBe(1);
    expect(p.invalid.map((i) => i.line)).toEqual([4, 6]);
    expect(urlLinesProblem(p)).toBe("第 4 行不是有效的 http/https 链接 等 2 行");
    expect(urlLinesProblem(parseUrlLines("https://a.com"))).toBeNull();
    expect(urlLinesProblem(parseUrlLines(""))).toBe("请输入商品链接");
    const many = Array.from({ length: 501 }, (_, i) => `https://a.com/${i}`).join("\n");
    expect(urlLinesProblem(parseUrlLines(many))).toBe("一次最多采集 500 个链接，当前 501 个");
  });
  it("checks a chosen file and slices id lists", () => {
    expect(fileProblem({ name: "urls.xlsx", size: 10 })).toBeNull();
    expect(fileProblem({ name: "urls.exe", size: 10 })).toBe("请选择 xlsx、csv 或 txt 文件");
    expect(fileProblem({ name: "urls.txt", size: 6 * 1024 * 1024 })).toBe("文件过大，最大 5 MB");
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});

describe("list URL schemas", () => {
  const readCollect = (qs: string) => readListState(collectListSchema, new URLSearchParams(qs));
  const readTask = (qs: string) => readListState(taskListSchema, new URLSearchParams(qs));

  it("reads defaults and falls back on broken values", () => {
    expect(readCollect("")).toEqual({
      from: "",
      to: "",
      status: "all",
      platform: "all",
      infr: "all",
      user: "all",
      q: "",
      sku: "",
      page: 1,
      size: 20,
    });
    const broken = readCollect("status=7&platform=x&infr=maybe&user=bob&from=2024-13-01&page=0&size=33");
    expect(broken).toMatchObject({ status: "all", platform: "all", infr: "all", user: "all", from: "", page: 1, size: 20 });
  });
  it("round-trips a collect list state and builds GetCollect's body", () => {
    const state = {
      ...readCollect(""),
      status: String(CollectStatus.Migrated),
      platform: "2",
      infr: "yes" as const,
      user: USER,
      q: " 衬衫 ",
      sku: "123",
      from: "2024-05-01",
      page: 3,
      size: 200,
    };
    const params = writeListState(collectListSchema, new URLSearchParams("keep=1"), state);
    expect(params.get("keep")).toBe("1");
    expect(params.get("q")).toBe("衬衫");
    expect(params.has("to")).toBe(false);
    expect(readListState(collectListSchema, params)).toEqual({ ...state, q: "衬衫" });
    const filter = toCollectFilter(state);
    expect(filter).toMatchObject({ status: 2, platformType: 2, hasInfringement: true, userId: USER, title: "衬衫", sku: "123" });
    expect(filter.startDate).toBeDefined();
    expect(filter).not.toHaveProperty("endDate");
    expect(toCollectQuery(state)).toMatchObject({ skipCount: 400, maxResultCount: 200 });
  });
  it("round-trips a task list state and builds GetCollectTasks' query", () => {
    const state = { ...readTask(""), status: String(TaskStatus.Failed), q: "taobao", page: 2 };
    const params = writeListState(taskListSchema, new URLSearchParams(), state);
    expect(params.toString()).toBe("q=taobao&status=4&page=2");
    expect(readListState(taskListSchema, params)).toEqual(state);
    expect(toTaskQuery(state)).toEqual({
      TaskStatus: 4,
      Search: "taobao",
      Sorting: "creationTime desc",
      SkipCount: 20,
      MaxResultCount: 20,
    });
    expect(readTask("status=5").status).toBe("all");
  });
});

describe("edit form", () => {
  const detail = {
    id: USER,
    concurrencyStamp: "stamp",
    title: { zh: "衬衫", pt: "Camisa" },
    price: "12.50",
    currency: "CNY",
    weight: "250.00",
    brand: null,
    status: CollectStatus.Collected,
  } as unknown as CollectDetail;

  it("shows every title language and numbers without trailing zeros", () => {
    expect(editValuesOf(detail)).toEqual({
      titles: { zh: "衬衫", es: "", en: "", pt: "Camisa" },
      price: "12.5",
      currency: "CNY",
      weight: "250",
      brand: "",
      status: "1",
    });
  });
  it("sends blanks as null, drops blank titles and keeps the stamp", () => {
    const v = collectEditForm.parse({
      ...editValuesOf(detail),
      titles: { zh: "新标题", es: " ", en: "", pt: "Camisa" },
      price: "",
      currency: "usd",
    });
    expect(updateBodyOf(detail, v)).toEqual({
      id: USER,
      concurrencyStamp: "stamp",
      title: { zh: "新标题", pt: "Camisa" },
      price: null,
      currency: "USD",
      weight: 250,
      brand: null,
      status: 1,
    });
  });
  it("refuses no title at all, bad prices and currencies in Chinese", () => {
    const r = collectEditForm.safeParse({ ...editValuesOf(detail), titles: { zh: "", es: "" }, price: "1.234", currency: "RMB1" });
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => i.message);
    expect(messages).toContain("请至少填写一种语言的标题");
    expect(messages).toContain("价格请输入不小于0的数字，最多2位小数");
    expect(messages).toContain("币种为3位字母代码，如 CNY、USD");
  });
});
