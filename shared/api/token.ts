// The token call (spec §7, ARCHITECTURE "The contract"): POST /connect/token, form-encoded, client Erp_App, scope Erp
// (plus offline_access for a refresh token). Errors come in OAuth's form and become ApiError like any other call.
import { checkRequired, CLIENT_ID, SCOPE, type ApiClient, type CallOptions } from "./client.ts";

const TOKEN_PATH = "/connect/token";

export type TokenAnswer = {
  token_type: string;
  access_token: string;
  /** Seconds. */
  expires_in: number;
  refresh_token?: string;
  scope?: string;
};

export type LoginInput = {
  username: string;
  password: string;
  /**
   * Tenant name or id for this login, sent as `__tenant`; omitted: the stored tenant; "" or 11111111: none (the host).
   */
  tenant?: string | null;
  /** Ask for a refresh token (scope offline_access). */
  offlineAccess?: boolean;
};

export function createTokenApi(client: ApiClient) {
  return {
    /** Password grant. A wrong user name or password answers 400 (code invalid_grant) with the server's message. */
    async login(input: LoginInput, options: CallOptions = {}): Promise<TokenAnswer> {
      checkRequired(input as unknown as Record<string, unknown>, ["username", "password"]);
      const form = new URLSearchParams({
        grant_type: "password",
        client_id: CLIENT_ID,
        username: input.username,
        password: input.password,
        scope: input.offlineAccess ? `${SCOPE} offline_access` : SCOPE,
      });
      return client.request<TokenAnswer>({
        method: "POST",
        path: TOKEN_PATH,
        body: form,
        anonymous: true,
        ...(input.tenant !== undefined ? { tenant: input.tenant } : {}),
        signal: options.signal,
      });
    },

    /** Refresh-token grant: answers a new access token and a new (rotated) refresh token. */
    async refresh(refreshToken: string, options: CallOptions = {}): Promise<TokenAnswer> {
      checkRequired({ refreshToken }, ["refreshToken"]);
      const form = new URLSearchParams({ grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: refreshToken });
      return client.request<TokenAnswer>({
        method: "POST",
        path: TOKEN_PATH,
        body: form,
        anonymous: true,
        tenant: null,
        signal: options.signal,
      });
    },
  };
}
