-- Margin that follows the rate, stored (issue 32). Each listing keeps its margin when priced (its price_content's) and
-- now (the publish formula at today's rates, fees and shop rule for the price it has: listings/margin-sql.ts, the same
-- expression as shared/publish/price.ts sitePrice with atPrice), its share of the buyer's price and its level against
-- the shop's minimum (0 ok, 1 under the minimum, 2 a loss; null: no formula, e.g. no product), and when it was
-- computed. margin_at null marks it to compute again: a new listing, or one whose price, breakdown, product, category,
-- listing type or shop changed (the trigger, which only clears it; the formula runs set-based, not per row). The 利润率
-- filter pages the partial index; the refresh finds the stale rows by theirs.
-- A shop's automatic repricing (auto_reprice, within ± auto_reprice_max_percent a day from the day's first price) and
-- the listing's day of its last automatic change with the price it had that morning; a marketplace call made for a
-- repricing keeps its reason in the listing's log.
ALTER TABLE "listings" ADD COLUMN "margin_priced" bigint;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "margin_now" bigint;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "margin_now_percent" numeric;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "margin_level" smallint;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "margin_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "auto_reprice_day" date;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "auto_reprice_day_price" numeric(18, 2);--> statement-breakpoint
ALTER TABLE "meli_accounts" ADD COLUMN "auto_reprice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "meli_accounts" ADD COLUMN "auto_reprice_max_percent" numeric(5, 2);--> statement-breakpoint
ALTER TABLE "meli_call_logs" ADD COLUMN "reason" text;--> statement-breakpoint
CREATE INDEX "listings_tenant_margin_creation_idx" ON "listings" USING btree ("tenant_id","creation_time","id") WHERE "listings"."margin_level" > 0;--> statement-breakpoint
CREATE INDEX "listings_tenant_margin_stale_idx" ON "listings" USING btree ("tenant_id","id") WHERE "listings"."margin_at" is null;--> statement-breakpoint
CREATE FUNCTION erp_listing_margin_stale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.margin_at := NULL;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER listings_margin_stale BEFORE UPDATE OF price, price_content, product_id, cate_id, listing_type, account_id ON listings
  FOR EACH ROW WHEN (OLD.price IS DISTINCT FROM NEW.price OR OLD.price_content IS DISTINCT FROM NEW.price_content
    OR OLD.product_id IS DISTINCT FROM NEW.product_id OR OLD.cate_id IS DISTINCT FROM NEW.cate_id
    OR OLD.listing_type IS DISTINCT FROM NEW.listing_type OR OLD.account_id IS DISTINCT FROM NEW.account_id)
  EXECUTE FUNCTION erp_listing_margin_stale();
