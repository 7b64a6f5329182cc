// A shop's token pair (meli_account_groups), encrypted at rest, and its single-flight refresh (RELIABILITY.md §10). This
// store is the only writer of the pair: a granted pair (AuthBack) and a refreshed one both go through it.
// Mercado Libre's refresh tokens are single-use and only the newest works, so two refreshes at once log the seller
// out. Within a process, concurrent callers share one refresh (a promise per shop); across processes, one holds a
// lease on the row (a conditional UPDATE) while it refreshes, the others wait for the token version to move on. The new
// pair is written (conditionally on the version it replaced) and committed before anyone uses it. A refresh refused
// with invalid_grant marks the shop as needing authorization again.
import { randomUUID } from "node:crypto";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database, Tx } from "../../db/client.ts";
import { meliAccountGroups } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { notFound } from "../../http/errors.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { MeliApiError } from "./errors.ts";
import { sleep } from "./rate-limit.ts";
import type { TokenAnswer } from "./types.ts";

/** A shop's authorization: the account group holding the token pair. */
export type ShopRef = { tenantId: string; groupId: string };

export type ShopToken = { token: string; version: number; sellerId: string };

/** Authorization states of an account group. */
export const MeliAuthStatus = { Authorized: 1, NeedsAuthorization: 2 } as const;

const REAUTHORIZE_MESSAGE = "美客多授权已失效（刷新令牌被拒绝），请在店铺列表中重新授权";

const context = (ref: ShopRef, column: "access_token" | "refresh_token") => `meli_account_groups:${ref.tenantId}:${ref.groupId}:${column}`;

/** The columns of a newly obtained pair, encrypted for their row; token_expires_at is set by the caller. */
function encryptPair(secrets: SecretBox, ref: ShopRef, pair: { accessToken: string; refreshToken: string }) {
  return {
    accessToken: secrets.encrypt(pair.accessToken, context(ref, "access_token")),
    refreshToken: secrets.encrypt(pair.refreshToken, context(ref, "refresh_token")),
  };
}

/**
 * A stored pair for the group's new row when it moves to another tenant (the host's MigrateAccount): each value is
 * bound to its row, so it is decrypted for the old one and encrypted for the new. Throws SecretError when unreadable.
 */
export function rebindPair(secrets: SecretBox, from: ShopRef, to: ShopRef, stored: { accessToken: string; refreshToken: string }) {
  return encryptPair(secrets, to, {
    accessToken: secrets.decrypt(stored.accessToken, context(from, "access_token")),
    refreshToken: secrets.decrypt(stored.refreshToken, context(from, "refresh_token")),
  });
}

export type TokenStoreOptions = {
  database: Database;
  secrets: SecretBox;
  /** Mercado Libre's refresh (POST /oauth/token, grant_type=refresh_token). */
  refresh: (refreshToken: string) => Promise<TokenAnswer>;
  /** Refresh when the token expires within this many seconds. */
  marginSeconds: number;
  /** How long one process may hold the refresh before another may take over. */
  leaseSeconds: number;
};

/** The group's own columns, for a seller connected for the first time (the pair and its bookkeeping are the store's). */
type NewAccountGroup = Omit<
  typeof meliAccountGroups.$inferInsert,
  | "tenantId"
  | "id"
  | "accessToken"
  | "refreshToken"
  | "tokenExpiresAt"
  | "tokenVersion"
  | "authStatus"
  | "authMessage"
  | "refreshLeaseUntil"
  | "refreshLeaseId"
  | "lastRefreshTime"
>;

export type TokenStore = {
  /**
   * Stores a pair just granted by the seller (the authorization code's exchange) in the caller's transaction: over the
   * group's pair whatever state it was in (a fresh grant is authorized again), or, given `newGroup`, with the group's row.
   */
  grant(tx: Tx, ref: ShopRef, answer: TokenAnswer, newGroup?: NewAccountGroup): Promise<void>;
  /** A usable access token for the shop, refreshed first when it has expired (or is about to). */
  current(ref: ShopRef): Promise<ShopToken>;
  /** The token after `staleVersion` was refused (401): refreshes once, or takes the pair someone else stored. */
  renew(ref: ShopRef, staleVersion: number): Promise<ShopToken>;
};

