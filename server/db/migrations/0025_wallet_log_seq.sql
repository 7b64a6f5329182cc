-- Issue 29: after 50 concurrent withdrawals the wallet list showed entries with their balance-after out of sequence,
-- though the ledger chain itself was right: entries were listed by creation time, which is their transaction's start,
-- while the chain is the order they took the wallet's row lock. Each entry now carries a sequence number drawn when it
-- is inserted, which the ledger does holding the wallet's row lock (modules/wallet/ledger.ts): within a wallet the
-- numbers rise in the order the balances chain, and the list and the export read that order, so the running balance
-- reads straight down. One sequence serves every wallet (a wallet's numbers have gaps; their order is what counts).
-- The list's default order and its Type filter read their own index ranges.
ALTER TABLE "wallet_logs" ADD COLUMN "seq" bigint;--> statement-breakpoint
-- Entries made before: numbered in the order they were listed (creation time, then id). The ledger's rows are the
-- tenants' (row-level security): the backfill runs as erp_host, whose policy reaches every tenant's rows.
SET ROLE erp_host;--> statement-breakpoint
UPDATE "wallet_logs" w SET "seq" = o.n
FROM (SELECT tenant_id, id, row_number() OVER (ORDER BY creation_time, id) AS n FROM "wallet_logs") o
WHERE w.tenant_id = o.tenant_id AND w.id = o.id;--> statement-breakpoint
RESET ROLE;--> statement-breakpoint
CREATE SEQUENCE "wallet_log_seq" AS bigint OWNED BY "wallet_logs"."seq";--> statement-breakpoint
SELECT setval('wallet_log_seq', coalesce(max("seq"), 0) + 1, false) FROM "wallet_logs";--> statement-breakpoint
GRANT USAGE ON SEQUENCE "wallet_log_seq" TO erp_app, erp_host;--> statement-breakpoint
ALTER TABLE "wallet_logs" ALTER COLUMN "seq" SET DEFAULT nextval('wallet_log_seq');--> statement-breakpoint
ALTER TABLE "wallet_logs" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_logs_tenant_seq_key" ON "wallet_logs" USING btree ("tenant_id","seq");--> statement-breakpoint
DROP INDEX "wallet_logs_tenant_type_creation_idx";--> statement-breakpoint
CREATE INDEX "wallet_logs_tenant_type_seq_idx" ON "wallet_logs" USING btree ("tenant_id","type","seq");
