// The one access-token refresh of the console and the extension's background worker. It is single-flight: the server
// rotates refresh tokens and treats a reused one as theft, so callers that need a new access token while a refresh is
// under way wait for that refresh instead of sending the same refresh token again. Where the tokens are kept and how
// the token endpoint is reached are the caller's (a store in the console, extension storage in the background).
import { ApiError } from "./errors.ts";
import type { TokenAnswer } from "./token.ts";

type MaybePromise<T> = T | Promise<T>;

export type TokenRefreshOptions = {
  /** The kept refresh token; null or undefined when there is none. */
  readRefreshToken: () => MaybePromise<string | null | undefined>;
  /** The refresh-token grant, e.g. `(refreshToken) => api.token.refresh(refreshToken)`. */
  requestToken: (refreshToken: string) => Promise<TokenAnswer>;
  /** Keeps the new access token and the rotated refresh token. */
  storeToken: (answer: TokenAnswer) => MaybePromise<void>;
  /** The server refused the refresh token (expired, revoked or reused): the session is over. */
  onRefused?: () => MaybePromise<void>;
};

/**
 * Answers a function that refreshes the access token and resolves to the new one, or to null when no refresh token is
 * kept or the server refused it. Any other failure (no connection, time-out, server error) rejects and leaves the kept
 * tokens alone, so a later call tries again.
 */
export function createTokenRefresh(options: TokenRefreshOptions): () => Promise<string | null> {
  let inFlight: Promise<string | null> | null = null;

  async function refreshOnce(): Promise<string | null> {
    const refreshToken = await options.readRefreshToken();
    if (!refreshToken) return null;
    let answer: TokenAnswer;
    try {
      answer = await options.requestToken(refreshToken);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      await options.onRefused?.();
      return null;
    }
    await options.storeToken(answer);
    return answer.access_token;
  }

  return () =>
    (inFlight ??= refreshOnce().finally(() => {
      inFlight = null;
    }));
}

/** OAuth answers a refused grant (invalid_grant) with 400; any other failure may pass. */
const isRefusal = (error: unknown) => error instanceof ApiError && error.status === 400;
