ALTER TABLE "tenants" ADD COLUMN "recommend_tenant_id" uuid;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "recommend_type" integer;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "recommend_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "agency_remark" text;--> statement-breakpoint
CREATE INDEX "tenants_recommend_tenant_idx" ON "tenants" USING btree ("recommend_tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_logs_commission_ref_key" ON "wallet_logs" USING btree ("tenant_id","ref_id") WHERE "wallet_logs"."type" = 6;--> statement-breakpoint
-- No new table: the recommendation lives on the tenants row (platform data, outside the tenant policy) and the
-- commission is a wallet_logs entry, already under row-level security. Run again so nothing is left unsecured.
SELECT erp_secure_tenant_tables();
