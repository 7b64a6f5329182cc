// POST /connect/token: OAuth 2 password and refresh_token grants for the client Erp_App. Answers and errors in OAuth's
// own shape ({error, error_description}); unknown users and wrong passwords answer alike.
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { tenantHint, CLIENT_ID, TENANT_PLACEHOLDER } from "../../http/auth.ts";
import { findTenant } from "../identity/tenants.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import type { Database } from "../../db/client.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { credentialMessages, lockedMessage, type SessionService } from "../identity/sessions.ts";

const tokenRequest = z.object({
  grant_type: z.string().optional(),
  client_id: z.string().optional(),
  username: z.string().max(256).optional(),
  password: z.string().max(256).optional(),
  scope: z.string().max(256).optional(),
  refresh_token: z.string().max(512).optional(),
  __tenant: z.string().max(256).optional(),
});

/** tenantId.sessionId.secret as openSession writes it; anything else is refused before it reaches a uuid column. */
const guid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const refreshTokenShape = new RegExp(`^${guid}\\.${guid}\\.[A-Za-z0-9_-]{20,}$`);

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply.code(status).header("cache-control", "no-store").send({ error, error_description: description });
}

export type TokenEndpointDeps = { database: Database; loginLimiter: RateLimiter; sessions: SessionService };

export function registerTokenEndpoint(app: FastifyInstance, { database, loginLimiter, sessions }: TokenEndpointDeps) {
  app.post("/connect/token", { schema: { tags: ["Token"], operationId: "Token", hide: false } }, async (req, reply) => {
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
      const answer = refreshTokenShape.test(body.refresh_token) ? await sessions.refreshSession(body.refresh_token) : null;
      if (!answer) return oauthError(reply, 400, "invalid_grant", "刷新令牌无效或已过期，请重新登录");
      return answer;
    }
    if (body.grant_type !== "password") return oauthError(reply, 400, "unsupported_grant_type", "不支持的授权类型");
    if (!body.username) return oauthError(reply, 400, "invalid_request", "The parameter username cannot be null.");
    if (!body.password) return oauthError(reply, 400, "invalid_request", "The parameter password cannot be null.");

    const formTenant = body.__tenant?.trim();
    // The form's __tenant reads like the header: the client's placeholder means no tenant.
    const hint = tenantHint(req) ?? (formTenant && formTenant !== TENANT_PLACEHOLDER ? formTenant : null);
    let tenantId = HOST_TENANT_ID;
    if (hint) {
      const tenant = await inScope(database.db, hostAllScope, (tx) => findTenant(tx, hint));
      // An unknown tenant answers like a wrong password: no guessing of names through this endpoint.
      if (!tenant) return oauthError(reply, 400, "invalid_grant", credentialMessages.invalid);
      tenantId = tenant.id;
    }
    const check = await sessions.checkCredentials(tenantId, body.username, body.password);
    if (!check.ok) {
      const description = check.reason === "locked" ? lockedMessage(check.lockoutSeconds) : credentialMessages[check.reason];
      return oauthError(reply, 400, "invalid_grant", description);
    }
    return sessions.openSession(check.user, req.ip, scopes.includes("offline_access"));
  });
}
