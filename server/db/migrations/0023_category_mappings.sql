-- Issue 28: category mapping (类目映射). The source category collected with a product (the 1688/Taobao/AliExpress
-- category id and, where the page names it, its path) is kept on the collected item and the product; the Mercado Libre
-- category a seller picks for a product of that source category is remembered per site and suggested first next time.
-- Keyed by (tenant, source platform, source key, site): the source key is the platform's category id, or the path text
-- when the page gives no id.
ALTER TABLE "collections" ADD COLUMN "source_category" jsonb;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "source_category" jsonb;--> statement-breakpoint
CREATE TABLE "category_mappings" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"platform_type" integer NOT NULL,
	"source_key" text NOT NULL,
	"source_path" text,
	"site" integer NOT NULL,
	"cate_id" text NOT NULL,
	"category_name" text NOT NULL,
	"use_count" integer DEFAULT 1 NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modification_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "category_mappings_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "category_mappings_source_key" ON "category_mappings" USING btree ("tenant_id","platform_type","source_key","site");--> statement-breakpoint
CREATE INDEX "category_mappings_tenant_time_idx" ON "category_mappings" USING btree ("tenant_id","last_modification_time","id");--> statement-breakpoint
SELECT erp_secure_tenant_tables();
