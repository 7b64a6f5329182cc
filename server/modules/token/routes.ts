// POST /connect/token: OAuth 2 password and refresh_token grants for the client Erp_App. Answers and errors, whatever
// fails, in OAuth's own shape ({error, error_description}); unknown users, unknown tenants and wrong passwords answer
// alike, lockout included. A `__tenant` must name the tenant the credentials or the refresh token belong to.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { tenantHint, CLIENT_ID, TENANT_PLACEHOLDER } from "../../http/auth.ts";
import { findTenant } from "../../db/tenants.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import type { Database } from "../../db/client.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { credentialMessages, lockedMessage, type SessionService } from "../identity/index.ts";
import { whileUserWaits } from "../../user-waiting.ts";

/** A name as a person types it: no control characters (a NUL would otherwise reach the database as an error). */
const typedName = z
  .string()
  .max(256)
  .regex(/^[^\u0000-\u001f\u007f]*$/);

const tokenRequest = z.object({
  grant_type: z.string().optional(),
  client_id: z.string().optional(),
  username: typedName.optional(),
  password: z.string().max(256).optional(),
  scope: z.string().max(256).optional(),
  refresh_token: z.string().max(512).optional(),
  __tenant: typedName.optional(),
});
type TokenRequest = z.infer<typeof tokenRequest>;

/** tenantId.sessionId.secret as openSession writes it; anything else is refused before it reaches a uuid column. */
const guid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const refreshTokenShape = new RegExp(`^${guid}\\.${guid}\\.[A-Za-z0-9_-]{20,}$`);

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply.code(status).header("cache-control", "no-store").send({ error, error_description: description });
}

/** The tenant the caller names: the `__tenant` header, else the form's field; the client's placeholder means none. */
function namedTenant(req: FastifyRequest, body: TokenRequest): string | null {
  const formTenant = body.__tenant?.trim();
  return tenantHint(req) ?? (formTenant && formTenant !== TENANT_PLACEHOLDER ? formTenant : null);
}

/**
 * Whatever fails on this route (a body no parser takes, a database error) still answers in OAuth's shape: a 4xx as
 * invalid_request with its own status (413, 415…), anything else as server_error.
 */
function oauthErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const status = typeof err.statusCode === "number" ? err.statusCode : 500;
  if (status >= 400 && status < 500) return oauthError(reply, status, "invalid_request", "请求格式不正确");
  req.log.error({ err, reqId: req.id }, "token endpoint error");
  return oauthError(reply, 500, "server_error", `服务器内部错误 (request id ${req.id})`);
}

export type TokenEndpointDeps = { database: Database; loginLimiter: RateLimiter; sessions: SessionService };

export function registerTokenEndpoint(app: FastifyInstance, { database, loginLimiter, sessions }: TokenEndpointDeps) {
  const tenantOf = (hint: string) => inScope(database.db, hostAllScope, (tx) => findTenant(tx, hint));
  const schema = { tags: ["Token"], operationId: "Token", hide: false };
  // A sign-in is a user waiting at the screen: its statements go before queued jobs on PGlite (user-waiting.ts).
  app.post("/connect/token", { schema, errorHandler: oauthErrorHandler }, (req, reply) =>
    whileUserWaits(async () => {
      const wait = loginLimiter.hit(req.ip);
      if (wait > 0) {
        reply.header("retry-after", String(wait));
        return oauthError(reply, 429, "too_many_requests", "访问太多，请稍候访问!");
      }
      const parsed = tokenRequest.safeParse(req.body ?? {});
      if (!parsed.success) return oauthError(reply, 400, "invalid_request", "请求参数格式不正确");
      const body = parsed.data;
      if (!body.grant_type) return oauthError(reply, 400, "invalid_request", "The parameter grant_type cannot be null.");
      if (body.client_id !== CLIENT_ID) return oauthError(reply, 400, "invalid_client", "未知的客户端");
      const scopes = (body.scope ?? "Erp").split(/\s+/).filter(Boolean);
      if (scopes.some((s) => s !== "Erp" && s !== "offline_access")) {
        return oauthError(reply, 400, "invalid_scope", "不支持的 scope");
      }
      reply.header("cache-control", "no-store");

      if (body.grant_type === "refresh_token") {
        if (!body.refresh_token) return oauthError(reply, 400, "invalid_request", "The parameter refresh_token cannot be null.");
        const refused = () => oauthError(reply, 400, "invalid_grant", "刷新令牌无效或已过期，请重新登录");
        if (!refreshTokenShape.test(body.refresh_token)) return refused();
        // As on the password grant, a named tenant must be the one the session belongs to (none names the host's).
        const hint = namedTenant(req, body);
        if (hint) {
          const tokenTenantId = body.refresh_token.slice(0, 36);
          if ((await tenantOf(hint))?.id !== tokenTenantId || tokenTenantId === HOST_TENANT_ID) return refused();
        }
        return (await sessions.refreshSession(body.refresh_token)) ?? refused();
      }
      if (body.grant_type !== "password") return oauthError(reply, 400, "unsupported_grant_type", "不支持的授权类型");
      if (!body.username) return oauthError(reply, 400, "invalid_request", "The parameter username cannot be null.");
      if (!body.password) return oauthError(reply, 400, "invalid_request", "The parameter password cannot be null.");

      const hint = namedTenant(req, body);
      const tenant = hint ? await tenantOf(hint) : null;
      // An unknown tenant answers like a wrong password, its names counted and locked alike: nothing tells it apart.
      const check =
        hint && !tenant
          ? await sessions.checkUnknownTenant(hint, body.username, body.password)
          : await sessions.checkCredentials(tenant?.id ?? HOST_TENANT_ID, body.username, body.password);
      if (!check.ok) {
        const description = check.reason === "locked" ? lockedMessage(check.lockoutSeconds) : credentialMessages[check.reason];
        return oauthError(reply, 400, "invalid_grant", description);
      }
      return sessions.openSession(check.user, req.ip, scopes.includes("offline_access"));
    }),
  );
}
