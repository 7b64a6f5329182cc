// One error class for every failed call (spec §8): the HTTP status, the server's ABP error body and the message a
// user should see. Works the same in the console, the extension's background worker and Node.
import type { ErrorInfo } from "../contract/common.ts";

export type ValidationErrorInfo = { message: string; members: string[] };

/** Codes the client itself gives to failures without an HTTP answer (status 0). */
export const ClientErrorCode = {
  /** A required parameter was missing or null; no request was sent. */
  ParameterNull: "ParameterNull",
  /** The request took longer than the time-out (spec §9: 1,500,000 ms). */
  Timeout: "Timeout",
  /** The caller aborted the request. */
  Aborted: "Aborted",
  /** No answer: the server is unreachable, DNS failed, CORS refused... */
  Network: "NetworkError",
} as const;

/** The user-facing texts of spec §8. */
export const messages = {
  unauthorized: "登录已过期，请重新登录",
  forbidden: "暂无权限",
  notFound: "公司未找到",
  tooManyRequests: "访问太多，请稍候访问!",
  serverError: "服务器内部错误",
  unexpected: "An unexpected server error occurred.",
  timeout: "请求超时，请稍后重试",
  network: "无法连接服务器，请检查服务器地址和网络",
  aborted: "请求已取消",
} as const;

export const parameterNullMessage = (name: string) => `The parameter ${name} cannot be null.`;

export type ApiErrorInit = {
  status: number;
  code?: string | null;
  /** The server's own message (error.message, or error_description of the token endpoint). */
  serverMessage?: string | null;
  details?: string | null;
  data?: Record<string, unknown> | null;
  validationErrors?: ValidationErrorInfo[] | null;
  /** Overrides the message derived from the status. */
  message?: string;
  cause?: unknown;
};

/**
 * A failed call. `message` is what to show the user (spec §8); `serverMessage`, `details` and `validationErrors` are
 * the server's. `notice` is set for the statuses the shared handler shows as a notice (400, 401, 403, 404, 429, 500)
 * and null for the others, which are thrown onward for the caller to handle (e.g. 409 on a stale concurrency stamp).
 * Status 0 means no HTTP answer (see ClientErrorCode).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly serverMessage: string | null;
  readonly details: string | null;
  readonly data: Record<string, unknown> | null;
  readonly validationErrors: ValidationErrorInfo[] | null;
  readonly notice: string | null;

  constructor(init: ApiErrorInit) {
    const notice = noticeFor(init.status, init.serverMessage ?? null, init.details ?? null);
    super(
      init.message ?? notice ?? (init.serverMessage || messages.unexpected),
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.name = "ApiError";
    this.status = init.status;
    this.code = init.code ?? null;
    this.serverMessage = init.serverMessage ?? null;
    this.details = init.details ?? null;
    this.data = init.data ?? null;
    this.validationErrors = init.validationErrors ?? null;
    this.notice = init.message === undefined ? notice : init.message;
  }

  /** The error part of the spec's call result (§3): {code, message, details, data, validationErrors}. */
  toErrorInfo(): ErrorInfo {
    return {
      code: this.code,
      message: this.message,
      details: this.details,
      data: this.data,
      validationErrors: this.validationErrors,
    };
  }
}

/** Spec §8's shared response handler: the notice shown for a status, or null when the error is thrown onward. */
function noticeFor(status: number, serverMessage: string | null, details: string | null): string | null {
  switch (status) {
    case 400:
      return details || serverMessage || messages.unexpected;
    case 401:
      return serverMessage || messages.unauthorized;
    case 403:
      return serverMessage || messages.forbidden;
    case 404:
      return messages.notFound;
    case 429:
      return messages.tooManyRequests;
    case 500:
      return serverMessage || messages.serverError;
    default:
      return null;
  }
}

/** Builds the ApiError for an HTTP answer other than 200/204 from its parsed body (ABP envelope or OAuth form). */
export function errorFromBody(status: number, body: unknown): ApiError {
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    if (b.error && typeof b.error === "object") {
      const e = b.error as Record<string, unknown>;
      return new ApiError({
        status,
        code: str(e.code),
        serverMessage: str(e.message),
        details: str(e.details),
        data: e.data && typeof e.data === "object" ? (e.data as Record<string, unknown>) : null,
        validationErrors: Array.isArray(e.validationErrors) ? (e.validationErrors as ValidationErrorInfo[]) : null,
      });
    }
    // OAuth's form, from /connect/token: {error, error_description}.
    if (typeof b.error === "string") {
      return new ApiError({ status, code: b.error, serverMessage: str(b.error_description) ?? b.error });
    }
  }
  // A plain-text answer (a proxy's, say) is kept when it is short and not an HTML page.
  const text = typeof body === "string" ? body.trim() : "";
  return new ApiError({ status, serverMessage: text && text.length < 500 && !text.startsWith("<") ? text : null });
}

const str = (v: unknown) => (typeof v === "string" ? v : null);
