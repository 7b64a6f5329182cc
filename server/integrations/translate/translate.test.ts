// The translation adapters against loopback fakes of each provider's real wire format (path, headers, body fields,
// answer and error bodies): batching within the provider's limits with the order kept, blank texts without a call,
// the seller's message for auth, quota and outage, retries of 429 (Retry-After honoured) and 5xx only, and answers
// that are never misaligned. The fakes translate deterministically: "[<target>] <text>".
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { settings } from "../../db/schema.ts";
import { hostScope, inScope } from "../../db/scope.ts";
import { SettingKeys, storedSettingValue } from "../../db/settings.ts";
import { createSecretBox } from "../../security/secrets.ts";
import { openTestDatabase } from "../../testing/templates.ts";
import { planBatches } from "./batch.ts";
import { createDeepL, deeplDefaultUrl, deeplSource, deeplTarget } from "./deepl.ts";
import { createGoogle, googleLanguage } from "./google.ts";
import { createTranslator, translatorFromSettings, type TranslateSettings } from "./index.ts";
import { createLibreTranslate } from "./libretranslate.ts";
import { createOpenAI, parseAnswer } from "./openai.ts";
import { TranslationError, type Translator, type TranslatorOptions } from "./types.ts";

// ---------------------------------------------------------------------------------------------------------------
// A loopback fake: records every request and answers through the current handler.

type Recorded = { method: string; path: string; headers: IncomingHttpHeaders; raw: string; body: any };
type Answer = { status?: number; body?: unknown; raw?: string; headers?: Record<string, string>; hang?: boolean };

type Fake = {
  url: string;
  requests: Recorded[];
  handle: (req: Recorded) => Answer | Promise<Answer>;
  close(): Promise<void>;
};

async function startFake(): Promise<Fake> {
  const fake = { requests: [] as Recorded[], handle: (() => ({ status: 500 })) as Fake["handle"] } as Fake;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const rec: Recorded = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, raw, body };
      fake.requests.push(rec);
      const a = await fake.handle(rec);
      if (a.hang) return; // never answers (the client's time limit ends it)
      res.writeHead(a.status ?? 200, { "content-type": "application/json", ...a.headers });
      res.end(a.raw ?? JSON.stringify(a.body ?? {}));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return fake;
}

const fast: TranslatorOptions = { backoffBaseMs: 5 };
const tag = (target: string, text: string) => `[${target}] ${text}`;
const texts = (n: number, prefix = "文本") => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

async function failure(p: Promise<unknown>): Promise<TranslationError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TranslationError);
    return e as TranslationError;
  }
  throw new Error("expected the call to fail");
}

const AUTH = "翻译服务认证失败（API Key 无效），请联系管理员检查系统设置中的翻译服务配置";
const QUOTA = "翻译服务额度已用尽，请联系管理员充值或提高额度后重试";
const UNAVAILABLE = "翻译服务暂时不可用，请稍后重试";
const NOT_CONFIGURED = "翻译服务未配置，请联系管理员在系统设置中配置翻译服务";

let fake: Fake;
beforeAll(async () => {
  fake = await startFake();
});
afterAll(() => fake?.close());
afterEach(() => {
  fake.requests = [];
  fake.handle = () => ({ status: 500 });
});

// ---------------------------------------------------------------------------------------------------------------
// LibreTranslate

/** LibreTranslate's /translate as the server answers it (a list for a list q, a string for a string q). */
function libre(languages: string[] = ["en", "es", "zh-Hans", "pb"], key = "lt-key") {
  return (req: Recorded): Answer => {
    if (req.method === "GET" && req.path === "/languages")
      return { body: languages.map((code) => ({ code, name: code, targets: languages })) };
    if (req.method !== "POST" || req.path !== "/translate") return { status: 404, raw: "<h1>Not Found</h1>" };
    if (!String(req.headers["content-type"]).startsWith("application/json")) return { status: 400, body: { error: "not json" } };
    const { q, source, target, format, api_key } = req.body;
    if (api_key !== key) return { status: 403, body: { error: "Invalid API key" } };
    if (!languages.includes(target) || (source !== "auto" && !languages.includes(source)))
      return { status: 400, body: { error: `${target} is not supported` } };
    if (format !== "text" && format !== "html") return { status: 400, body: { error: `${format} format is not supported` } };
    const out = (Array.isArray(q) ? q : [q]).map((t: string) => tag(target, t));
    return { body: Array.isArray(q) ? { translatedText: out } : { translatedText: out[0] } };
  };
}

