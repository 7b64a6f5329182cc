DROP INDEX "users_tenant_creation_idx";--> statement-breakpoint
CREATE INDEX "users_tenant_sub_accounts_idx" ON "users" USING btree ("tenant_id") WHERE not "users"."is_main_account" and not "users"."is_deleted";--> statement-breakpoint
CREATE INDEX "users_tenant_creation_idx" ON "users" USING btree ("tenant_id","creation_time","id");