-- Orders (issue 18): one row per Mercado Libre order in the tenant, its lines in order_items. GetOrders at a million
-- orders in a tenant: every equality filter leads an index with the default order (order time, id) after it, so a
-- filtered page and a capped count are one index range; the columns the caller's visibility (its shop group, a
-- sub-account's shop accounts) and the tabs (status, site) read are INCLUDEd, so a tab's capped count is index-only.
CREATE TABLE "order_items" (
	"tenant_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"item_id" text NOT NULL,
	"variation_id" text,
	"title" text NOT NULL,
	"thumb" text,
	"link" text,
	"quantity" integer NOT NULL,
	"unit_price" numeric(18, 2) NOT NULL,
	"sale_fee" numeric(18, 2) NOT NULL,
	"sku" text,
	"vkes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"listing_id" uuid,
	"product_id" uuid,
	CONSTRAINT "order_items_tenant_id_order_id_line_pk" PRIMARY KEY("tenant_id","order_id","line")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"meli_order_id" text NOT NULL,
	"pack_id" text,
	"account_group_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"site" integer NOT NULL,
	"is_cbt" boolean DEFAULT false NOT NULL,
	"currency" text NOT NULL,
	"status" integer NOT NULL,
	"meli_status" text NOT NULL,
	"shipment_id" text,
	"shipment_status" text,
	"shipment_substatus" text,
	"buyer_id" text,
	"buyer_nickname" text,
	"total_amount" numeric(18, 2) NOT NULL,
	"sale_fee" numeric(18, 2) NOT NULL,
	"freight_fee" numeric(18, 2) NOT NULL,
	"cost" numeric(18, 2) NOT NULL,
	"profit" numeric(18, 2) NOT NULL,
	"profit_detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"logistics_name" text,
	"logistics_number" text,
	"thumb" text,
	"address" jsonb,
	"order_time" timestamp with time zone NOT NULL,
	"delivery_time" timestamp with time zone,
	"signing_time" timestamp with time zone,
	"estimated_delivery_time" timestamp with time zone,
	"must_send_time" timestamp with time zone,
	"meli_updated" timestamp with time zone,
	"sync_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	CONSTRAINT "orders_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "order_items_tenant_product_idx" ON "order_items" USING btree ("tenant_id","product_id");--> statement-breakpoint
CREATE INDEX "order_items_tenant_item_idx" ON "order_items" USING btree ("tenant_id","item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_tenant_meli_order_key" ON "orders" USING btree ("tenant_id","meli_order_id");--> statement-breakpoint
CREATE INDEX "orders_tenant_time_idx" ON "orders" USING btree ("tenant_id","order_time","id") INCLUDE ("account_group_id","account_id","status","site");--> statement-breakpoint
CREATE INDEX "orders_tenant_status_time_idx" ON "orders" USING btree ("tenant_id","status","order_time","id") INCLUDE ("account_group_id","account_id","site");--> statement-breakpoint
CREATE INDEX "orders_tenant_site_time_idx" ON "orders" USING btree ("tenant_id","site","order_time","id") INCLUDE ("account_group_id","account_id","status");--> statement-breakpoint
CREATE INDEX "orders_tenant_group_time_idx" ON "orders" USING btree ("tenant_id","account_group_id","order_time","id") INCLUDE ("account_id","status","site");--> statement-breakpoint
CREATE INDEX "orders_tenant_account_time_idx" ON "orders" USING btree ("tenant_id","account_id","order_time","id") INCLUDE ("account_group_id","status","site");--> statement-breakpoint
CREATE INDEX "orders_tenant_user_time_idx" ON "orders" USING btree ("tenant_id","user_id","order_time","id") INCLUDE ("account_group_id","account_id","status","site");--> statement-breakpoint
CREATE INDEX "orders_tenant_pack_idx" ON "orders" USING btree ("tenant_id","pack_id") WHERE "orders"."pack_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_tenant_must_send_idx" ON "orders" USING btree ("tenant_id","must_send_time","id");--> statement-breakpoint
CREATE INDEX "orders_tenant_modification_idx" ON "orders" USING btree ("tenant_id","last_modification_time","id");--> statement-breakpoint
-- Tenant-owned: the same row-level security policies as every tenant table.
SELECT erp_secure_tenant_tables();
