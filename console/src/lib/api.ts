// The console's one API client: the shared typed client bound to the user store's token and tenant. A 401 on a call
// first tries the refresh token once (single flight, so parallel calls share one refresh); only when that fails does
// the shared response handler log the user out (spec §8).
// `api` here holds the areas the login route and the shell need; the screens' areas (products, collection, shops,
// categories, host) are bound to the same client in feature-api.ts, which only lazy screens import, so the login
// route does not load every screen's contract.
import { createAccountApi } from "@shared/api/account.ts";
import { CLIENT_ID, createApiClient, TENANT_PLACEHOLDER } from "@shared/api/client.ts";
import { createCurrencyApi, createSettingsApi } from "@shared/api/settings.ts";
import { createTasksApi } from "@shared/api/tasks.ts";
import { createTenancyApi } from "@shared/api/tenancy.ts";
import { createTokenApi } from "@shared/api/token.ts";
import { createUserApi } from "@shared/api/users.ts";
import { createWorkbenchApi } from "@shared/api/workbench.ts";
import { TOKEN_PATH, type TokenAnswer } from "@shared/api/token.ts";
import { useUserStore } from "../stores/user.ts";

let refreshing: Promise<string | null> | null = null;

/** Exchanges the stored refresh token for a new access token; null when there is none or it was refused. */
function refreshAccessToken(): Promise<string | null> {
  refreshing ??= (async () => {
    const refresh = useUserStore.getState().refresh_token;
    if (!refresh) return null;
    try {
      const res = await fetch(TOKEN_PATH, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: refresh }).toString(),
      });
      if (!res.ok) return null;
      const t = (await res.json()) as TokenAnswer;
      useUserStore.getState().setToken(t);
      return t.access_token;
    } catch {
      return null;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** fetch with one retry after a token refresh when a call with a bearer token answers 401. */
async function fetchWithRefresh(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const res = await fetch(input, init);
  const headers = (init?.headers ?? {}) as Record<string, string>;
  if (res.status !== 401 || !headers.authorization) return res;
  const token = await refreshAccessToken();
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

export const api = {
  client: apiClient,
  token: createTokenApi(apiClient),
  account: createAccountApi(apiClient),
  tenancy: createTenancyApi(apiClient),
  user: createUserApi(apiClient),
  settings: createSettingsApi(apiClient),
  currency: createCurrencyApi(apiClient),
  tasks: createTasksApi(apiClient),
  workbench: createWorkbenchApi(apiClient),
};
