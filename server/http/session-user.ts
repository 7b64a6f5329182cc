// The logged-in user as every call sees it: re-read with its session and its tenant on each request (http/calls.ts).
import { getTableColumns } from "drizzle-orm";
import { textRows, type Tx } from "../db/client.ts";
import { HOST_TENANT_ID, users } from "../db/schema.ts";
import type { Principal } from "./auth.ts";
import { unauthorized } from "./errors.ts";

export type SessionUser = typeof users.$inferSelect & { tenantName: string | null; tenant: SessionTenant | null };

/** The facts of the caller's tenant that calls need, read together with the session. */
export type SessionTenant = {
  name: string;
  isActive: boolean;
  balance: string;
  accountExpireTime: Date | null;
  accountPaymentType: number;
  subAccountCount: number;
};

// The session check runs on every request: one fixed statement (prepared once per connection on PostgreSQL) that
// reads the user, its session and its tenant by primary key.
const userColumns = Object.entries(getTableColumns(users))
  .map(([key, column]) => `u."${column.name}" as "${key}"`)
  .join(", ");
const sessionStatement = `select ${userColumns}, s.revoked_at as "revokedAt", t.name as "tName", t.is_active as "tIsActive",
  t.balance as "tBalance", t.account_expire_time as "tAccountExpireTime", t.account_payment_type as "tAccountPaymentType",
  t.sub_account_count as "tSubAccountCount"
  from users u
  join user_sessions s on s.tenant_id = u.tenant_id and s.id = $3 and s.user_id = u.id
  left join tenants t on t.id = u.tenant_id
  where u.tenant_id = $1 and u.id = $2`;

type SessionRow = typeof users.$inferSelect & {
  revokedAt: Date | null;
  tName: string | null;
  tIsActive: boolean | null;
  tBalance: string | null;
  tAccountExpireTime: Date | null;
  tAccountPaymentType: number | null;
  tSubAccountCount: number | null;
};

/** Re-reads the token's user and session: a disabled or deleted user, a revoked session or a changed password is a 401. */
export async function loadSessionUser(tx: Tx, p: Principal): Promise<SessionUser> {
  const tenantId = p.tenantId ?? HOST_TENANT_ID;
  return sessionUserOf(await textRows<SessionRow>(tx, sessionStatement, [tenantId, p.userId, p.sessionId], "erp_session_user"), p);
}

const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The session check as one statement with its values inlined (the token's ids, each checked to be a GUID), so a call
 * can send it together with BEGIN and its scope in one round trip (inScope's `prelude`); sessionUserOf reads its rows.
 */
export function sessionQuery(p: Principal): string {
  const values = [p.tenantId ?? HOST_TENANT_ID, p.userId, p.sessionId];
  if (!values.every((v) => guid.test(v))) throw unauthorized("登录已失效，请重新登录");
  return sessionStatement.replace(/\$(\d)/g, (_, n: string) => `'${values[Number(n) - 1].toLowerCase()}'::uuid`);
}

/** The session check's rows as the caller: a 401 unless they hold an active user with this session and password. */
export function sessionUserOf(rows: unknown[], p: Principal): SessionUser {
  const tenantId = p.tenantId ?? HOST_TENANT_ID;
  const row = rows[0] as SessionRow | undefined;
  if (
    !row ||
    row.revokedAt ||
    row.isDeleted ||
    !row.isActive ||
    row.securityStamp !== p.securityStamp ||
    (tenantId !== HOST_TENANT_ID && row.tIsActive !== true)
  ) {
    throw unauthorized("登录已失效，请重新登录");
  }
  const { revokedAt, tName, tIsActive, tBalance, tAccountExpireTime, tAccountPaymentType, tSubAccountCount, ...user } = row;
  void revokedAt;
  const tenant: SessionTenant | null =
    tName === null
      ? null
      : {
          name: tName,
          isActive: tIsActive === true,
          balance: tBalance ?? "0",
          accountExpireTime: tAccountExpireTime,
          accountPaymentType: tAccountPaymentType ?? 1,
          subAccountCount: tSubAccountCount ?? 0,
        };
  return { ...user, tenantName: tName, tenant };
}
