-- The source behind every order (issue 32): an order line marked bought keeps what it cost (integer minor units of its
-- currency, CNY unless said), the purchase order's number, when and by whom. On order_items itself, so the purchase
-- lives and goes with its line (ClearTenantInfo, moving a shop between tenants) and a re-read order keeps it: the
-- store's upsert names the columns it sets. The purchase list reads the lines of orders chosen on the orders' own
-- indexes (status, time, group) and order_items by its primary key: no index of its own.
ALTER TABLE "order_items" ADD COLUMN "purchase_cost" bigint;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "purchase_currency" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "purchase_order_no" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "purchase_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "purchaser_id" uuid;
