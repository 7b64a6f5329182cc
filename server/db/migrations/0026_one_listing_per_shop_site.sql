-- Issue 29: ten publishes of one product to one shop and site (a double click, two tabs, each with its own
-- Idempotency-Key) made ten live items. A product now has at most one listing waiting (1), being published (2) or
-- live (3 active, 4 paused, 6 under review) per shop (account group) and site, unless the seller asked for another copy
-- (Publish isAllowDuplicate: duplicate_allowed). The partial unique index holds it under concurrency: Publish inserts
-- its pending listings with ON CONFLICT DO NOTHING and skips those another publish holds. Imported listings (no batch)
-- record items that already exist on Mercado Libre and are not held to it.
ALTER TABLE "listings" ADD COLUMN "duplicate_allowed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Copies made before the rule: all but the oldest of each product, shop and site count as asked-for copies.
UPDATE "listings" l SET "duplicate_allowed" = true
FROM (
  SELECT tenant_id, id, row_number() OVER (PARTITION BY tenant_id, product_id, account_group_id, site ORDER BY creation_time, id) AS n
  FROM "listings"
  WHERE batch_id IS NOT NULL AND product_id IS NOT NULL AND status IN (1, 2, 3, 4, 6)
) d
WHERE d.n > 1 AND l.tenant_id = d.tenant_id AND l.id = d.id;--> statement-breakpoint
CREATE UNIQUE INDEX "listings_one_listed_per_shop_site_idx" ON "listings" USING btree ("tenant_id","product_id","account_group_id","site") WHERE "listings"."batch_id" is not null and "listings"."product_id" is not null and not "listings"."duplicate_allowed" and "listings"."status" in (1, 2, 3, 4, 6);
