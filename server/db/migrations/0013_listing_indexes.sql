-- The listing centre's list (GetMeliStatsByPage) and tabs (GetMeliStatGroupInfo) at a million listings in a tenant:
-- every equality filter leads an index with the default order (creation time, id) after it, so a filtered page and a
-- capped count are one index range; each sortable column has its own (tenant, column, id) index (a plain asc/desc
-- order, either direction). The shop columns a caller's visibility checks (its kind of shop group, a sub-account's
-- shop accounts) and the tabs' other columns (status, site) are INCLUDEd in the indexes the capped counts walk, so a
-- tab's count is an index-only scan. Stock and sold/view counts are integers (LEAKPROOF comparisons), so their
-- ranges use these indexes under row-level security; price ranges do when 0005 could mark numeric comparisons LEAKPROOF.
-- Writes to listings come one listing at a time at the marketplace's rate, so the extra index upkeep is small.
CREATE INDEX "listings_tenant_status_creation_idx" ON "listings" USING btree ("tenant_id","status","creation_time","id") INCLUDE ("account_group_id","account_id","site");--> statement-breakpoint
CREATE INDEX "listings_tenant_site_creation_idx" ON "listings" USING btree ("tenant_id","site","creation_time","id") INCLUDE ("account_group_id","account_id","status");--> statement-breakpoint
CREATE INDEX "listings_tenant_group_creation_idx" ON "listings" USING btree ("tenant_id","account_group_id","creation_time","id") INCLUDE ("account_id","status","site");--> statement-breakpoint
CREATE INDEX "listings_tenant_account_creation_idx" ON "listings" USING btree ("tenant_id","account_id","creation_time","id") INCLUDE ("account_group_id","status","site");--> statement-breakpoint
CREATE INDEX "listings_tenant_user_creation_idx" ON "listings" USING btree ("tenant_id","user_id","creation_time","id") INCLUDE ("account_group_id","account_id");--> statement-breakpoint
CREATE INDEX "listings_tenant_label_creation_idx" ON "listings" USING btree ("tenant_id","product_label_id","creation_time","id") WHERE "product_label_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "listings_tenant_cbt_idx" ON "listings" USING btree ("tenant_id","cbt_id","status") WHERE "cbt_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "listings_tenant_cate_idx" ON "listings" USING btree ("tenant_id","cate_id");--> statement-breakpoint
CREATE INDEX "listings_tenant_modification_idx" ON "listings" USING btree ("tenant_id","last_modification_time","id");--> statement-breakpoint
CREATE INDEX "listings_tenant_price_idx" ON "listings" USING btree ("tenant_id","price","id");--> statement-breakpoint
CREATE INDEX "listings_tenant_stock_idx" ON "listings" USING btree ("tenant_id","stock","id");--> statement-breakpoint
CREATE INDEX "listings_tenant_orders_idx" ON "listings" USING btree ("tenant_id","orders","id");--> statement-breakpoint
CREATE INDEX "listings_tenant_views_idx" ON "listings" USING btree ("tenant_id","views","id");
--> statement-breakpoint
-- Listings with a warning are few: a partial index in the list's default order (the warning filter's exact condition).
CREATE INDEX "listings_tenant_warning_creation_idx" ON "listings" USING btree ("tenant_id","creation_time","id") WHERE "warning_message" IS NOT NULL AND "warning_message" <> '';--> statement-breakpoint
-- The title filter (ILIKE, case-insensitive contains) by trigram, as products' title search (0004). Like LIKE in 0005,
-- ILIKE's function must be LEAKPROOF for the index to serve it under the tenant policy; it only compares its two
-- texts, so marking it reveals nothing the policy hides. Only a superuser may: elsewhere the filter stays a scan.
CREATE INDEX "listings_title_trgm_idx" ON "listings" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION texticlike(text, text) LEAKPROOF;
  ELSE
    RAISE NOTICE 'not a superuser: ILIKE stays non-LEAKPROOF; the listing title filter will not use its index';
  END IF;
END
$$;
