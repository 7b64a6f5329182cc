// The one way money moves (issue 19 Ledger): postLedgerEntry locks the tenant's wallet row (the tenants row, whose
// balance_fen is the balance), refuses a balance that would go negative, appends the entry with the balance after it
// and updates the balance (and tenants.balance, its yuan copy for the session) — all in the caller's transaction, so the movement and what caused it (an approved
// top-up, a package bought) commit or roll back together. Concurrent movements on one wallet queue on its row lock;
// the wallet's balance always equals the sum of its entries' amounts.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { fenToYuan, MAX_MONEY_YUAN } from "#shared/contract/wallet.ts";
import { WalletLogType } from "#shared/contract/enums.ts";

export type LedgerEntryInput = {
  tenantId: string;
  /** WalletLogType. */
  type: WalletLogType;
  /** Signed integer fen: + credit, - debit (not 0). */
  amountFen: number | bigint;
  /** Who moved it (null: the system). */
  userId: string | null;
  remark: string | null;
  /** The charge record, withdrawal or order it belongs to. */
  refId?: string | null;
  /** A commission's paying tenant. */
  inviteTenantId?: string | null;
};

export type LedgerEntry = { id: string; balanceAfterFen: number };

/**
 * The recommending agency's commission on a purchase paid from a wallet: prepared before the buyer's debit (it locks
 * both wallets in one order), credited after it in the same transaction; answers the commission's fen (0: none). The
 * agency module provides it (agency/commission.ts); deps.ts hands it to the purchases (wallet Payment, OrderSubAcc).
 */
export type PrepareCommission = (tx: Tx, buyerTenantId: string) => Promise<PendingCommission>;
export type PendingCommission = { credit(purchase: { purchaseFen: number; purchaseEntryId: string; what: string }): Promise<number> };

/** The balance is short: 403 with the balance and the amount, in Chinese; nothing was written. */
const insufficientBalance = (balanceFen: number, debitFen: number) =>
  new AppError(
    403,
    `余额不足：当前余额 ¥${fenToYuan(balanceFen).toFixed(2)}，需要 ¥${fenToYuan(debitFen).toFixed(2)}，请先充值`,
    "InsufficientBalance",
  );

const MAX_FEN = MAX_MONEY_YUAN * 100;
/** A balance can hold at most this (far above any real one; keeps every sum an exact integer in a double). */
const MAX_BALANCE_FEN = 1_000_000_000_000;

function amountOf(v: number | bigint): number {
  const n = typeof v === "bigint" ? Number(v) : v;
  if (!Number.isSafeInteger(n) || n === 0 || Math.abs(n) > MAX_FEN) {
    throw new Error(`postLedgerEntry: amountFen must be a non-zero integer within ±${MAX_FEN}, got ${String(v)}`);
  }
  return n;
}

/** Locks the tenant's wallet row (its tenants row) and answers its balance in fen; 404 for an unknown tenant. */
export async function lockWallet(tx: Tx, tenantId: string): Promise<number> {
  const [row] = rowsOf<{ balance: string | number }>(
    await tx.execute(sql`select balance_fen as balance from tenants where id = ${tenantId} for update`),
  );
  if (!row) throw notFound("公司未找到");
  return Number(row.balance);
}

/** The tenant's balance in fen without locking. */
export async function walletBalanceFen(tx: Tx, tenantId: string): Promise<number> {
  const [row] = rowsOf<{ balance: string | number }>(
    await tx.execute(sql`select balance_fen as balance from tenants where id = ${tenantId}`),
  );
  return row ? Number(row.balance) : 0;
}

/**
 * Moves money in the caller's transaction: a debit beyond the balance is refused (insufficientBalance) and writes
 * nothing. Answers the entry's id and the balance after it.
 *
 * One statement locks the wallet row, appends the entry and updates the balance, so the row lock is held for one round
 * trip fewer than three: on a hot wallet (every debit queues on its row) that is the throughput. The entry's seq (its
 * column's default, drawn as the row is inserted) is drawn holding the lock, so a wallet's entries number in the order
 * their balances chain, whichever transaction started first; the list shows that order.
 */
export async function postLedgerEntry(tx: Tx, input: LedgerEntryInput): Promise<LedgerEntry> {
  const amount = amountOf(input.amountFen);
  if (!Object.values(WalletLogType).includes(input.type)) throw new Error(`postLedgerEntry: unknown type ${input.type}`);
  const id = randomUUID();
  const [row] = rowsOf<{ balance: string | number; after: string | number | null }>(
    await tx.execute(sql`
      with wallet as (select balance_fen as b from tenants where id = ${input.tenantId} for update),
      entry as (
        insert into wallet_logs (tenant_id, id, type, amount_fen, balance_after_fen, user_id, remark, ref_id, invite_tenant_id)
        select ${input.tenantId}, ${id}, ${input.type}, ${amount}, wallet.b + ${amount}, ${input.userId}, ${input.remark},
               ${input.refId ?? null}, ${input.inviteTenantId ?? null}
        from wallet where wallet.b + ${amount} between 0 and ${MAX_BALANCE_FEN}
        returning balance_after_fen as after),
      kept as (
        update tenants set balance_fen = entry.after, balance = entry.after::numeric / 100
        from entry where tenants.id = ${input.tenantId} returning 1)
      select wallet.b as balance, (select after from entry) as after from wallet`),
  );
  if (!row) throw notFound("公司未找到");
  if (row.after === null) {
    const balance = Number(row.balance);
    if (balance + amount < 0) throw insufficientBalance(balance, -amount);
    throw new AppError(403, "余额超过上限，无法入账", "BalanceLimit");
  }
  return { id, balanceAfterFen: Number(row.after) };
}