describe("LibreTranslate", () => {
  const lt = (o: TranslatorOptions = {}) => createLibreTranslate({ url: fake.url + "/", apiKey: "lt-key" }, { ...fast, ...o });

  it("posts {q: [...], source: auto, target, format, api_key} as JSON to /translate and keeps the order", async () => {
    fake.handle = libre();
    const out = await lt().translate(["红色连衣裙", "", "  ", "蓝色", "红色连衣裙"], null, "es");
    expect(out).toEqual([tag("es", "红色连衣裙"), "", "  ", tag("es", "蓝色"), tag("es", "红色连衣裙")]);
    expect(fake.requests).toHaveLength(1);
    const [r] = fake.requests;
    expect(r.method).toBe("POST");
    expect(r.path).toBe("/translate");
    expect(r.headers["content-type"]).toBe("application/json");
    // Blank texts are not sent; a repeated text is sent once.
    expect(r.body).toEqual({ q: ["红色连衣裙", "蓝色"], source: "auto", target: "es", format: "text", api_key: "lt-key" });
  });

  it("maps zh and pt through the server's /languages (newer zh-Hans/pb, older zh/pt), asking once", async () => {
    fake.handle = libre();
    const t = lt();
    expect(await t.translate(["<p>你好</p>"], "zh-CN", "pt", { html: true })).toEqual([tag("pb", "<p>你好</p>")]);
    expect(await t.translate(["再见"], "zh", "en")).toEqual([tag("en", "再见")]);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /languages", "POST /translate", "POST /translate"]);
    expect(fake.requests[1].body).toMatchObject({ source: "zh-Hans", target: "pb", format: "html" });

    fake.requests = [];
    fake.handle = libre(["en", "es", "zh", "pt"]);
    expect(await lt().translate(["你好"], "zh", "pt")).toEqual([tag("pt", "你好")]);
    expect(fake.requests[1].body).toMatchObject({ source: "zh", target: "pt" });
  });

  it("accepts a single string answer for a single text", async () => {
    fake.handle = () => ({ body: { translatedText: "Hola" } });
    expect(await lt().translate(["你好"], null, "es")).toEqual(["Hola"]);
  });

  it("halves a batch the server's own limit refuses, keeping every result in place", async () => {
    const inner = libre();
    fake.handle = (req) =>
      req.body?.q?.length > 8
        ? { status: 400, body: { error: `Invalid request: request (${req.body.q.length}) exceeds text limit (8)` } }
        : inner(req);
    const input = texts(30);
    expect(await lt().translate(input, null, "es")).toEqual(input.map((t) => tag("es", t)));
    expect(fake.requests.filter((r) => r.body.q.length <= 8).reduce((n, r) => n + r.body.q.length, 0)).toBe(30);
  });

  it("answers an invalid key with the auth message and does not retry", async () => {
    fake.handle = libre(undefined, "another-key");
    const e = await failure(lt().translate(["你好"], null, "es"));
    expect(e.message).toBe(AUTH);
    expect(e.kind).toBe("auth");
    expect(e.provider).toBe("libretranslate");
    expect(e.httpStatus).toBe(403);
    expect(e.retryable).toBe(false);
    expect(e.providerMessage).toBe("Invalid API key");
    expect(fake.requests).toHaveLength(1);
  });

  it("names an unsupported language", async () => {
    fake.handle = libre();
    const e = await failure(lt().translate(["你好"], null, "fr"));
    expect(e.kind).toBe("rejected");
    expect(e.message).toContain("不支持该语言");
    expect(e.details).toBe("fr is not supported");
  });

  it("retries a 500 three times in all, then says the service is unavailable", async () => {
    fake.handle = () => ({ status: 500, body: { error: "Cannot translate text: boom" } });
    const e = await failure(lt().translate(["你好"], null, "es"));
    expect(e.message).toBe(UNAVAILABLE);
    expect(e.retryable).toBe(true);
    expect(e.httpStatus).toBe(500);
    expect(fake.requests).toHaveLength(3);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// DeepL

/** DeepL's /v2/translate: checks the auth header and the JSON body like the real service. */
function deepl(key = "deepl-key:fx") {
  return (req: Recorded): Answer => {
    if (req.method !== "POST" || req.path !== "/v2/translate") return { status: 404, body: { message: "Not found" } };
    if (req.headers.authorization !== `DeepL-Auth-Key ${key}`) return { status: 403, body: { message: "Authorization failure" } };
    const { text, target_lang } = req.body;
    if (!Array.isArray(text) || text.length > 50) return { status: 400, body: { message: "Too many texts" } };
    if (!["ES", "PT-BR", "EN-US", "ZH-HANS"].includes(target_lang))
      return { status: 400, body: { message: "Value for 'target_lang' not supported." } };
    return {
      body: {
        translations: text.map((t: string) => ({ detected_source_language: req.body.source_lang ?? "ZH", text: tag(target_lang, t) })),
      },
    };
  };
}

describe("DeepL", () => {
  const dl = (o: TranslatorOptions = {}, apiKey = "deepl-key:fx") => createDeepL({ apiKey, url: fake.url }, { ...fast, ...o });

  it("posts {text, target_lang, source_lang?, tag_handling?} to /v2/translate with the DeepL-Auth-Key header", async () => {
    fake.handle = deepl();
    expect(await dl().translate(["你好"], null, "es")).toEqual([tag("ES", "你好")]);
    expect(await dl().translate(["<b>你好</b>"], "zh-cn", "pt", { html: true })).toEqual([tag("PT-BR", "<b>你好</b>")]);
    expect(await dl().translate(["你好"], "zh", "en")).toEqual([tag("EN-US", "你好")]);
    const [plain, html, en] = fake.requests;
    expect(plain.path).toBe("/v2/translate");
    expect(plain.headers.authorization).toBe("DeepL-Auth-Key deepl-key:fx");
    expect(plain.headers["content-type"]).toBe("application/json");
    expect(plain.body).toEqual({ text: ["你好"], target_lang: "ES" });
    expect(html.body).toEqual({ text: ["<b>你好</b>"], target_lang: "PT-BR", source_lang: "ZH", tag_handling: "html" });
    expect(en.body).toEqual({ text: ["你好"], target_lang: "EN-US", source_lang: "ZH" });
  });

  it("sends 120 texts in 3 requests of at most 50, in order, skipping blanks", async () => {
    fake.handle = deepl();
    const input = texts(120);
    input.splice(60, 0, "", " \n");
    const out = await dl().translate(input, "zh", "es");
    expect(out).toEqual(input.map((t) => (t.trim() ? tag("ES", t) : t)));
    expect(fake.requests.map((r) => r.body.text.length)).toEqual([50, 50, 20]);
    expect(fake.requests.flatMap((r) => r.body.text)).toEqual(texts(120));
  });

  it("makes no call when every text is blank", async () => {
    fake.handle = deepl();
    expect(await dl().translate(["", "  "], null, "es")).toEqual(["", "  "]);
    expect(await dl().translate([], null, "es")).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it("keeps a request under 128 KiB: long texts are split by size as well", () => {
    const long = "长".repeat(20_000); // 60,000 bytes as UTF-8
    const batches = planBatches([long, long, long, "短"], { maxTexts: 50, maxChars: 1_000_000, maxBytes: 120 * 1024 });
    expect(batches.map((b) => b.length)).toEqual([2, 2]);
  });

  it("answers 456 with the quota message, without retrying", async () => {
    fake.handle = () => ({ status: 456, body: { message: "Quota exceeded" } });
    const e = await failure(dl().translate(["你好"], null, "es"));
    expect(e.message).toBe(QUOTA);
    expect(e.kind).toBe("quota");
    expect(e.httpStatus).toBe(456);
    expect(e.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it("answers 403 with the auth message, without retrying", async () => {
    fake.handle = deepl("the-right-key");
    const e = await failure(dl().translate(["你好"], null, "es"));
    expect(e.message).toBe(AUTH);
    expect(e.httpStatus).toBe(403);
    expect(fake.requests).toHaveLength(1);
  });

  it("waits the Retry-After of a 429 and then succeeds", async () => {
    const inner = deepl();
    fake.handle = (req) =>
      fake.requests.length === 1 ? { status: 429, headers: { "retry-after": "1" }, body: { message: "Too many requests" } } : inner(req);
    const started = Date.now();
    expect(await dl().translate(["你好"], null, "es")).toEqual([tag("ES", "你好")]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(fake.requests).toHaveLength(2);
  });

  it("does not wait a Retry-After longer than allowed: the error is retryable for a later job", async () => {
    fake.handle = () => ({ status: 429, headers: { "retry-after": "120" }, body: { message: "Too many requests" } });
    const e = await failure(dl({ maxRetryAfterSeconds: 10 }).translate(["你好"], null, "es"));
    expect(e.kind).toBe("rate-limited");
    expect(e.retryable).toBe(true);
    expect(e.retryAfterSeconds).toBe(120);
    expect(fake.requests).toHaveLength(1);
  });

  it("gives up after three 500s with the unavailable message", async () => {
    fake.handle = () => ({ status: 500, body: { message: "Internal error" } });
    const e = await failure(dl().translate(["你好"], null, "es"));
    expect(e.message).toBe(UNAVAILABLE);
    expect(fake.requests).toHaveLength(3);
  });

  it("picks the Free or Pro host by the key and maps our language codes", () => {
    expect(deeplDefaultUrl("abc:fx")).toBe("https://api-free.deepl.com");
    expect(deeplDefaultUrl("abc")).toBe("https://api.deepl.com");
    expect(["es", "pt", "en", "zh", "zh-cn", "pt-pt", "zh-TW"].map(deeplTarget)).toEqual([
      "ES",
      "PT-BR",
      "EN-US",
      "ZH-HANS",
      "ZH-HANS",
      "PT-PT",
      "ZH-HANT",
    ]);
    expect(["zh-cn", "pt-br", "en"].map(deeplSource)).toEqual(["ZH", "PT", "EN"]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Google Cloud Translation v2

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** Google's v2 translate: the key in the query, q as a list, format html by default (which escapes plain text). */
function google(key = "g-key") {
  return (req: Recorded): Answer => {
    const u = new URL(req.path, "http://x");
    if (req.method !== "POST" || u.pathname !== "/language/translate/v2") return { status: 404, raw: "<html>404</html>" };
    if (u.searchParams.get("key") !== key)
      return {
        status: 400,
        body: {
          error: {
            code: 400,
            message: "API key not valid. Please pass a valid API key.",
            errors: [{ message: "API key not valid. Please pass a valid API key.", domain: "global", reason: "badRequest" }],
            status: "INVALID_ARGUMENT",
            details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }],
          },
        },
      };
    const { q, target, source, format } = req.body;
    if (!Array.isArray(q) || q.length > 128) return { status: 400, body: { error: { code: 400, message: "Too many text segments" } } };
    const html = format === undefined || format === "html";
    return {
      body: {
        data: {
          translations: q.map((t: string) => ({
            // As format=html: the text between tags comes back HTML-escaped.
            translatedText: html ? escapeHtml(tag(target, t)).replace(/&lt;(\/?\w+)&gt;/g, "<$1>") : tag(target, t),
            ...(source ? {} : { detectedSourceLanguage: "zh-CN" }),
          })),
        },
      },
    };
  };
}

const googleError = (code: number, reason: string, message: string) => ({
  status: code,
  body: { error: { code, message, errors: [{ message, domain: "usageLimits", reason }] } },
});

describe("Google Cloud Translation v2", () => {
  const gg = (o: TranslatorOptions = {}) => createGoogle({ apiKey: "g-key", url: fake.url }, { ...fast, ...o });

  it("posts {q, target, source?, format} to /language/translate/v2?key=…; plain text comes back unescaped", async () => {
    fake.handle = google();
    expect(await gg().translate(['it\'s <b> & "ok"'], null, "es")).toEqual([tag("es", 'it\'s <b> & "ok"')]);
    expect(await gg().translate(["<p>it's</p>"], "zh", "pt", { html: true })).toEqual(["[pt] <p>it&#39;s</p>"]);
    const [plain, html] = fake.requests;
    expect(plain.path).toBe("/language/translate/v2?key=g-key");
    expect(plain.headers["content-type"]).toBe("application/json");
    expect(plain.body).toEqual({ q: ['it\'s <b> & "ok"'], target: "es", format: "text" });
    expect(html.body).toEqual({ q: ["<p>it's</p>"], target: "pt", source: "zh-CN", format: "html" });
  });

  it("sends at most 128 segments per request, in order", async () => {
    fake.handle = google();
    const input = texts(130, "t");
    expect(await gg().translate(input, null, "en")).toEqual(input.map((t) => tag("en", t)));
    expect(fake.requests.map((r) => r.body.q.length)).toEqual([128, 2]);
  });

  it("keeps a request within the character budget", async () => {
    fake.handle = google();
    const input = Array.from({ length: 6 }, (_, i) => `${i}`.padEnd(2_000, "x"));
    expect(await gg().translate(input, null, "es")).toEqual(input.map((t) => tag("es", t)));
    expect(fake.requests.map((r) => r.body.q.length)).toEqual([2, 2, 2]);
  });

  it("answers an invalid key (400 API_KEY_INVALID) with the auth message", async () => {
    fake.handle = google("another");
    const e = await failure(gg().translate(["你好"], null, "es"));
    expect(e.message).toBe(AUTH);
    expect(e.httpStatus).toBe(400);
    expect(e.providerMessage).toContain("API_KEY_INVALID");
    expect(fake.requests).toHaveLength(1);
  });

  it("answers 403 dailyLimitExceeded with the quota message, without retrying", async () => {
    fake.handle = () => googleError(403, "dailyLimitExceeded", "Daily Limit Exceeded");
    const e = await failure(gg().translate(["你好"], null, "es"));
    expect(e.message).toBe(QUOTA);
    expect(fake.requests).toHaveLength(1);
  });

  it("retries 403 userRateLimitExceeded, then succeeds", async () => {
    const inner = google();
    fake.handle = (req) =>
      fake.requests.length === 1 ? googleError(403, "userRateLimitExceeded", "User Rate Limit Exceeded") : inner(req);
    expect(await gg().translate(["你好"], null, "es")).toEqual([tag("es", "你好")]);
    expect(fake.requests).toHaveLength(2);
  });

  it("gives up after three 503s with the unavailable message", async () => {
    fake.handle = () => ({ status: 503, body: { error: { code: 503, message: "The service is currently unavailable." } } });
    const e = await failure(gg().translate(["你好"], null, "es"));
    expect(e.message).toBe(UNAVAILABLE);
    expect(fake.requests).toHaveLength(3);
  });

  it("maps our Chinese codes", () => {
    expect(["zh", "zh-cn", "zh-TW", "es", "pt", "en"].map(googleLanguage)).toEqual(["zh-CN", "zh-CN", "zh-TW", "es", "pt", "en"]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// OpenAI-compatible chat completions

type ChatBody = {
  model: string;
  temperature: number;
  messages: { role: string; content: string }[];
  response_format?: { type: string };
};

const completion = (content: string, finish = "stop") => ({
  body: {
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [{ index: 0, finish_reason: finish, message: { role: "assistant", content } }],
  },
});

/** A well-behaved model: translates the JSON array of the user message into {"translations": [...]}. */
function chat(key: string | null = "sk-test", transform: (items: string[]) => unknown = (items) => ({ translations: items })) {
  return (req: Recorded): Answer => {
    if (req.method !== "POST" || req.path !== "/v1/chat/completions") return { status: 404, body: { error: { message: "Not found" } } };
    if (key && req.headers.authorization !== `Bearer ${key}`)
      return {
        status: 401,
        body: { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } },
      };
    const body = req.body as ChatBody;
    const items = JSON.parse(body.messages[1].content) as string[];
    const target = /into ([A-Za-z ()]+)\./.exec(body.messages[0].content)?.[1] ?? "?";
    return completion(JSON.stringify(transform(items.map((t) => tag(target, t)))));
  };
}

describe("OpenAI-compatible", () => {
  const ai = (o: TranslatorOptions = {}, config: { apiKey?: string | null; url?: string } = {}) =>
    createOpenAI(
      { url: config.url ?? fake.url, apiKey: config.apiKey === undefined ? "sk-test" : config.apiKey, model: "qwen2.5:7b" },
      { ...fast, ...o },
    );

  it("posts {model, messages, temperature: 0, response_format} with a Bearer key; the batch goes as a JSON array", async () => {
    fake.handle = chat();
    const out = await ai().translate(["红色", "", "蓝色"], "zh", "es");
    expect(out).toEqual([tag("Spanish (Latin America)", "红色"), "", tag("Spanish (Latin America)", "蓝色")]);
    const [r] = fake.requests;
    expect(r.path).toBe("/v1/chat/completions");
    expect(r.headers.authorization).toBe("Bearer sk-test");
    const body = r.body as ChatBody;
    expect(body.model).toBe("qwen2.5:7b");
    expect(body.temperature).toBe(0);
    expect(body.response_format).toEqual({ type: "json_object" });
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(JSON.parse(body.messages[1].content)).toEqual(["红色", "蓝色"]);
    expect(body.messages[0].content).toContain("from Simplified Chinese into Spanish (Latin America).");
    expect(body.messages[0].content).toContain("exactly 2 strings");
  });

  it("accepts a base URL ending in /v1 and a local server without a key (no Authorization header)", async () => {
    fake.handle = chat(null);
    expect(await ai({}, { apiKey: null, url: fake.url + "/v1/" }).translate(["你好"], null, "pt", { html: true })).toEqual([
      tag("Brazilian Portuguese", "你好"),
    ]);
    expect(fake.requests[0].path).toBe("/v1/chat/completions");
    expect(fake.requests[0].headers.authorization).toBeUndefined();
    expect((fake.requests[0].body as ChatBody).messages[0].content).toContain("keep every tag and attribute");
  });

  it("sends a misaligned batch answer again one text at a time, and answers in place", async () => {
    const good = chat();
    // The batch answer drops an item; single-text requests are answered properly.
    fake.handle = (req) => {
      const items = JSON.parse((req.body as ChatBody).messages[1].content) as string[];
      return items.length > 1 ? completion(JSON.stringify({ translations: items.slice(1).map((t) => tag("x", t)) })) : good(req);
    };
    const input = ["一", "二", "三"];
    expect(await ai().translate(input, null, "en")).toEqual(input.map((t) => tag("English", t)));
    expect(fake.requests.map((r) => JSON.parse(r.body.messages[1].content).length)).toEqual([3, 1, 1, 1]);
  });

  it("treats a cut-off or non-JSON answer as malformed, and ends with a clear error when a single text stays malformed", async () => {
    fake.handle = () => completion("Sure! Here are your translations: uno, dos");
    const e = await failure(ai().translate(["一", "二"], null, "es"));
    expect(e.kind).toBe("bad-response");
    expect(e.message).toBe("翻译服务返回了无法识别的结果，请稍后重试");
    expect(fake.requests).toHaveLength(2); // the batch, then the first text alone: no result is guessed

    fake.requests = [];
    const good = chat();
    fake.handle = (req) => (fake.requests.length === 1 ? completion('{"translations": ["[English] 一", "[Eng', "length") : good(req));
    expect(await ai().translate(["一", "二"], null, "en")).toEqual([tag("English", "一"), tag("English", "二")]);
  });

  it("reads the answer in the forms models give it", () => {
    expect(parseAnswer('{"translations": ["a", "b"]}', 2)).toEqual(["a", "b"]);
    expect(parseAnswer('["a", "b"]', 2)).toEqual(["a", "b"]);
    expect(parseAnswer('```json\n{"result": ["a", "b"]}\n```', 2)).toEqual(["a", "b"]);
    expect(parseAnswer('<think>hmm</think>\n["a"]', 1)).toEqual(["a"]);
    expect(parseAnswer('["a", "b"]', 3)).toBeUndefined();
    expect(parseAnswer('["a", 2]', 2)).toBeUndefined();
    expect(parseAnswer('{"a": ["x"], "b": ["y"]}', 1)).toBeUndefined();
    expect(parseAnswer(null, 1)).toBeUndefined();
  });

  it("asks again without response_format when the server refuses it", async () => {
    const good = chat();
    fake.handle = (req) =>
      (req.body as ChatBody).response_format
        ? { status: 400, body: { error: { message: "response_format is not supported by this model", type: "invalid_request_error" } } }
        : good(req);
    const t = ai();
    expect(await t.translate(["你好"], null, "es")).toEqual([tag("Spanish (Latin America)", "你好")]);
    expect(await t.translate(["再见"], null, "es")).toEqual([tag("Spanish (Latin America)", "再见")]);
    expect(fake.requests.map((r) => !!r.body.response_format)).toEqual([true, false, false]);
  });

  it("answers 429 insufficient_quota with the quota message, without retrying", async () => {
    fake.handle = () => ({
      status: 429,
      body: {
        error: {
          message: "You exceeded your current quota, please check your plan and billing details.",
          type: "insufficient_quota",
          code: "insufficient_quota",
        },
      },
    });
    const e = await failure(ai().translate(["你好"], null, "es"));
    expect(e.message).toBe(QUOTA);
    expect(e.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it("answers 401 with the auth message and retries a rate-limit 429", async () => {
    fake.handle = chat("sk-other");
    expect((await failure(ai().translate(["你好"], null, "es"))).message).toBe(AUTH);
    expect(fake.requests).toHaveLength(1);

    fake.requests = [];
    const good = chat();
    fake.handle = (req) =>
      fake.requests.length === 1
        ? {
            status: 429,
            headers: { "retry-after": "0" },
            body: { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } },
          }
        : good(req);
    expect(await ai().translate(["你好"], null, "en")).toEqual([tag("English", "你好")]);
    expect(fake.requests).toHaveLength(2);
  });

  it("names a missing model", async () => {
    fake.handle = () => ({ status: 404, body: { error: { message: "The model `qwen2.5:7b` does not exist", code: "model_not_found" } } });
    const e = await failure(ai().translate(["你好"], null, "es"));
    expect(e.kind).toBe("misconfigured");
    expect(e.message).toContain("Translate.Model");
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Transport: time limit, network failure, cancellation.

describe("transport", () => {
  it("ends a request that does not answer in time, and says so", async () => {
    fake.handle = () => ({ hang: true });
    const e = await failure(
      createDeepL({ apiKey: "k", url: fake.url }, { timeoutMs: 200, maxAttempts: 1 }).translate(["你好"], null, "es"),
    );
    expect(e.kind).toBe("unavailable");
    expect(e.retryable).toBe(true);
    expect(e.message).toContain("超时");
  });

  it("retries a refused connection, then says the service is unavailable", async () => {
    const closed = await startFake();
    const url = closed.url;
    await closed.close();
    const e = await failure(createGoogle({ apiKey: "k", url }, fast).translate(["你好"], null, "es"));
    expect(e.message).toBe(UNAVAILABLE);
    expect(e.httpStatus).toBeNull();
    expect(e.providerMessage).toBe("ECONNREFUSED");
  });

  it("stops when the caller cancels, with the caller's reason", async () => {
    fake.handle = () => ({ hang: true });
    const controller = new AbortController();
    const pending = createLibreTranslate({ url: fake.url }, fast).translate(["你好"], null, "es", { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("cancelled by the seller")), 100);
    await expect(pending).rejects.toThrow("cancelled by the seller");
    expect(fake.requests).toHaveLength(1);
  });

  it("a translation error is a 403 refusal with a code for the error envelope", async () => {
    fake.handle = () => ({ status: 456, body: { message: "Quota exceeded" } });
    const e = await failure(createDeepL({ apiKey: "k", url: fake.url }, fast).translate(["你好"], null, "es"));
    expect(e.status).toBe(403);
    expect(e.code).toBe("Translate.QuotaExceeded");
    expect(e.details).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Choosing the provider from the host's settings.

describe("translator from settings", () => {
  const none: TranslateSettings = { provider: null, url: null, apiKey: null, model: null };

  it("says translation is not configured when there is no provider", () => {
    for (const provider of [null, "", "  "]) {
      let error: unknown;
      try {
        createTranslator({ ...none, provider });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TranslationError);
      expect((error as TranslationError).message).toBe(NOT_CONFIGURED);
      expect((error as TranslationError).code).toBe("Translate.NotConfigured");
    }
  });

  it("names what is missing or wrong", () => {
    const message = (s: Partial<TranslateSettings> & { provider: string }) => {
      try {
        createTranslator({ ...none, ...s });
      } catch (e) {
        expect(e).toBeInstanceOf(TranslationError);
        return (e as TranslationError).message;
      }
      return "created";
    };
    expect(message({ provider: "bing" })).toContain("不支持的翻译服务“bing”");
    expect(message({ provider: "deepl" })).toContain("Translate.ApiKey");
    expect(message({ provider: "google" })).toContain("Translate.ApiKey");
    expect(message({ provider: "openai" })).toContain("Translate.ApiKey");
    expect(message({ provider: "libretranslate" })).toContain("Translate.Url");
    expect(message({ provider: "libretranslate", url: "ftp://host" })).toContain("Translate.Url");
    expect(message({ provider: "openai", url: "http://127.0.0.1:11434" })).toContain("Translate.Model");
    expect(message({ provider: "openai", url: "http://127.0.0.1:11434", model: "qwen2.5:7b" })).toBe("created");
    expect(message({ provider: " DeepL ", apiKey: "k:fx" })).toBe("created");
  });

  describe("read in a transaction", () => {
    let database: Database;
    beforeAll(async () => {
      database = await openTestDatabase();
    });
    afterAll(() => database?.close());
    const secrets = createSecretBox(randomUUID() + randomUUID());

    const put = (key: string, value: string) =>
      inScope(database.db, hostScope, (tx) =>
        tx
          .insert(settings)
          .values({ id: randomUUID(), name: key, key, value })
          .onConflictDoUpdate({ target: settings.key, set: { value } }),
      );

    it("is not configured until the host sets Translate.Provider, then translates through the chosen provider", async () => {
      const e = await failure(inScope(database.db, hostScope, (tx) => translatorFromSettings(tx, secrets)));
      expect(e.message).toBe(NOT_CONFIGURED);

      fake.handle = deepl("host-key");
      await put(SettingKeys.translateProvider, "deepl");
      await put(SettingKeys.translateUrl, fake.url);
      // Stored as the settings calls store it: encrypted.
      await put(SettingKeys.translateApiKey, storedSettingValue(secrets, SettingKeys.translateApiKey, "host-key"));
      const t: Translator = await inScope(database.db, hostScope, (tx) => translatorFromSettings(tx, secrets, fast));
      expect(t.provider).toBe("deepl");
      expect(await t.translate(["你好"], "zh", "es")).toEqual([tag("ES", "你好")]);
      expect(fake.requests[0].headers.authorization).toBe("DeepL-Auth-Key host-key");
    });
  });
});
