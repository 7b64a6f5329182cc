// Login sessions and their tokens: the credential check with lockout, the access token, and the rotating refresh token
// (tenant.session.secret; only the hash of the newest secret is kept, and a reused old one ends the session).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Config } from "../../config.ts";
import type { Database, Tx } from "../../db/client.ts";
import { HOST_TENANT_ID, tenants, userSessions, users } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { normalizeName } from "../../db/names.ts";
import type { Principal, TokenSigner } from "../../http/auth.ts";
import { verifyPassword, type PasswordHasher } from "./passwords.ts";
import { createNameLockout, type NameLockout } from "./name-lockout.ts";

export type UserRow = typeof users.$inferSelect;
export type TxRunner = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

export type CredentialCheck =
  | { ok: true; user: UserRow }
  | { ok: false; reason: "locked"; lockoutSeconds: number }
  | { ok: false; reason: "invalid" | "inactive" | "tenantInactive" | "expired" };

export type SessionDeps = {
  database: Database;
  tokens: TokenSigner;
  passwords: PasswordHasher;
  config: Pick<Config, "lockoutAttempts" | "lockoutSeconds" | "accessTokenSeconds" | "refreshTokenSeconds">;
};

export const lockedMessage = (seconds: number) => `登录失败次数过多，账号已被锁定，请在${Math.max(1, Math.ceil(seconds / 60))}分钟后重试`;

export const credentialMessages: Record<Exclude<CredentialCheck, { ok: true }>["reason"], string> = {
  invalid: "用户名或密码错误",
  locked: "账号已被锁定",
  inactive: "账号已被禁用",
  tenantInactive: "公司账号已被停用",
  expired: "公司账号已过期，请续费后登录",
};

/**
 * Checks a user name (or email) and password in one tenant. Failures are counted in their own committed transaction;
 * the 5th failure locks the account for the configured time, and a locked account answers "locked" to any password.
 * A name without an account is counted and locked alike (in `unknownNames`), so the answers do not tell them apart.
 */
async function checkCredentials(
  deps: SessionDeps,
  unknownNames: NameLockout,
  tenantId: string,
  login: string,
  password: string,
  /** Where its reads and writes run: by default short transactions of their own; a call passes its open transaction. */
  run: TxRunner = (fn) => inScope(deps.database.db, { tenantId }, fn),
): Promise<CredentialCheck> {
  const key = normalizeName(login);
  // A NUL can be in no stored name (and PostgreSQL refuses it in a parameter): such a name has no account.
  if (key.includes("\u0000")) return refuseUnknownName(deps, unknownNames, `${tenantId}\n${key}`, password);
  const user = await run(async (tx) => {
    const rows = await tx
      .select()
      .from(users)
      .where(
        and(
          eq(users.tenantId, tenantId),
          eq(users.isDeleted, false),
          or(eq(users.normalizedUserName, key), eq(users.normalizedEmail, key)),
        ),
      )
      .limit(1);
    return rows[0] ?? null;
  });
  if (!user) {
    // The counting update an account gets, on an id no account has, so the answer takes as long as an account's.
    const countLikeAnAccount = () => run((tx) => claimAttempt(tx, deps.config, tenantId, randomUUID()));
    return refuseUnknownName(deps, unknownNames, `${tenantId}\n${key}`, password, countLikeAnAccount);
  }
  const now = Date.now();
  if (user.lockoutEnabled && user.lockoutEnd && user.lockoutEnd.getTime() > now) {
    return { ok: false, reason: "locked", lockoutSeconds: Math.ceil((user.lockoutEnd.getTime() - now) / 1000) };
  }
  // The attempt is counted before the (slow) password check, by one conditional update: concurrent guesses each take
  // a slot, and once the 5th has locked the account the rest are refused unseen, so a burst gets no more than 5 guesses.
  if (!(await run((tx) => claimAttempt(tx, deps.config, tenantId, user.id)))) {
    const end = await run(
      async (tx) =>
        (
          await tx
            .select({ lockoutEnd: users.lockoutEnd })
            .from(users)
            .where(and(eq(users.tenantId, tenantId), eq(users.id, user.id)))
        )[0]?.lockoutEnd,
    );
    return { ok: false, reason: "locked", lockoutSeconds: Math.max(1, Math.ceil(((end?.getTime() ?? now) - Date.now()) / 1000)) };
  }
  if (!(await verifyPassword(password, user.passwordHash))) return { ok: false, reason: "invalid" };
  // The right password: the attempt counted above (and a lock it set) is undone, and earlier failures are forgiven.
  await run((tx) =>
    tx
      .update(users)
      .set({ accessFailedCount: 0, lockoutEnd: null })
      .where(and(eq(users.tenantId, tenantId), eq(users.id, user.id))),
  );
  if (!user.isActive) return { ok: false, reason: "inactive" };
  if (tenantId !== HOST_TENANT_ID) {
    const tenant = await run((tx) => tenantState(tx, tenantId));
    if (!tenant?.isActive) return { ok: false, reason: "tenantInactive" };
    if (tenant.accountExpireTime && tenant.accountExpireTime.getTime() < now) return { ok: false, reason: "expired" };
  }
  return { ok: true, user };
}

