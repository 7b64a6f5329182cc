// OAuth as Mercado Libre runs it: the authorization page (a consent screen where a test seller signs in with its
// nickname and password, or signs up as a new test seller, then grants access) and POST /oauth/token with single-use
// codes (10 minutes, bound to their redirect_uri and PKCE challenge) and single-use rotating refresh tokens (only the
// newest works). Docs: 01-getting-started/autenticacion-y-autorizacion.md (the seller logs in with its password on
// Mercado Libre's page, then grants) and realiza-pruebas.md (a test user has a nickname and a password).
import { createHash, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { MeliError } from "./errors.ts";
import { query, route } from "./http.ts";
import { isLocalSite, isSiteId, LOCAL_SITES, SITES, type LocalSiteId, type SiteId } from "./sites.ts";
import type { AccessToken, Store, User } from "./store.ts";

const CODE_MS = 10 * 60_000;
const SCOPE = "offline_access read write";
const GRANT_FAILED = "Error validating grant. Your authorization code or refresh token may be expired or it was already used";

const oauthError = (status: number, error: string, description: string) =>
  new MeliError(status, error, description, [], { error_description: description });

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The user a bearer token names, or why not: the token is unknown or expired. */
export function resolveToken(store: Store, header: string | undefined): { token: AccessToken; user: User } | null {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  if (!m) return null;
  const token = store.state.tokens.get(m[1]);
  if (!token) return null;
  if (token.expiresAt <= store.now()) {
    store.state.tokens.delete(m[1]);
    return null;
  }
  const user = store.state.users.get(token.userId);
  return user ? { token, user } : null;
}

/** Issues an access token and rotates the grant's refresh token; the previous refresh token stops working. */
export function issueTokens(store: Store, clientId: string, user: User) {
  const { state } = store;
  const now = store.now();
  const d = new Date(now);
  const stamp = [d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours()].map((n) => String(n).padStart(2, "0")).join("");
  const accessToken = `APP_USR-${clientId}-${stamp}-${hex(16)}-${user.id}`;
  state.tokens.set(accessToken, { clientId, userId: user.id, expiresAt: now + state.accessTokenSeconds * 1000 });
  const grantKey = `${clientId}:${user.id}`;
  const previous = state.grants.get(grantKey);
  if (previous) state.refreshTokens.delete(previous.refreshToken);
  const refreshToken = `TG-${hex(12)}-${user.id}`;
  state.grants.set(grantKey, { clientId, userId: user.id, refreshToken });
  state.refreshTokens.set(refreshToken, { clientId, userId: user.id });
  store.connect(user);
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: state.accessTokenSeconds,
    scope: SCOPE,
    user_id: user.id,
    refresh_token: refreshToken,
  };
}

/** A seller's password as kept in the state: salted scrypt, never the password itself. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString("base64url")}$${scryptSync(password, salt, 32, { N: 4096 }).toString("base64url")}`;
}

function passwordMatches(user: User, password: string): boolean {
  const [kind, salt, hash] = (user.passwordHash ?? "").split("$");
  if (kind !== "scrypt" || !salt || !hash) return false;
  return timingSafeEqual(scryptSync(password, Buffer.from(salt, "base64url"), 32, { N: 4096 }), Buffer.from(hash, "base64url"));
}

export const MIN_PASSWORD = 6;

/**
 * Finds the seller by nickname, or creates it on the site (a global seller on the given marketplaces). A password
 * given is set on a seller created now, or on one that has none yet.
 */
export function sellerFor(store: Store, nickname: string, site: SiteId, marketplaces: LocalSiteId[], password?: string): User {
  const user = store.userByNickname(nickname) ?? store.createUser(nickname, site, site === "CBT" ? marketplaces : []);
  if (password && !user.passwordHash) user.passwordHash = hashPassword(password);
  return user;
}

