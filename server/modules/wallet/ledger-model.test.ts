// RELIABILITY.md §4 as a property (fast-check): 1,000 generated sequences (200 on PGlite) of ledger movements —
// credits and debits of every type, a movement whose caller's transaction then fails, bursts of debits at once — each
// checked against a pure model: the balance moves by exactly the movements that succeeded, a debit is refused only
// when the balance is short, a rolled-back movement leaves nothing, and after every sequence the wallet's balance
// equals the sum of its entries (credits − debits) with no entry's balance below zero. Straight on postLedgerEntry (the
// one way money moves), so a thousand sequences take seconds; the HTTP paths on top of it are wallet.test.ts's.
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Tx } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import { startTestServer, type TestServer } from "../../testing/harness.ts";
import { sizedForDatabase } from "../../testing/templates.ts";
import { WalletLogType } from "#shared/contract/enums.ts";
import { AppError } from "../../http/errors.ts";
import { postLedgerEntry } from "./ledger.ts";

let s: TestServer;
let tenantId: string;

beforeAll(async () => {
  s = await startTestServer();
  tenantId = (await s.createTenant()).tenantId;
});
afterAll(() => s?.close());

const CREDITS = [WalletLogType.TopUp, WalletLogType.WithdrawRefund, WalletLogType.HostAdjust, WalletLogType.Commission];
const DEBITS = [WalletLogType.Purchase, WalletLogType.Withdraw, WalletLogType.HostAdjust];

type Op =
  | { kind: "credit"; type: WalletLogType; fen: number }
  | { kind: "debit"; type: WalletLogType; fen: number }
  | { kind: "rolledBack"; fen: number }
  | { kind: "burst"; fens: number[] };

const fen = fc.integer({ min: 1, max: 50_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("credit" as const), type: fc.constantFrom(...CREDITS), fen }),
  fc.record({ kind: fc.constant("debit" as const), type: fc.constantFrom(...DEBITS), fen }),
  fc.record({ kind: fc.constant("rolledBack" as const), fen }),
  fc.record({ kind: fc.constant("burst" as const), fens: fc.array(fen, { minLength: 2, maxLength: 4 }) }),
);

const inTenant = <T>(fn: (tx: Tx) => Promise<T>) => inScope(s.database.db, { tenantId }, fn);
const move = (type: WalletLogType, amountFen: number) =>
  inTenant((tx) => postLedgerEntry(tx, { tenantId, type, amountFen, userId: null, remark: "model" }));

/** A debit's outcome: the balance after it, or null when refused as short (InsufficientBalance); anything else throws. */
async function tryDebit(type: WalletLogType, amount: number): Promise<number | null> {
  try {
    return (await move(type, -amount)).balanceAfterFen;
  } catch (err) {
    if (err instanceof AppError && err.code === "InsufficientBalance") return null;
    throw err;
  }
}

async function wallet() {
  return inTenant(async (tx) => {
    const [r] = rowsOf<{ balance: string; total: string | null; lowest: string | null; entries: string }>(
      await tx.execute(sql`select (select balance_fen from tenants where id = ${tenantId}) as balance,
        sum(amount_fen) as total, min(balance_after_fen) as lowest, count(*) as entries
        from wallet_logs where tenant_id = ${tenantId}`),
    );
    return { balance: Number(r.balance), total: Number(r.total ?? 0), lowest: Number(r.lowest ?? 0), entries: Number(r.entries) };
  });
}

describe("§4 ledger model (fast-check)", () => {
  // 1,000 on PostgreSQL, where the bursts run at once; 200 on PGlite.
  const runs = sizedForDatabase(1000, 200);
  it(`${runs} generated sequences agree with the model; balance = sum of entries = credits − debits, never below zero`, async () => {
    const counts: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 5 }), async (ops) => {
        const start = await wallet();
        let model = start.balance;
        let entries = start.entries;
        for (const o of ops) {
          counts[o.kind] = (counts[o.kind] ?? 0) + 1;
          if (o.kind === "credit") {
            expect((await move(o.type, o.fen)).balanceAfterFen).toBe(model + o.fen);
            model += o.fen;
            entries++;
          } else if (o.kind === "debit") {
            const after = await tryDebit(o.type, o.fen);
            if (model >= o.fen) {
              expect(after).toBe(model - o.fen);
              model -= o.fen;
              entries++;
            } else {
              expect(after).toBeNull();
            }
          } else if (o.kind === "rolledBack") {
            // The caller's transaction fails after the movement: the movement goes with it.
            await expect(
              inTenant(async (tx) => {
                await postLedgerEntry(tx, { tenantId, type: WalletLogType.HostAdjust, amountFen: o.fen, userId: null, remark: "x" });
                throw new Error("caller failed");
              }),
            ).rejects.toThrow("caller failed");
          } else {
            // Debits at once (truly concurrent on PostgreSQL): the balance falls by exactly those that succeeded, and
            // each refused one was larger than what was left (the balance only falls during a burst).
            const results = await Promise.all(o.fens.map((f) => tryDebit(WalletLogType.Purchase, f)));
            const taken = o.fens.filter((_, i) => results[i] !== null);
            model -= taken.reduce((a, b) => a + b, 0);
            entries += taken.length;
            expect(model).toBeGreaterThanOrEqual(0);
            for (const [i, f] of o.fens.entries()) if (results[i] === null) expect(f).toBeGreaterThan(model);
          }
        }
        const end = await wallet();
        expect(end.balance).toBe(model);
        expect(end.total).toBe(end.balance);
        expect(end.lowest).toBeGreaterThanOrEqual(0);
        expect(end.entries).toBe(entries);
      }),
      { numRuns: runs, seed: Number(process.env.WALLET_SEED ?? 20261127) },
    );
    console.log(`[wallet §4 fast-check] ${runs} sequences: ${JSON.stringify(counts)}`);
    expect(Object.keys(counts).sort()).toEqual(["burst", "credit", "debit", "rolledBack"]);
  }, 600_000);
});
