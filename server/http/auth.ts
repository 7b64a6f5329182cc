// Access tokens: HS256 JWTs signed with the configured key. The token names the user, the tenant and the login
// session; every request re-checks the user and session in the database (calls.ts), so disabling a user, changing a
// password or logging out ends existing tokens at once.
import { randomUUID } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import type { FastifyRequest } from "fastify";
import { forbidden, unauthorized } from "./errors.ts";

const TOKEN_ISSUER = "erp";
const TOKEN_AUDIENCE = "Erp";
export const CLIENT_ID = "Erp_App";
/** The client's "no tenant" value; a header carrying it is treated as absent. */
export const TENANT_PLACEHOLDER = "11111111";

export type Principal = {
  userId: string;
  /** null for the host. */
  tenantId: string | null;
  tenantName: string | null;
  userName: string;
  isMainAccount: boolean;
  isHost: boolean;
  sessionId: string;
  securityStamp: string;
};

export type TokenSigner = {
  sign(p: Principal): Promise<string>;
  verify(token: string): Promise<Principal>;
};

/** Verified tokens kept so a client's repeated requests skip the signature check; bounded, and expiry still applies. */
const VERIFIED_CACHE_SIZE = 10_000;

export function createTokenSigner(signingKey: string, accessTokenSeconds: number): TokenSigner {
  const key = new TextEncoder().encode(signingKey);
  const verified = new Map<string, { principal: Principal; expiresAt: number }>();
  return {
    async sign(p) {
      return new SignJWT({
        tid: p.tenantId,
        tname: p.tenantName,
        uname: p.userName,
        main: p.isMainAccount,
        host: p.isHost,
        sid: p.sessionId,
        sst: p.securityStamp,
        client_id: CLIENT_ID,
        scope: "Erp",
      })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(p.userId)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt()
        .setJti(randomUUID())
        .setExpirationTime(Math.floor(Date.now() / 1000) + accessTokenSeconds)
        .sign(key);
    },
    async verify(token) {
      const hit = verified.get(token);
      if (hit && hit.expiresAt > Date.now()) return hit.principal;
      const { payload } = await jwtVerify(token, key, {
        algorithms: ["HS256"],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        // Every token the server issues expires; one without exp was not made here and must not live forever.
        requiredClaims: ["exp", "sub"],
      });
      const str = (v: unknown) => (typeof v === "string" ? v : null);
      const userId = str(payload.sub);
      const sessionId = str(payload.sid);
      const securityStamp = str(payload.sst);
      if (!userId || !sessionId || !securityStamp) throw new Error("incomplete token");
      const principal: Principal = {
        userId,
        tenantId: str(payload.tid),
        tenantName: str(payload.tname),
        userName: str(payload.uname) ?? "",
        isMainAccount: payload.main === true,
        isHost: payload.host === true,
        sessionId,
        securityStamp,
      };
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
      verified.set(token, { principal, expiresAt: (payload.exp ?? 0) * 1000 });
      return principal;
    },
  };
}

/** The `__tenant` header (or query) the caller sent, if any; the placeholder counts as none. */
export function tenantHint(req: FastifyRequest): string | null {
  const raw = req.headers["__tenant"];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value || value === TENANT_PLACEHOLDER) return null;
  return value;
}

const bearer = /^Bearer\s+(\S+)\s*$/i;

/** Reads and verifies the bearer token; null when there is none. A bad or expired token is a 401. */
export async function readPrincipal(req: FastifyRequest, signer: TokenSigner): Promise<Principal | null> {
  const header = req.headers.authorization;
  if (!header) return null;
  const m = bearer.exec(header);
  if (!m) throw unauthorized("令牌格式不正确");
  let principal: Principal;
  try {
    principal = await signer.verify(m[1]);
  } catch {
    throw unauthorized("登录已过期或令牌无效，请重新登录");
  }
  // The token's tenant wins; a header naming any other tenant is refused.
  const hint = tenantHint(req);
  if (hint !== null) {
    const same =
      principal.tenantId !== null &&
      (hint.toLowerCase() === principal.tenantId || hint.toLowerCase() === principal.tenantName?.toLowerCase());
    if (!same) throw forbidden("请求头中的租户与登录令牌不一致");
  }
  return principal;
}