/** Counts one attempt on an account that is not locked (locking it on the last allowed one); false when it is locked. */
async function claimAttempt(tx: Tx, config: SessionDeps["config"], tenantId: string, userId: string): Promise<boolean> {
  const { lockoutAttempts, lockoutSeconds } = config;
  const claimed = await tx
    .update(users)
    .set({
      accessFailedCount: sql`case when ${users.accessFailedCount} + 1 >= ${lockoutAttempts} then 0 else ${users.accessFailedCount} + 1 end`,
      lockoutEnd: sql`case when ${users.lockoutEnabled} and ${users.accessFailedCount} + 1 >= ${lockoutAttempts} then now() + make_interval(secs => ${lockoutSeconds}) else ${users.lockoutEnd} end`,
    })
    .where(
      and(
        eq(users.tenantId, tenantId),
        eq(users.id, userId),
        or(eq(users.lockoutEnabled, false), isNull(users.lockoutEnd), lte(users.lockoutEnd, sql`now()`)),
      ),
    )
    .returning({ id: users.id });
  return claimed.length > 0;
}

/** The answer to a name that has no account: counted and locked like an account, with as slow a password check. */
async function refuseUnknownName(
  deps: SessionDeps,
  unknownNames: NameLockout,
  key: string,
  password: string,
  countLikeAnAccount?: () => Promise<unknown>,
): Promise<CredentialCheck> {
  const lockoutSeconds = unknownNames.claim(key);
  if (lockoutSeconds > 0) return { ok: false, reason: "locked", lockoutSeconds };
  await countLikeAnAccount?.();
  await verifyPassword(password, deps.passwords.unmatchableHash);
  return { ok: false, reason: "invalid" };
}

async function tenantState(tx: Tx, tenantId: string) {
  const rows = await tx
    .select({ isActive: tenants.isActive, accountExpireTime: tenants.accountExpireTime, name: tenants.name })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return rows[0] ?? null;
}

export type TokenAnswer = {
  token_type: "Bearer";
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  scope: string;
};

const sha256 = (s: string) => createHash("sha256").update(s).digest("base64url");

function principalOf(user: UserRow, tenantName: string | null, sessionId: string): Principal {
  return {
    userId: user.id,
    tenantId: user.tenantId === HOST_TENANT_ID ? null : user.tenantId,
    tenantName,
    userName: user.userName,
    isMainAccount: user.isMainAccount,
    isHost: user.isHost,
    sessionId,
    securityStamp: user.securityStamp,
  };
}

/** Opens a session for a user whose credentials were checked and answers the token response. */
export async function openSession(deps: SessionDeps, user: UserRow, clientIp: string, withRefresh: boolean): Promise<TokenAnswer> {
  const sessionId = randomUUID();
  const secret = randomBytes(32).toString("base64url");
  const tenantName =
    user.tenantId === HOST_TENANT_ID
      ? null
      : ((await inScope(deps.database.db, { tenantId: user.tenantId }, (tx) => tenantState(tx, user.tenantId)))?.name ?? null);
  await inScope(deps.database.db, { tenantId: user.tenantId }, (tx) =>
    tx.insert(userSessions).values({
      tenantId: user.tenantId,
      id: sessionId,
      userId: user.id,
      clientIp,
      refreshTokenHash: withRefresh ? sha256(secret) : null,
      refreshExpiresAt: withRefresh ? new Date(Date.now() + deps.config.refreshTokenSeconds * 1000) : null,
    }),
  );
  return tokenAnswer(deps, principalOf(user, tenantName, sessionId), withRefresh ? `${user.tenantId}.${sessionId}.${secret}` : undefined);
}

