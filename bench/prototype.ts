// NOT the application: a measuring stick for bench/RESULTS.md. GET /api/User/GetUserInfo answered the way the real
// call does it (verify the token, open a transaction scoped to the token's tenant as erp_app, re-read user + session +
// tenant, commit), with the four changes the profile points at:
//   1. the HS256 token checked with node:crypto's HMAC instead of jose's WebCrypto path;
//   2. BEGIN and the set_config of the scope sent as one simple query (one round trip instead of two);
//   3. the session query a named statement: planned once per connection, its row description sent once;
//   4. its SQL text built once at start, not by the query builder on every request.
// Run by `npm run bench -- --db=postgres --prototype`; env DATABASE_URL, TOKEN_SIGNING_KEY, PORT.
import { createHmac, timingSafeEqual } from "node:crypto";
import Fastify from "fastify";
import pg from "pg";

const url = process.env.DATABASE_URL!;
const key = Buffer.from(process.env.TOKEN_SIGNING_KEY!, "utf8");
const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DB_POOL_SIZE ?? 20) });
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HOST_TENANT_ID = "00000000-0000-0000-0000-000000000000";

const sessionSql = `select u.*, t.name as tenant_name, t.is_active as tenant_active, s.revoked_at
  from users u
  join user_sessions s on s.tenant_id = u.tenant_id and s.id = $3 and s.user_id = u.id
  left join tenants t on t.id = u.tenant_id
  where u.tenant_id = $1 and u.id = $2
  limit 1`;

type Claims = { sub: string; tid: string | null; sid: string; sst: string; iss: string; aud: string | string[]; exp: number };

function verify(token: string): Claims | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const header = JSON.parse(Buffer.from(parts[0], "base64url").toString("utf8")) as { alg?: string };
  if (header.alg !== "HS256") return null;
  const mac = createHmac("sha256", key).update(`${parts[0]}.${parts[1]}`).digest();
  const sig = Buffer.from(parts[2], "base64url");
  if (sig.length !== mac.length || !timingSafeEqual(sig, mac)) return null;
  const c = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")) as Claims;
  const aud = Array.isArray(c.aud) ? c.aud : [c.aud];
  if (c.iss !== "erp" || !aud.includes("Erp") || !(c.exp > Date.now() / 1000)) return null;
  return c;
}

const app = Fastify({ logger: { level: "warn" } });
app.get("/api/User/GetUserInfo", async (req, reply) => {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  const claims = m ? verify(m[1]) : null;
  const tenantId = claims?.tid ?? HOST_TENANT_ID;
  if (!claims || !uuid.test(tenantId)) return reply.code(401).send({ error: { message: "unauthorized" } });
  const client = await pool.connect();
  try {
    await client.query(
      `begin; select set_config('role', 'erp_app', true), set_config('app.tenant_id', '${tenantId}', true), set_config('app.host_all', 'off', true)`,
    );
    const r = await client.query({ name: "session_user", text: sessionSql, values: [tenantId, claims.sub, claims.sid] });
    await client.query("commit");
    const u = r.rows[0];
    if (
      !u ||
      u.revoked_at ||
      u.is_deleted ||
      !u.is_active ||
      u.security_stamp !== claims.sst ||
      (tenantId !== HOST_TENANT_ID && u.tenant_active !== true)
    ) {
      return reply.code(401).send({ error: { message: "unauthorized" } });
    }
    return {
      result: {
        id: u.id,
        userName: u.user_name,
        name: u.name,
        email: u.email,
        tenantId: tenantId === HOST_TENANT_ID ? null : tenantId,
        tenantName: u.tenant_name,
        isMainAccount: u.is_main_account,
        isHost: u.is_host,
        roleList: u.is_host ? ["host"] : u.is_main_account ? ["super"] : ["sub"],
        isShowPageCrwal: u.is_show_page_crwal,
        limitMeliAccount: u.limit_meli_account,
        collectCount: u.collect_count,
        productCount: u.product_count,
      },
    };
  } catch (e) {
    await client.query("rollback").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
});

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
console.log(`[ready] ${address} (prototype)`);
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
