// A test kit: connecting a sandbox shop the way a seller does (GetAuthUrl, the sandbox's consent, AuthBack), and reading
// AuthBack's page. The consent is given through the sandbox control (grant) or its consent form.
import type { LocalSiteId, SiteId } from "../sandbox/sites.ts";
import type { ApiResponse, TestServer } from "./harness.ts";
import { SELLER_PASSWORD } from "./sandbox-kit.ts";

export type AuthPage = {
  status: number;
  ok: boolean;
  reason: string | null;
  message: string;
  /** The console address the page leads to, and its query. */
  target: string;
  params: URLSearchParams;
};

function readAuthPage(res: ApiResponse): AuthPage {
  const html = String(res.raw);
  const href = /<a id="back" href="([^"]*)"/.exec(html)?.[1]?.replace(/&amp;/g, "&") ?? "";
  const params = new URLSearchParams(href.split("#")[1]?.split("?")[1] ?? "");
  return {
    status: res.status,
    ok: params.get("auth") === "success",
    reason: params.get("reason"),
    message: params.get("message") ?? "",
    target: href,
    params,
  };
}

export type ConnectOptions = {
  nickname: string;
  site?: SiteId;
  marketplaces?: LocalSiteId[];
  /** GetAuthUrl's sites. */
  sites?: number[];
  uid?: string;
  /** Through the sandbox's consent form (as a browser) instead of control.grant. */
  viaForm?: boolean;
  /** The seller's password on the consent form (default SELLER_PASSWORD). */
  password?: string;
};

/** GetAuthUrl's answer, read: the state, the redirect and the PKCE challenge. */
export async function authUrl(s: TestServer, token: string, query: { uid?: string; sites?: number[] } = {}) {
  const res = await s.api("GET", "/api/Meli/GetAuthUrl", {
    token,
    query: { ...(query.uid ? { uid: query.uid } : {}), ...(query.sites ? { sites: query.sites } : {}) },
  });
  if (res.status !== 200) throw new Error(`GetAuthUrl: ${res.status} ${res.raw}`);
  const url = new URL(res.body.result);
  const p = url.searchParams;
  return { url, state: p.get("state")!, redirectUri: p.get("redirect_uri")!, codeChallenge: p.get("code_challenge")! };
}

/** The seller's consent: a code for the redirect. */
export async function consent(s: TestServer, a: Awaited<ReturnType<typeof authUrl>>, o: ConnectOptions): Promise<string> {
  const control = s.deps.sandbox!.control;
  if (!o.viaForm) {
    return control.grant({
      nickname: o.nickname,
      site: o.site,
      marketplaces: o.marketplaces,
      redirectUri: a.redirectUri,
      codeChallenge: a.codeChallenge,
      codeChallengeMethod: "S256",
    }).code;
  }
  const form = new URLSearchParams({
    response_type: "code",
    client_id: a.url.searchParams.get("client_id")!,
    redirect_uri: a.redirectUri,
    state: a.state,
    code_challenge: a.codeChallenge,
    code_challenge_method: "S256",
    nickname: o.nickname,
    password: o.password ?? SELLER_PASSWORD,
    // Signs the seller up the first time; the same password signs it in after that.
    signup: "1",
    site: o.site ?? "MLM",
    decision: "allow",
  });
  for (const m of o.marketplaces ?? []) form.append("marketplaces", m);
  const res = await s.app.inject({
    method: "POST",
    url: a.url.pathname,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: form.toString(),
  });
  if (res.statusCode !== 302) throw new Error(`consent: ${res.statusCode} ${res.body}`);
  const back = new URL(String(res.headers.location));
  if (back.searchParams.get("state") !== a.state) throw new Error("consent: the state did not come back");
  return back.searchParams.get("code")!;
}

export async function authBack(s: TestServer, query: Record<string, string>): Promise<AuthPage> {
  return readAuthPage(await s.api("GET", "/api/Meli/AuthBack", { query }));
}

/** The whole connection; answers AuthBack's page. */
export async function connectShop(s: TestServer, token: string, o: ConnectOptions): Promise<AuthPage> {
  const a = await authUrl(s, token, { uid: o.uid, sites: o.sites });
  const code = await consent(s, a, o);
  return authBack(s, { code, state: a.state });
}
