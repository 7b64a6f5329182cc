CREATE TABLE "charge_records" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid,
	"money_fen" bigint NOT NULL,
	"pay_type" integer NOT NULL,
	"pic" text NOT NULL,
	"remark" text,
	"status" integer NOT NULL,
	"reason" text,
	"audit_time" timestamp with time zone,
	"auditor_id" uuid,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charge_records_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "charge_records_money_positive" CHECK ("charge_records"."money_fen" > 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_logs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"type" integer NOT NULL,
	"amount_fen" bigint NOT NULL,
	"balance_after_fen" bigint NOT NULL,
	"user_id" uuid,
	"remark" text,
	"ref_id" uuid,
	"invite_tenant_id" uuid,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_logs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "wallet_logs_balance_after_not_negative" CHECK ("wallet_logs"."balance_after_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid,
	"money_fen" bigint NOT NULL,
	"alipay_account" text NOT NULL,
	"pic" text,
	"remark" text,
	"source" integer NOT NULL,
	"status" integer NOT NULL,
	"reason" text,
	"audit_time" timestamp with time zone,
	"auditor_id" uuid,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "withdrawals_money_positive" CHECK ("withdrawals"."money_fen" > 0)
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "balance_fen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "charge_records_tenant_creation_idx" ON "charge_records" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "charge_records_status_creation_idx" ON "charge_records" USING btree ("status","creation_time");--> statement-breakpoint
CREATE INDEX "charge_records_id_idx" ON "charge_records" USING btree ("id");--> statement-breakpoint
CREATE INDEX "wallet_logs_tenant_creation_idx" ON "wallet_logs" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "wallet_logs_tenant_type_creation_idx" ON "wallet_logs" USING btree ("tenant_id","type","creation_time");--> statement-breakpoint
CREATE INDEX "withdrawals_tenant_creation_idx" ON "withdrawals" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "withdrawals_status_creation_idx" ON "withdrawals" USING btree ("status","creation_time");--> statement-breakpoint
CREATE INDEX "withdrawals_id_idx" ON "withdrawals" USING btree ("id");--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_balance_fen_not_negative" CHECK ("tenants"."balance_fen" >= 0);--> statement-breakpoint
-- A balance held before the ledger existed becomes the wallet's opening entry (a host adjustment), so every balance is
-- the sum of its entries from the start; tenants.balance stays the yuan copy of tenants.balance_fen.
UPDATE "tenants" SET "balance_fen" = round("balance" * 100)::bigint WHERE "balance" > 0;--> statement-breakpoint
UPDATE "tenants" SET "balance" = 0 WHERE "balance" < 0;--> statement-breakpoint
INSERT INTO "wallet_logs" ("tenant_id", "id", "type", "amount_fen", "balance_after_fen", "remark")
SELECT "id", gen_random_uuid(), 5, "balance_fen", "balance_fen", '期初余额' FROM "tenants" WHERE "balance_fen" > 0;--> statement-breakpoint
-- The ledger, top-ups and withdrawals are the tenant's: the row-level security of every tenant table (host calls reach
-- every tenant's rows as erp_host).
SELECT erp_secure_tenant_tables();
