// Shared helpers such as findTenant and checkCredentials open their own transactions on deps.database.db. Called from
// a call's handler, which already runs inside one transaction, that deadlocks on PGlite (one connection: the nested
// transaction waits for the outer one) and on PostgreSQL holds two pooled connections per request. depsInCall gives
// them a database whose transactions are savepoints of the call's own transaction instead: their writes (failure
// counting, lockout) commit with the call, and the call's tenant scope is restored afterwards, because a released
// savepoint keeps the scope the helper set.
import type { AppDeps } from "../../app.ts";
import type { Db } from "../../db/client.ts";
import { setScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";

export function depsInCall(ctx: CallContext): AppDeps {
  const db = {
    async transaction<T>(fn: (tx: CallContext["tx"]) => Promise<T>): Promise<T> {
      try {
        return await ctx.tx.transaction(fn);
      } finally {
        await setScope(ctx.tx, { tenantId: ctx.tenantId });
      }
    },
  } as unknown as Db;
  return { ...ctx.deps, database: { ...ctx.deps.database, db } };
}
