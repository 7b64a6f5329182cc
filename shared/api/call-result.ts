// The spec's call result (§3): {data, hasError, code, error}, for callers that prefer a value to a thrown error.
import type { ErrorInfo } from "../contract/common.ts";
import { ApiError, messages } from "./errors.ts";

export type CallResult<T> =
  { data: T; hasError: false; code: number; error: null } | { data: null; hasError: true; code: number; error: ErrorInfo };

/**
 * Runs a call and wraps its outcome. `code` is the HTTP status (200, 204 when the call answered nothing, the error's
 * status, 0 when there was no answer); `error.message` is the user-facing message of spec §8.
 */
export async function toCallResult<T>(run: Promise<T> | (() => Promise<T>)): Promise<CallResult<T>> {
  try {
    const data = await (typeof run === "function" ? run() : run);
    return { data, hasError: false, code: data === undefined ? 204 : 200, error: null };
  } catch (e) {
    const err =
      e instanceof ApiError ? e : new ApiError({ status: 0, message: e instanceof Error ? e.message : messages.unexpected, cause: e });
    return { data: null, hasError: true, code: err.status, error: err.toErrorInfo() };
  }
}
