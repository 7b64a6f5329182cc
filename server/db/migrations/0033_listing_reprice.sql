-- Margin that follows the rate (issue 32). A listing's cost basis when priced is its price_content (shared/publish
-- price.ts PriceBreakdown: the source price and currency, the rate used, cost, freight, fees, the shop's markup); the
-- 重新定价 batch (Reprice) keeps here the price and breakdown it replaced, the batch that replaced them and why, so that
-- UndoReprice gives them back. The undo reads a batch's listings by the partial index.
ALTER TABLE "listings" ADD COLUMN "previous_price" numeric(18, 2);--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "previous_price_content" jsonb;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "reprice_task_id" uuid;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "reprice_reason" text;--> statement-breakpoint
CREATE INDEX "listings_tenant_reprice_idx" ON "listings" USING btree ("tenant_id","reprice_task_id") WHERE "listings"."reprice_task_id" is not null;