type Row = {
  accessToken: string;
  refreshToken: string;
  tokenVersion: number;
  custId: string;
  authStatus: number;
  authMessage: string | null;
  name: string;
  stale: boolean;
  leaseHeld: boolean;
};

export function createTokenStore(o: TokenStoreOptions): TokenStore {
  const db = o.database.db;
  const inFlight = new Map<string, Promise<ShopToken>>();

  const reauthorize = (row: Pick<Row, "name" | "authMessage">) =>
    new MeliApiError("reauthorize", {}, { message: `店铺「${row.name}」${row.authMessage ?? REAUTHORIZE_MESSAGE}` });

  async function read(ref: ShopRef): Promise<Row> {
    const [row] = await inScope(db, { tenantId: ref.tenantId }, (tx) =>
      tx
        .select({
          accessToken: meliAccountGroups.accessToken,
          refreshToken: meliAccountGroups.refreshToken,
          tokenVersion: meliAccountGroups.tokenVersion,
          custId: meliAccountGroups.custId,
          authStatus: meliAccountGroups.authStatus,
          authMessage: meliAccountGroups.authMessage,
          name: meliAccountGroups.name,
          stale: sql<boolean>`${meliAccountGroups.tokenExpiresAt} <= now() + make_interval(secs => ${o.marginSeconds})`,
          leaseHeld: sql<boolean>`coalesce(${meliAccountGroups.refreshLeaseUntil} > now(), false)`,
        })
        .from(meliAccountGroups)
        .where(and(eq(meliAccountGroups.tenantId, ref.tenantId), eq(meliAccountGroups.id, ref.groupId))),
    );
    if (!row) throw notFound("店铺不存在");
    return row;
  }

  const usable = (ref: ShopRef, row: Row): ShopToken => {
    if (row.authStatus !== MeliAuthStatus.Authorized) throw reauthorize(row);
    return { token: o.secrets.decrypt(row.accessToken, context(ref, "access_token")), version: row.tokenVersion, sellerId: row.custId };
  };

  /** One refresh of the pair at `stale`, by whichever process gets the lease. */
  async function refreshFrom(ref: ShopRef, stale: number): Promise<ShopToken> {
    const lease = randomUUID();
    const deadline = Date.now() + (o.leaseSeconds + 5) * 1000;
    for (;;) {
      const [won] = await inScope(db, { tenantId: ref.tenantId }, (tx) =>
        tx
          .update(meliAccountGroups)
          .set({ refreshLeaseUntil: sql`now() + make_interval(secs => ${o.leaseSeconds})`, refreshLeaseId: lease })
          .where(
            and(
              eq(meliAccountGroups.tenantId, ref.tenantId),
              eq(meliAccountGroups.id, ref.groupId),
              eq(meliAccountGroups.tokenVersion, stale),
              eq(meliAccountGroups.authStatus, MeliAuthStatus.Authorized),
              or(isNull(meliAccountGroups.refreshLeaseUntil), lt(meliAccountGroups.refreshLeaseUntil, sql`now()`)),
            ),
          )
          .returning({ refreshToken: meliAccountGroups.refreshToken, custId: meliAccountGroups.custId }),
      );
      if (won) return refreshHolding(ref, stale, lease, won.refreshToken, won.custId);
      // Someone else refreshed, is refreshing, or the shop needs authorizing: look again.
      const row = await read(ref);
      if (row.tokenVersion !== stale || row.authStatus !== MeliAuthStatus.Authorized) return usable(ref, row);
      if (Date.now() > deadline) throw new MeliApiError("unavailable", {}, { message: "刷新美客多授权超时，请稍后重试" });
      await sleep(row.leaseHeld ? 100 : 10);
    }
  }

  async function refreshHolding(ref: ShopRef, stale: number, lease: string, encrypted: string, custId: string): Promise<ShopToken> {
    const where = and(
      eq(meliAccountGroups.tenantId, ref.tenantId),
      eq(meliAccountGroups.id, ref.groupId),
      eq(meliAccountGroups.tokenVersion, stale),
    );
    let answer: TokenAnswer;
    try {
      answer = await o.refresh(o.secrets.decrypt(encrypted, context(ref, "refresh_token")));
      if (!answer.refresh_token) throw new MeliApiError("bad-response", {}, { message: "美客多刷新授权时未返回新的刷新令牌" });
    } catch (err) {
      const refused = err instanceof MeliApiError && err.kind === "reauthorize";
      const [marked] = await inScope(db, { tenantId: ref.tenantId }, (tx) =>
        tx
          .update(meliAccountGroups)
          .set(
            refused
              ? {
                  authStatus: MeliAuthStatus.NeedsAuthorization,
                  authMessage: REAUTHORIZE_MESSAGE,
                  tokenVersion: stale + 1,
                  refreshLeaseUntil: null,
                  refreshLeaseId: null,
                  lastModificationTime: new Date(),
                }
              : { refreshLeaseUntil: null, refreshLeaseId: null },
          )
          .where(and(where, eq(meliAccountGroups.refreshLeaseId, lease)))
          .returning({ name: meliAccountGroups.name }),
      );
      if (refused && !marked) {
        // Our lease ran out and another process stored a newer pair meanwhile: that one is good.
        const row = await read(ref);
        if (row.tokenVersion !== stale) return usable(ref, row);
      }
      if (refused) throw reauthorize({ name: marked?.name ?? "", authMessage: REAUTHORIZE_MESSAGE });
      throw err;
    }
    const pair = encryptPair(o.secrets, ref, { accessToken: answer.access_token, refreshToken: answer.refresh_token! });
    // Written over the version we refreshed, whoever holds the lease now: the pair we hold is the only valid one.
    const [stored] = await inScope(db, { tenantId: ref.tenantId }, (tx) =>
      tx
        .update(meliAccountGroups)
        .set({
          ...pair,
          tokenExpiresAt: sql`now() + make_interval(secs => ${answer.expires_in})`,
          tokenVersion: stale + 1,
          refreshLeaseUntil: null,
          refreshLeaseId: null,
          lastRefreshTime: sql`now()`,
        })
        .where(where)
        .returning({ version: meliAccountGroups.tokenVersion }),
    );
    if (!stored) {
      const row = await read(ref);
      return usable(ref, row);
    }
    return { token: answer.access_token, version: stored.version, sellerId: custId };
  }

  /** Callers in this process share one refresh per shop and version. */
  function shared(ref: ShopRef, stale: number): Promise<ShopToken> {
    const key = `${ref.tenantId}:${ref.groupId}:${stale}`;
    let p = inFlight.get(key);
    if (!p) {
      p = refreshFrom(ref, stale).finally(() => inFlight.delete(key));
      inFlight.set(key, p);
    }
    return p;
  }

  return {
    async grant(tx, ref, answer, newGroup) {
      if (!answer.refresh_token) throw new MeliApiError("bad-response", {}, { message: "美客多授权未返回刷新令牌" });
      const pair = encryptPair(o.secrets, ref, { accessToken: answer.access_token, refreshToken: answer.refresh_token });
      const tokenExpiresAt = sql`now() + make_interval(secs => ${answer.expires_in})`;
      if (newGroup) {
        await tx
          .insert(meliAccountGroups)
          .values({ ...newGroup, tenantId: ref.tenantId, id: ref.groupId, ...pair, tokenExpiresAt, lastRefreshTime: sql`now()` });
        return;
      }
      await tx
        .update(meliAccountGroups)
        .set({
          ...pair,
          tokenExpiresAt,
          tokenVersion: sql`${meliAccountGroups.tokenVersion} + 1`,
          authStatus: MeliAuthStatus.Authorized,
          authMessage: null,
          refreshLeaseUntil: null,
          refreshLeaseId: null,
          lastRefreshTime: sql`now()`,
          lastModificationTime: new Date(),
        })
        .where(and(eq(meliAccountGroups.tenantId, ref.tenantId), eq(meliAccountGroups.id, ref.groupId)));
    },
    async current(ref) {
      const row = await read(ref);
      if (row.authStatus !== MeliAuthStatus.Authorized) throw reauthorize(row);
      if (!row.stale) return usable(ref, row);
      return shared(ref, row.tokenVersion);
    },
    async renew(ref, staleVersion) {
      const row = await read(ref);
      if (row.tokenVersion !== staleVersion) return usable(ref, row);
      return shared(ref, staleVersion);
    },
  };
}