async function tokenAnswer(deps: SessionDeps, p: Principal, refreshToken?: string): Promise<TokenAnswer> {
  return {
    token_type: "Bearer",
    access_token: await deps.tokens.sign(p),
    expires_in: deps.config.accessTokenSeconds,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    scope: refreshToken ? "Erp offline_access" : "Erp",
  };
}

const refreshPattern = /^([0-9a-f-]{36})\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{20,})$/;

/** Rotates a refresh token: the old one stops working, a reused old one revokes the session. Null when refused. */
async function refreshSession(deps: SessionDeps, refreshToken: string): Promise<TokenAnswer | null> {
  const m = refreshPattern.exec(refreshToken);
  if (!m) return null;
  const [, tenantId, sessionId, secret] = m;
  const next = randomBytes(32).toString("base64url");
  const outcome = await inScope(deps.database.db, { tenantId }, async (tx) => {
    const rows = await tx
      .select({ session: userSessions, user: users, tenantName: tenants.name, tenantActive: tenants.isActive })
      .from(userSessions)
      .innerJoin(users, and(eq(users.tenantId, userSessions.tenantId), eq(users.id, userSessions.userId)))
      .leftJoin(tenants, eq(tenants.id, userSessions.tenantId))
      .where(and(eq(userSessions.tenantId, tenantId), eq(userSessions.id, sessionId)))
      .limit(1);
    const row = rows[0];
    if (!row || row.session.revokedAt || !row.session.refreshTokenHash) return null;
    if (!row.session.refreshExpiresAt || row.session.refreshExpiresAt.getTime() < Date.now()) return null;
    if (row.session.refreshTokenHash !== sha256(secret)) {
      await revokeSession(tx, tenantId, sessionId);
      return "reused" as const;
    }
    if (row.user.isDeleted || !row.user.isActive) return null;
    if (tenantId !== HOST_TENANT_ID && !row.tenantActive) return null;
    // Conditional on the old hash, so two concurrent refreshes with one token cannot both win.
    const updated = await tx
      .update(userSessions)
      .set({ refreshTokenHash: sha256(next), lastRefreshTime: new Date() })
      .where(
        and(
          eq(userSessions.tenantId, tenantId),
          eq(userSessions.id, sessionId),
          eq(userSessions.refreshTokenHash, sha256(secret)),
          isNull(userSessions.revokedAt),
        ),
      )
      .returning({ id: userSessions.id });
    if (updated.length !== 1) return null;
    return principalOf(row.user, row.tenantName ?? null, sessionId);
  });
  if (!outcome || outcome === "reused") return null;
  return tokenAnswer(deps, outcome, `${tenantId}.${sessionId}.${next}`);
}

export async function revokeSession(tx: Tx, tenantId: string, sessionId: string): Promise<void> {
  await tx
    .update(userSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(userSessions.tenantId, tenantId), eq(userSessions.id, sessionId)));
}

/** Ends every session of a user (password change, disable). */
export async function revokeUserSessions(tx: Tx, tenantId: string, userId: string): Promise<void> {
  await tx
    .update(userSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(userSessions.tenantId, tenantId), eq(userSessions.userId, userId), isNull(userSessions.revokedAt)));
}

/** Credential checks and token issuing on the app's database, signer and lockout settings. */
export function createSessionService(deps: SessionDeps) {
  const unknownNames = createNameLockout({ attempts: deps.config.lockoutAttempts, lockoutSeconds: deps.config.lockoutSeconds });
  return {
    checkCredentials: (tenantId: string, login: string, password: string, run?: TxRunner) =>
      checkCredentials(deps, unknownNames, tenantId, login, password, run),
    /** The password grant naming a tenant that does not exist: answered like an unknown name in an existing one. */
    checkUnknownTenant: (tenantHint: string, login: string, password: string) =>
      refuseUnknownName(deps, unknownNames, `?${normalizeName(tenantHint)}\n${normalizeName(login)}`, password),
    openSession: (user: UserRow, clientIp: string, withRefresh: boolean) => openSession(deps, user, clientIp, withRefresh),
    refreshSession: (refreshToken: string) => refreshSession(deps, refreshToken),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
