-- Issue 31: the host's per-tenant statistics over a period (Hosted GetTenantStatisticsInfo) read day rollups kept by
-- triggers, so a period over 1,000 tenants sums a row per tenant, day and owner (or shop) instead of counting a million
-- products and their listings. They count events, as they happen in the tenant: a product entering the library (any
-- insert: a collection claimed, an import, a copy) on its creation day, and a listing published (its item id set by
-- our publish, or inserted with one by a publish batch; imported listings were published elsewhere) on that day. A
-- product deleted or purged later stays counted: it was collected. ClearTenantInfo clears them with the tenant's data.
CREATE TABLE "tenant_product_days" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"user_id" uuid NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tenant_product_days_tenant_id_day_user_id_pk" PRIMARY KEY("tenant_id","day","user_id")
);--> statement-breakpoint
CREATE TABLE "tenant_listing_days" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"account_id" uuid NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tenant_listing_days_tenant_id_day_account_id_pk" PRIMARY KEY("tenant_id","day","account_id")
);--> statement-breakpoint
-- Every tenant over a period: the days' rows, the tenant and what is summed read from the index alone.
CREATE INDEX "tenant_product_days_day_idx" ON "tenant_product_days" USING btree ("day","tenant_id") INCLUDE ("count");--> statement-breakpoint
CREATE INDEX "tenant_listing_days_day_idx" ON "tenant_listing_days" USING btree ("day","tenant_id") INCLUDE ("account_id","count");--> statement-breakpoint
CREATE OR REPLACE FUNCTION erp_tenant_product_days() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO tenant_product_days AS d (tenant_id, day, user_id, count)
    SELECT tenant_id, (creation_time AT TIME ZONE 'UTC')::date, user_id, count(*) FROM new_rows GROUP BY 1, 2, 3
  ON CONFLICT (tenant_id, day, user_id) DO UPDATE SET count = d.count + EXCLUDED.count;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER products_tenant_days AFTER INSERT ON products REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION erp_tenant_product_days();--> statement-breakpoint
CREATE OR REPLACE FUNCTION erp_tenant_listing_days_insert() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO tenant_listing_days AS d (tenant_id, day, account_id, count)
    SELECT tenant_id, (creation_time AT TIME ZONE 'UTC')::date, account_id, count(*) FROM new_rows
    WHERE item_id IS NOT NULL AND batch_id IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT (tenant_id, day, account_id) DO UPDATE SET count = d.count + EXCLUDED.count;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER listings_tenant_days_insert AFTER INSERT ON listings REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION erp_tenant_listing_days_insert();--> statement-breakpoint
-- A publish sets one listing's item id at a time; the column list and WHEN keep every other update of listings
-- (syncs, batch edits) from firing it.
CREATE OR REPLACE FUNCTION erp_tenant_listing_days_publish() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO tenant_listing_days AS d (tenant_id, day, account_id, count)
    VALUES (NEW.tenant_id, (now() AT TIME ZONE 'UTC')::date, NEW.account_id, 1)
  ON CONFLICT (tenant_id, day, account_id) DO UPDATE SET count = d.count + 1;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER listings_tenant_days_publish AFTER UPDATE OF item_id ON listings
  FOR EACH ROW WHEN (OLD.item_id IS NULL AND NEW.item_id IS NOT NULL) EXECUTE FUNCTION erp_tenant_listing_days_publish();--> statement-breakpoint
INSERT INTO tenant_product_days (tenant_id, day, user_id, count)
  SELECT tenant_id, (creation_time AT TIME ZONE 'UTC')::date, user_id, count(*) FROM products GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO tenant_listing_days (tenant_id, day, account_id, count)
  SELECT tenant_id, (creation_time AT TIME ZONE 'UTC')::date, account_id, count(*) FROM listings
  WHERE item_id IS NOT NULL AND batch_id IS NOT NULL GROUP BY 1, 2, 3;--> statement-breakpoint
SELECT erp_secure_tenant_tables();
