DROP INDEX "users_tenant_creation_idx";--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "sub_account_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "users_tenant_creation_idx" ON "users" USING btree ("tenant_id","creation_time","id");