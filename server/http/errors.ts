// One error mapping for the whole server: typed errors thrown by services become ABP's error envelope with the status
// of RELIABILITY.md. Nothing a caller sends may end as a 500; a 500 carries a request id and no details.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

export type ValidationErrorInfo = { message: string; members: string[] };

export class AppError extends Error {
  /** Set by keepChanges(): the call's transaction commits before this error is answered. */
  commitFirst = false;
  /** Sent as Retry-After (seconds) with the answer: when the caller may try again (a 503 for a busy server). */
  retryAfterHeader: number | null = null;

  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null = null,
    readonly details: string | null = null,
    readonly validationErrors: ValidationErrorInfo[] | null = null,
  ) {
    super(message);
  }
}

/**
 * Answers the error but keeps what the call wrote before it (a counted wrong guess must survive the refusal). Use only
 * where the writes are meant to outlive the failure.
 */
export function keepChanges(err: AppError): AppError {
  err.commitFirst = true;
  return err;
}

export const badRequest = (message: string, details?: string, validationErrors?: ValidationErrorInfo[]) =>
  new AppError(400, message, null, details ?? null, validationErrors ?? null);
export const unauthorized = (message = "未登录或登录已过期") => new AppError(401, message, "Unauthorized");
export const forbidden = (message = "暂无权限") => new AppError(403, message, "Forbidden");
/** A business rule refused the request; the message says why. */
export const businessError = (message: string, code: string | null = null) => new AppError(403, message, code);
export const notFound = (message: string) => new AppError(404, message, "NotFound");
export const conflict = (message = "数据已被其他人修改，请刷新后重试") => new AppError(409, message, "Concurrency");
export const unsupportedMediaType = (message = "不支持的内容类型，请使用 application/json") =>
  new AppError(415, message, "UnsupportedMediaType");
/** The server could not take the call now (its share of the database is busy, a statement ran too long): retry later. */
export function serviceBusy(message = "服务器繁忙，请稍后重试", retryAfterHeader = 2): AppError {
  const err = new AppError(503, message, "ServiceBusy");
  err.retryAfterHeader = retryAfterHeader;
  return err;
}
export const tooManyRequests = (message = "访问太多，请稍候访问!") => new AppError(429, message, "TooManyRequests");

export function errorBody(e: {
  message: string;
  code?: string | null;
  details?: string | null;
  validationErrors?: ValidationErrorInfo[] | null;
}) {
  return {
    error: {
      code: e.code ?? null,
      message: e.message,
      details: e.details ?? null,
      data: {},
      validationErrors: e.validationErrors ?? null,
    },
  };
}

function sendError(reply: FastifyReply, status: number, body: ReturnType<typeof errorBody>, retryAfterHeader?: number | null) {
  if (retryAfterHeader != null) reply.header("Retry-After", String(retryAfterHeader));
  return reply.code(status).header("_AbpErrorFormat", "true").type("application/json; charset=utf-8").send(body);
}

/** A validation entry as our validator compiler produces it (see calls.ts). */
type ValidationEntry = { message: string; members: string[] };

const fastifyMessages: Record<number, string> = {
  400: "请求格式不正确",
  404: "未找到请求的地址",
  405: "不支持的请求方法",
  413: "请求内容过大",
  415: "不支持的内容类型",
};

/** An error's SQLSTATE, or null. drizzle wraps the driver's error (DrizzleQueryError); the SQLSTATE is then on its cause. */
export function sqlState(err: unknown): string | null {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof e?.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  const cause = e?.cause && typeof e.cause === "object" ? e.cause.code : null;
  return typeof cause === "string" ? cause : null;
}

// PostgreSQL errors with an answer of their own: a value that slipped past validation (still the caller's fault), a
// conflict with another call, a busy database.
function mapDatabaseError(err: unknown): AppError | null {
  const code = sqlState(err) ?? "";
  if (code === "23505") return conflict("数据已存在");
  if (code === "40001" || code === "40P01") return conflict("并发冲突，请重试");
  // lock_timeout: another call held the rows longer than a request may wait for them.
  if (code === "55P03") return new AppError(409, "数据正被其他操作修改，请稍后重试", "Concurrency.Locked");
  // statement_timeout (57014), no connection free in time or the database starting (57P03), too many connections (53300).
  if (code === "57014" || code === "57P03" || code === "53300") return serviceBusy();
  if (code.startsWith("22")) return badRequest("参数值无效");
  return null;
}

/**
 * Errors the router raises before any route or hook runs (a path that is not valid percent-encoding, a path parameter
 * over the router's length limit): Fastify's `frameworkErrors` option, so they too answer the envelope, as 400.
 */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  const message = err.code === "FST_ERR_MAX_PARAM_LENGTH" ? "请求地址中的参数过长" : "请求地址格式不正确";
  return sendError(reply, 400, errorBody({ message, code: err.code ?? null, details: null }));
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { validation?: unknown }, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      return sendError(reply, err.status, errorBody(err), err.retryAfterHeader);
    }
    if (Array.isArray(err.validation)) {
      // Only ABP's two fields go out (the validator's entries also carry Fastify's instancePath).
      const entries = (err.validation as unknown as ValidationEntry[]).map((e) => ({ message: e.message, members: e.members ?? [] }));
      const details = entries.map((e) => e.message).join("\n");
      return sendError(
        reply,
        400,
        errorBody({ message: "Your request is not valid!", code: "Validation", details, validationErrors: entries }),
      );
    }
    const db = mapDatabaseError(err);
    if (db) return sendError(reply, db.status, errorBody(db), db.retryAfterHeader);
    const status = typeof err.statusCode === "number" ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Statuses outside the contract's set (406, 414, ...) are answered as 400: still the caller's input.
      const mapped = fastifyMessages[status] ? status : 400;
      const message = fastifyMessages[status] ?? fastifyMessages[400];
      return sendError(reply, mapped, errorBody({ message, code: err.code ?? null, details: err.message }));
    }
    req.log.error({ err, reqId: req.id }, "unhandled error");
    return sendError(reply, 500, errorBody({ message: "服务器内部错误", code: "InternalError", details: `request id ${req.id}` }));
  });

  app.setNotFoundHandler((req, reply) =>
    sendError(
      reply,
      404,
      errorBody({ message: fastifyMessages[404], code: "NotFound", details: `${req.method} ${req.url.split("?")[0]}` }),
    ),
  );
}
