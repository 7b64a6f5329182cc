CREATE TABLE "gtin_codes" (
	"tenant_id" uuid NOT NULL,
	"code" text NOT NULL,
	"listing_id" uuid,
	"used_time" timestamp with time zone,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	CONSTRAINT "gtin_codes_tenant_id_code_pk" PRIMARY KEY("tenant_id","code")
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"batch_id" uuid,
	"account_group_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"product_label_id" uuid,
	"site" integer NOT NULL,
	"cbt_id" text,
	"item_id" text,
	"cate_id" text,
	"cate_name" text,
	"title" text,
	"status" integer NOT NULL,
	"price" numeric(18, 2),
	"currency" text,
	"price_content" jsonb,
	"reason" text,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"warning_message" text,
	"permalink" text,
	"listing_type" text,
	"weight" numeric(12, 2),
	"size" text,
	"image" text,
	"stock" integer,
	"variant_infos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"health" numeric(5, 2),
	"orders" integer DEFAULT 0 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sync_time" timestamp with time zone,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	CONSTRAINT "listings_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "meli_call_logs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"account_group_id" uuid,
	"listing_id" uuid,
	"batch_id" uuid,
	"site" integer,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer,
	"request" text,
	"response" text,
	"duration_ms" integer,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	CONSTRAINT "meli_call_logs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "publish_batches" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"account_group_id" uuid NOT NULL,
	"sites" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" integer NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"success" integer DEFAULT 0 NOT NULL,
	"fail" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"request" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "publish_batches_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "gtin_codes_tenant_unused_idx" ON "gtin_codes" USING btree ("tenant_id","listing_id","creation_time");--> statement-breakpoint
CREATE INDEX "listings_tenant_batch_idx" ON "listings" USING btree ("tenant_id","batch_id");--> statement-breakpoint
CREATE INDEX "listings_tenant_creation_idx" ON "listings" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "listings_tenant_product_idx" ON "listings" USING btree ("tenant_id","product_id");--> statement-breakpoint
CREATE INDEX "listings_tenant_item_idx" ON "listings" USING btree ("tenant_id","item_id");--> statement-breakpoint
CREATE INDEX "meli_call_logs_tenant_creation_idx" ON "meli_call_logs" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "meli_call_logs_tenant_group_idx" ON "meli_call_logs" USING btree ("tenant_id","account_group_id","creation_time");--> statement-breakpoint
CREATE INDEX "publish_batches_tenant_creation_idx" ON "publish_batches" USING btree ("tenant_id","creation_time");--> statement-breakpoint
-- Publishing tables are tenant-owned: the same row-level security policies as every tenant table.
SELECT erp_secure_tenant_tables();
