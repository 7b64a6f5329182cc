// The login session of the background worker: logs in through the shared client, keeps the token in extension
// storage, renews it with the refresh token before it expires (the shared single-flight refresh), and forgets it on
// logout or on any 401.
import { createApi, type Api } from "#shared/api/index.ts";
import { createTokenRefresh } from "#shared/api/token-refresh.ts";
import type { UserInfo } from "#shared/contract/users.ts";
import type { LoginRequest, Status } from "../../lib/protocol.ts";
import type { StorageItems } from "../../lib/storage.ts";

/** Renew the access token when less than this is left. */
const RENEW_BEFORE_MS = 60_000;
/** How long logout waits for the server before forgetting the token anyway. */
const LOGOUT_WAIT_MS = 5_000;

export type SessionDeps = {
  items: StorageItems;
  fetch?: typeof fetch;
  now?: () => number;
};

export type SessionService = ReturnType<typeof createSession>;

export function createSession({ items, fetch, now = Date.now }: SessionDeps) {
  const api: Api = createApi({
    baseUrl: () => items.serverUrl.getValue(),
    getToken: () => currentToken(),
    getTenant: () => items.tenant.getValue(),
    onUnauthorized: () => items.session.setValue(null),
    fetch,
  });

  const refreshAccessToken = createTokenRefresh({
    readRefreshToken: async () => (await items.session.getValue())?.refreshToken,
    requestToken: (refreshToken) => api.token.refresh(refreshToken),
    storeToken: async (answer) => {
      const session = await items.session.getValue();
      if (!session) return; // logged out while the refresh was under way
      await items.session.setValue({
        ...session,
        accessToken: answer.access_token,
        refreshToken: answer.refresh_token ?? null,
        expiresAt: now() + answer.expires_in * 1000,
      });
    },
    // A refused refresh token ends the session.
    onRefused: () => items.session.setValue(null),
  });

  /** The stored access token, renewed first when it is about to expire and a refresh token is kept. */
  async function currentToken(): Promise<string | null> {
    const session = await items.session.getValue();
    if (!session) return null;
    if (!session.refreshToken || session.expiresAt - now() > RENEW_BEFORE_MS) return session.accessToken;
    // A failure to reach the server keeps the session: the old token is tried, and the next call renews again.
    return refreshAccessToken().catch(() => session.accessToken);
  }

  async function status(): Promise<Status> {
    const [session, serverUrl, tenant] = await Promise.all([items.session.getValue(), items.serverUrl.getValue(), items.tenant.getValue()]);
    return {
      loggedIn: !!session,
      userName: session?.userName ?? null,
      tenantName: session?.tenantName ?? null,
      serverUrl,
      tenant,
    };
  }

  return {
    api,
    status,
    /** The session's access token (renewed when about to expire), for what the API client does not carry: the event stream. */
    token: currentToken,

    /** Logs in against the given server and tenant; nothing stored changes unless the login succeeds. */
    async login(input: LoginRequest): Promise<Status> {
      let token: string | null = null;
      const attempt = createApi({
        baseUrl: input.serverUrl,
        getToken: () => token,
        getTenant: () => input.tenant,
        fetch,
      });
      const answer = await attempt.token.login({ username: input.userName, password: input.password, offlineAccess: true });
      token = answer.access_token;
      const me = await attempt.user.getUserInfo();
      await items.serverUrl.setValue(input.serverUrl);
      await items.tenant.setValue(input.tenant);
      await items.session.setValue({
        accessToken: answer.access_token,
        refreshToken: answer.refresh_token ?? null,
        expiresAt: now() + answer.expires_in * 1000,
        userName: me.userName,
        tenantName: me.tenantName,
      });
      return status();
    },

    /** Ends the session on the server (best effort, a few seconds at most), then forgets it here. */
    async logout(): Promise<Status> {
      if (await items.session.getValue()) {
        await api.account.logout({ signal: AbortSignal.timeout(LOGOUT_WAIT_MS) }).catch(() => undefined);
      }
      await items.session.setValue(null);
      return status();
    },

    /** The logged-in user as the server sees it now (GetUserInfo); a 401 ends the session. */
    async getUserInfo(): Promise<UserInfo> {
      const me = await api.user.getUserInfo();
      const session = await items.session.getValue();
      if (session && (session.userName !== me.userName || session.tenantName !== me.tenantName)) {
        await items.session.setValue({ ...session, userName: me.userName, tenantName: me.tenantName });
      }
      return me;
    },
  };
}