/** Records a consent: a single-use code for the redirect. */
export function createCode(
  store: Store,
  user: User,
  redirectUri: string,
  challenge: string | null,
  challengeMethod: "S256" | "plain" = "S256",
): string {
  const code = `TG-${hex(12)}-${user.id}`;
  store.state.codes.set(code, {
    clientId: store.state.app.clientId,
    userId: user.id,
    redirectUri,
    expiresAt: store.now() + CODE_MS,
    used: false,
    challenge,
    challengeMethod,
  });
  store.connect(user);
  return code;
}

// ---------------------------------------------------------------------------------------------------------------
// The authorization page.

type AuthParams = {
  clientId: string;
  redirectUri: string;
  state: string;
  challenge: string;
  challengeMethod: string;
  responseType: string;
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#ebebeb;margin:0}
header{background:#fff159;padding:14px 24px;font-weight:600}
main{max-width:480px;margin:32px auto;background:#fff;border-radius:6px;padding:24px 32px;box-shadow:0 1px 2px rgba(0,0,0,.15)}
label{display:block;margin:14px 0 4px}
input[type=text],input[type=password],select{width:100%;padding:8px;box-sizing:border-box}
.signup{margin-top:14px}
.signup input{margin-right:6px}
fieldset{margin-top:14px}
.buttons{margin-top:22px;display:flex;gap:12px}
button{padding:10px 18px;border-radius:6px;border:0;font-size:15px;cursor:pointer}
#allow{background:#3483fa;color:#fff}
#deny{background:#e3edfb;color:#3483fa}
.error{color:#b00020}
small{color:#666}
</style>
</head>
<body><header>Mercado Libre · sandbox</header><main>${body}</main></body>
</html>`;
}

function errorPage(reply: FastifyReply, message: string) {
  return reply
    .code(400)
    .type("text/html; charset=utf-8")
    .send(page("Error de autorización", `<h1>Ocurrió un error</h1><p class="error" id="error">${escapeHtml(message)}</p>`));
}

type Prefill = { nickname: string; site: string; marketplaces: string[]; signup: boolean };

function consentPage(store: Store, p: AuthParams, prefill: Prefill, error = "") {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const siteOptions = (Object.keys(SITES) as SiteId[])
    .map((s) => `<option value="${s}"${s === prefill.site ? " selected" : ""}>${s} · ${escapeHtml(SITES[s].name)}</option>`)
    .join("");
  const checks = LOCAL_SITES.map(
    (s) =>
      `<label><input type="checkbox" name="marketplaces" value="${s}"${prefill.marketplaces.includes(s) ? " checked" : ""}> ${s} · ${escapeHtml(SITES[s].name)}</label>`,
  ).join("");
  return page(
    "Autorizar aplicación",
    `<h1>${escapeHtml(store.state.app.name)} quiere acceder a tu cuenta</h1>
<p>La aplicación podrá ver y modificar tus publicaciones, ver tus ventas y los datos de tu cuenta.</p>
${error ? `<p class="error" id="error">${escapeHtml(error)}</p>` : ""}
<form method="post" action="authorization" id="consent">
${hidden("response_type", p.responseType)}${hidden("client_id", p.clientId)}${hidden("redirect_uri", p.redirectUri)}${hidden("state", p.state)}${hidden("code_challenge", p.challenge)}${hidden("code_challenge_method", p.challengeMethod)}
<label for="nickname">Apodo del vendedor de prueba</label>
<input type="text" id="nickname" name="nickname" value="${escapeHtml(prefill.nickname)}" required maxlength="40" autocomplete="username">
<label for="password">Contraseña</label>
<input type="password" id="password" name="password" required maxlength="100" autocomplete="current-password">
<label class="signup"><input type="checkbox" id="signup" name="signup" value="1"${prefill.signup ? " checked" : ""}>Crear un vendedor de prueba nuevo con este apodo y contraseña</label>
<label for="site">Sitio (solo para un vendedor nuevo)</label>
<select id="site" name="site">${siteOptions}</select>
<fieldset id="marketplaces"><legend>Sitios donde vende (solo Global Selling)</legend>${checks}</fieldset>
<p><small>Un vendedor nuevo necesita una contraseña de al menos ${MIN_PASSWORD} caracteres; la misma se pide para volver a autorizar.</small></p>
<div class="buttons"><button type="submit" id="allow" name="decision" value="allow">Permitir</button>
<button type="submit" id="deny" name="decision" value="deny">Cancelar</button></div>
</form>`,
  );
}

/** Checks what the real page checks first: the app and its redirect URI. Answers the error text, or null. */
function checkClient(store: Store, p: AuthParams): string | null {
  if (p.responseType !== "code") return "El parámetro response_type debe ser code.";
  if (!p.clientId || p.clientId !== store.state.app.clientId) return "La aplicación no existe (client_id inválido).";
  const uris = store.state.app.redirectUris;
  let ok: boolean;
  try {
    const u = new URL(p.redirectUri);
    ok = (u.protocol === "http:" || u.protocol === "https:") && (uris === null || uris.includes(p.redirectUri));
  } catch {
    ok = false;
  }
  if (!ok) return "El redirect_uri no coincide con el registrado para la aplicación.";
  if (p.challengeMethod && p.challengeMethod !== "S256" && p.challengeMethod !== "plain") {
    return "El parámetro code_challenge_method debe ser S256 o plain.";
  }
  return null;
}

function authParams(src: Record<string, unknown>): AuthParams {
  const s = (k: string) =>
    typeof src[k] === "string" ? (src[k] as string) : Array.isArray(src[k]) ? String((src[k] as unknown[])[0]) : "";
  return {
    responseType: s("response_type"),
    clientId: s("client_id"),
    redirectUri: s("redirect_uri"),
    state: s("state"),
    challenge: s("code_challenge"),
    challengeMethod: s("code_challenge_method"),
  };
}

function marketplacesOf(value: unknown): LocalSiteId[] {
  const list = Array.isArray(value) ? value.map(String) : typeof value === "string" ? value.split(",") : [];
  return list.map((s) => s.trim().toUpperCase()).filter(isLocalSite);
}

function redirect(reply: FastifyReply, target: string, values: Record<string, string>) {
  const url = new URL(target);
  for (const [k, v] of Object.entries(values)) if (v) url.searchParams.set(k, v);
  return reply.redirect(url.toString(), 302);
}

export function registerOAuthRoutes(f: FastifyInstance, store: Store) {
  f.get("/auth/authorization", route({ auth: "none" }), async (req, reply) => {
    const q = query(req);
    const p = authParams(q);
    const error = checkClient(store, p);
    if (error) return errorPage(reply, error);
    const site = (q.site ?? "MLM").toUpperCase();
    const prefill = {
      nickname: q.nickname ?? "",
      site: isSiteId(site) ? site : "MLM",
      marketplaces: q.marketplaces ? marketplacesOf(q.marketplaces) : [...LOCAL_SITES],
      signup: false,
    };
    return reply.type("text/html; charset=utf-8").send(consentPage(store, p, prefill));
  });

  f.post("/auth/authorization", route({ auth: "none" }), async (req, reply) => {
    const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
    const p = authParams(body);
    const error = checkClient(store, p);
    if (error) return errorPage(reply, error);
    if (body.decision === "deny") {
      return redirect(reply, p.redirectUri, {
        error: "access_denied",
        error_description: "The user denied access to the application",
        state: p.state,
      });
    }
    const nickname = typeof body.nickname === "string" ? body.nickname.trim() : "";
    const password = typeof body.password === "string" ? body.password : "";
    const signup = body.signup === "1" || body.signup === "on";
    const rawSite = typeof body.site === "string" ? body.site.toUpperCase() : "MLM";
    const marketplaces = marketplacesOf(body.marketplaces);
    const prefill = { nickname, site: rawSite, marketplaces, signup };
    const again = (status: number, message: string) =>
      reply
        .code(status)
        .type("text/html; charset=utf-8")
        .send(consentPage(store, p, prefill, message));
    if (!/^[A-Za-z0-9_.-]{3,40}$/.test(nickname)) {
      return again(400, "El apodo debe tener entre 3 y 40 letras, números, puntos, guiones o guiones bajos.");
    }
    if (!password) return again(400, "Ingresa la contraseña.");
    if (!isSiteId(rawSite)) return again(400, "Sitio inválido.");
    const known = store.userByNickname(nickname);
    // Signing in: the nickname and its password. Signing up: a new nickname (or the same seller's own password again).
    if (known && !passwordMatches(known, password)) {
      return again(
        signup ? 409 : 401,
        signup ? "Ese apodo ya existe. Ingresa su contraseña o elige otro apodo." : "Apodo o contraseña incorrectos.",
      );
    }
    if (!known && !signup) return again(401, "Apodo o contraseña incorrectos.");
    if (!known && password.length < MIN_PASSWORD) return again(400, `La contraseña debe tener al menos ${MIN_PASSWORD} caracteres.`);
    const user = known ?? sellerFor(store, nickname, rawSite, marketplaces.length ? marketplaces : [...LOCAL_SITES], password);
    const method = p.challengeMethod === "plain" ? "plain" : "S256";
    const code = createCode(store, user, p.redirectUri, p.challenge || null, method);
    return redirect(reply, p.redirectUri, { code, state: p.state });
  });

  // ---------------------------------------------------------------------------------------------------------------
  // The token endpoint.

  f.post("/oauth/token", route({ auth: "none" }), async (req: FastifyRequest, reply) => {
    reply.header("cache-control", "no-store");
    const type = String(req.headers["content-type"] ?? "")
      .split(";")[0]
      .trim()
      .toLowerCase();
    // The real endpoint takes its parameters only form-encoded in the body, never in the query or as JSON.
    if (Object.keys((req.query ?? {}) as object).length > 0 || type !== "application/x-www-form-urlencoded") {
      throw oauthError(400, "invalid_request", "The parameters must be sent in the request body as application/x-www-form-urlencoded");
    }
    // A repeated parameter reads as absent: each must be given once.
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const body = Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === "string")) as Record<string, string | undefined>;
    const grantType = body.grant_type;
    if (!grantType) throw oauthError(400, "invalid_request", "grant_type is required");
    if (grantType !== "authorization_code" && grantType !== "refresh_token") {
      throw oauthError(400, "unsupported_grant_type", "Allowed values for grant_type are authorization_code or refresh_token");
    }
    const app = store.state.app;
    if (!body.client_id || !body.client_secret || body.client_id !== app.clientId || !sameText(body.client_secret, app.clientSecret)) {
      throw oauthError(400, "invalid_client", "invalid client_id or client_secret.");
    }

    if (grantType === "authorization_code") {
      if (!body.code) throw oauthError(400, "invalid_request", "code is required");
      if (!body.redirect_uri) throw oauthError(400, "invalid_request", "redirect_uri is required");
      const code = store.state.codes.get(body.code);
      if (!code || code.used || code.expiresAt <= store.now() || code.clientId !== body.client_id) {
        throw oauthError(400, "invalid_grant", GRANT_FAILED);
      }
      // Spent on the first attempt, even a failing one: a code is never good twice.
      code.used = true;
      if (code.redirectUri !== body.redirect_uri) {
        throw oauthError(
          400,
          "invalid_grant",
          "Error validating grant. The redirect_uri does not match the one used in the authorization request",
        );
      }
      if (code.challenge) {
        const verifier = body.code_verifier ?? "";
        const computed = code.challengeMethod === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
        if (!verifier || computed !== code.challenge)
          throw oauthError(400, "invalid_grant", "Error validating grant. Invalid code_verifier");
      }
      const user = store.state.users.get(code.userId)!;
      return issueTokens(store, app.clientId, user);
    }

    if (!body.refresh_token) throw oauthError(400, "invalid_request", "refresh_token is required");
    const holder = store.state.refreshTokens.get(body.refresh_token);
    const grant = holder && store.state.grants.get(`${holder.clientId}:${holder.userId}`);
    if (!holder || !grant || grant.refreshToken !== body.refresh_token || holder.clientId !== body.client_id) {
      throw oauthError(400, "invalid_grant", GRANT_FAILED);
    }
    return issueTokens(store, app.clientId, store.state.users.get(holder.userId)!);
  });
}
