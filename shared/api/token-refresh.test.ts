import { describe, expect, it, vi } from "vitest";
import { ApiError, ClientErrorCode, errorFromBody } from "./errors.ts";
import type { TokenAnswer } from "./token.ts";
import { createTokenRefresh } from "./token-refresh.ts";

const answer = (n: number): TokenAnswer => ({
  token_type: "Bearer",
  access_token: `access-${n}`,
  refresh_token: `refresh-${n}`,
  expires_in: 3600,
});
const refused = () => errorFromBody(400, { error: "invalid_grant", error_description: "The refresh token is invalid." });
const unreachable = () => new ApiError({ status: 0, code: ClientErrorCode.Network });

/** A token store in memory and a token endpoint whose answers the test decides. */
function setUp(refreshToken: string | null = "refresh-0") {
  const kept = { refreshToken, accessToken: "access-0" };
  const pending: { resolve: (a: TokenAnswer) => void; reject: (e: unknown) => void }[] = [];
  const requestToken = vi.fn(
    (_refreshToken: string) =>
      new Promise<TokenAnswer>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
  );
  const storeToken = vi.fn((a: TokenAnswer) => {
    kept.accessToken = a.access_token;
    kept.refreshToken = a.refresh_token ?? null;
  });
  const onRefused = vi.fn(() => {
    kept.refreshToken = null;
  });
  const refresh = createTokenRefresh({ readRefreshToken: () => kept.refreshToken, requestToken, storeToken, onRefused });
  /** Waits until the refresh reached the token endpoint, then answers its n-th request. */
  const answerRequest = async (n: number, outcome: TokenAnswer | Error) => {
    await vi.waitFor(() => expect(pending.length).toBeGreaterThan(n));
    if (outcome instanceof Error) pending[n].reject(outcome);
    else pending[n].resolve(outcome);
  };
  return { kept, refresh, requestToken, storeToken, onRefused, answerRequest };
}

describe("createTokenRefresh", () => {
  it("parallel callers share one request to the token endpoint and all get the new access token", async () => {
    const t = setUp();
    const callers = [t.refresh(), t.refresh(), t.refresh()];
    await t.answerRequest(0, answer(1));
    expect(await Promise.all(callers)).toEqual(["access-1", "access-1", "access-1"]);
    expect(t.requestToken).toHaveBeenCalledTimes(1);
    expect(t.requestToken).toHaveBeenCalledWith("refresh-0");
    expect(t.storeToken).toHaveBeenCalledTimes(1);
    expect(t.kept).toEqual({ accessToken: "access-1", refreshToken: "refresh-1" });
  });

  it("a call after the refresh ended sends the rotated refresh token in a new request", async () => {
    const t = setUp();
    const first = t.refresh();
    await t.answerRequest(0, answer(1));
    await first;
    const second = t.refresh();
    await t.answerRequest(1, answer(2));
    expect(await second).toBe("access-2");
    expect(t.requestToken.mock.calls.map(([token]) => token)).toEqual(["refresh-0", "refresh-1"]);
  });

  it("without a refresh token answers null and asks nothing", async () => {
    const t = setUp(null);
    expect(await t.refresh()).toBeNull();
    expect(t.requestToken).not.toHaveBeenCalled();
  });

  it("a refused refresh token ends in null for every caller and ends the session once", async () => {
    const t = setUp();
    const callers = [t.refresh(), t.refresh()];
    await t.answerRequest(0, refused());
    expect(await Promise.all(callers)).toEqual([null, null]);
    expect(t.onRefused).toHaveBeenCalledTimes(1);
    expect(t.storeToken).not.toHaveBeenCalled();
    expect(t.kept.refreshToken).toBeNull();
  });

  it("a network failure rejects every caller, keeps the tokens, and the next call tries again", async () => {
    const t = setUp();
    const callers = [t.refresh(), t.refresh()];
    await t.answerRequest(0, unreachable());
    for (const caller of callers) await expect(caller).rejects.toMatchObject({ status: 0, code: ClientErrorCode.Network });
    expect(t.onRefused).not.toHaveBeenCalled();
    expect(t.kept).toEqual({ accessToken: "access-0", refreshToken: "refresh-0" });

    const retry = t.refresh();
    await t.answerRequest(1, answer(1));
    expect(await retry).toBe("access-1");
    expect(t.requestToken).toHaveBeenCalledTimes(2);
  });

  it("a server error is no refusal: it rejects and keeps the session", async () => {
    const t = setUp();
    const caller = t.refresh();
    await t.answerRequest(0, errorFromBody(500, null));
    await expect(caller).rejects.toMatchObject({ status: 500 });
    expect(t.onRefused).not.toHaveBeenCalled();
    expect(t.kept.refreshToken).toBe("refresh-0");
  });
});
