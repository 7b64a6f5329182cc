// The console's one API client: the shared typed client bound to the user store's token and tenant. A 401 on a call
// first tries the refresh token once (single flight, so parallel calls share one refresh); only when that fails does
// the shared response handler log the user out (spec §8).
// The screens reach the API through `api` (feature-api.ts: every area on this client, loaded with the first lazy
// screen). The login route and the session take only the few areas they call, `sessionApi`, so the login route does
// not load every screen's contract.
import { accountCalls } from "#shared/api/account.ts";
import { createApiClient, TENANT_PLACEHOLDER } from "#shared/api/client.ts";
import { bindCalls } from "#shared/api/define.ts";
import { meliSandboxCalls } from "#shared/api/meli-sandbox.ts";
import { settingsCalls } from "#shared/api/settings.ts";
import { tenancyCalls } from "#shared/api/tenancy.ts";
import { createTokenApi } from "#shared/api/token.ts";
import { userCalls } from "#shared/api/users.ts";
import { createTokenRefresh } from "#shared/api/token-refresh.ts";
import { useUserStore } from "../stores/user.ts";

/** Exchanges the stored refresh token for a new access token; null when there is none or it was refused. */
const refreshAccessToken = createTokenRefresh({
  readRefreshToken: () => useUserStore.getState().refresh_token,
  requestToken: (refreshToken) => sessionApi.token.refresh(refreshToken),
  storeToken: (answer) => useUserStore.getState().setToken(answer),
});

/** fetch with one retry after a token refresh when a call with a bearer token answers 401. */
async function fetchWithRefresh(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const res = await fetch(input, init);
  const headers = (init?.headers ?? {}) as Record<string, string>;
  if (res.status !== 401 || !headers.authorization) return res;
  // Any failure of the refresh leaves the 401 to the shared handler, which logs out.
  const token = await refreshAccessToken().catch(() => null);
  if (!token) return res;
  return fetch(input, { ...init, headers: { ...headers, authorization: `Bearer ${token}` } });
}

/** Set by the session module: what a 401 that survived the refresh does (log out). */
let unauthorizedHandler: (() => void) | null = null;
export function onUnauthorized(handler: () => void) {
  unauthorizedHandler = handler;
}

export const apiClient = createApiClient({
  baseUrl: "",
  getToken: () => useUserStore.getState().access_token,
  getTenant: () => useUserStore.getState().tenantId ?? TENANT_PLACEHOLDER,
  onUnauthorized: () => unauthorizedHandler?.(),
  fetch: fetchWithRefresh,
});

/** The calls of the login route and the session (login, forgot password, user info and cache, logout). */
export const sessionApi = {
  token: createTokenApi(apiClient),
  account: bindCalls(apiClient, accountCalls),
  tenancy: bindCalls(apiClient, tenancyCalls),
  user: bindCalls(apiClient, userCalls),
  settings: bindCalls(apiClient, settingsCalls),
  meliSandbox: bindCalls(apiClient, meliSandboxCalls),
};
