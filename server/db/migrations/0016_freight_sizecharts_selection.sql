CREATE TABLE "meli_freight_rules" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"site" integer NOT NULL,
	"start" numeric(12, 2) NOT NULL,
	"end" numeric(12, 2) NOT NULL,
	"freight" numeric(18, 2) NOT NULL,
	"currency" text NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	CONSTRAINT "meli_freight_rules_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "meli_size_charts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"account_group_id" uuid NOT NULL,
	"chart_id" text NOT NULL,
	"site" integer NOT NULL,
	"domain_id" text NOT NULL,
	"name" text NOT NULL,
	"chart_type" text NOT NULL,
	"gender" text,
	"main_attribute_id" text,
	"rows" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meli_size_charts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "selection_skus" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"sku" text NOT NULL,
	"url" text NOT NULL,
	"site" integer,
	"status" text,
	"seller_id" text,
	"seller_country" text,
	"title" text,
	"permalink" text,
	"image" text,
	"price" numeric(18, 2),
	"original_price" numeric(18, 2),
	"currency_id" text,
	"sold" integer,
	"is_cbt" boolean DEFAULT false NOT NULL,
	"sku_create_date" timestamp with time zone,
	"error" text,
	"last_read_time" timestamp with time zone,
	"next_read_time" timestamp with time zone NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	CONSTRAINT "selection_skus_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "selection_snapshots" (
	"tenant_id" uuid NOT NULL,
	"sku_id" uuid NOT NULL,
	"read_time" timestamp with time zone NOT NULL,
	"price" numeric(18, 2),
	"original_price" numeric(18, 2),
	"sold" integer,
	CONSTRAINT "selection_snapshots_tenant_id_sku_id_read_time_pk" PRIMARY KEY("tenant_id","sku_id","read_time")
);
--> statement-breakpoint
CREATE INDEX "meli_freight_rules_tenant_site_idx" ON "meli_freight_rules" USING btree ("tenant_id","site","start");--> statement-breakpoint
CREATE UNIQUE INDEX "meli_size_charts_chart_key" ON "meli_size_charts" USING btree ("tenant_id","account_group_id","chart_id");--> statement-breakpoint
CREATE INDEX "meli_size_charts_tenant_domain_idx" ON "meli_size_charts" USING btree ("tenant_id","account_group_id","domain_id");--> statement-breakpoint
CREATE UNIQUE INDEX "selection_skus_sku_key" ON "selection_skus" USING btree ("tenant_id","sku");--> statement-breakpoint
CREATE INDEX "selection_skus_tenant_creation_idx" ON "selection_skus" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
-- Freight rules and size charts are the tenant's; the selection library's rows carry the host's tenant id. All get the
-- same row-level security as every tenant table (host-side work reaches the selection library as erp_host).
SELECT erp_secure_tenant_tables();
