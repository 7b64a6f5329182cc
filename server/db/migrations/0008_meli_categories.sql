CREATE TABLE "meli_categories" (
	"site" integer NOT NULL,
	"cate_id" text NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"level" integer NOT NULL,
	"name" text NOT NULL,
	"zh" text,
	"p_id" text,
	"is_leaf" boolean NOT NULL,
	"full_zh" text,
	"full_name" text NOT NULL,
	"alias" text,
	"path_name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"classic_fee" numeric(6, 2),
	"premium_fee" numeric(6, 2),
	"enable" boolean DEFAULT true NOT NULL,
	"meli_status" text DEFAULT 'enabled' NOT NULL,
	"listing_allowed" boolean DEFAULT false NOT NULL,
	"variant_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"domain" text,
	"max_title_length" integer,
	"max_pictures" integer,
	"minimum_price" numeric(18, 2),
	"currency" text,
	"sync_time" timestamp with time zone DEFAULT now() NOT NULL,
	"fee_sync_time" timestamp with time zone,
	"attr_sync_time" timestamp with time zone,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modification_time" timestamp with time zone,
	CONSTRAINT "meli_categories_site_cate_id_pk" PRIMARY KEY("site","cate_id")
);
--> statement-breakpoint
CREATE TABLE "meli_category_attributes" (
	"site" integer NOT NULL,
	"cate_id" text NOT NULL,
	"attributes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attribute_count" integer DEFAULT 0 NOT NULL,
	"required_count" integer DEFAULT 0 NOT NULL,
	"hash" text NOT NULL,
	"sync_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meli_category_attributes_site_cate_id_pk" PRIMARY KEY("site","cate_id")
);
--> statement-breakpoint
CREATE TABLE "meli_category_sites" (
	"site" integer PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"tree" text NOT NULL,
	"category_count" integer DEFAULT 0 NOT NULL,
	"leaf_count" integer DEFAULT 0 NOT NULL,
	"node_count" integer DEFAULT 0 NOT NULL,
	"sync_time" timestamp with time zone,
	"fee_sync_time" timestamp with time zone,
	"attr_sync_time" timestamp with time zone,
	"last_modification_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meli_gender_mappings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site" integer NOT NULL,
	"domain_id" text NOT NULL,
	"gender_attr_id" text NOT NULL,
	"gender_attr_name" text NOT NULL,
	"alias" text,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "meli_categories_id_key" ON "meli_categories" USING btree ("id");--> statement-breakpoint
CREATE INDEX "meli_categories_parent_idx" ON "meli_categories" USING btree ("site","p_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "meli_gender_mappings_domain_key" ON "meli_gender_mappings" USING btree ("site","domain_id");--> statement-breakpoint
-- Categories are platform data without tenant_id. The grants below come from erp_secure_tenant_tables() (every table);
-- these policies make them read-only for the tenant role erp_app, so a tenant's transaction can never change them,
-- while host-side work (erp_host: the sync job and the host's calls) reads and writes everything.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['meli_categories', 'meli_category_attributes', 'meli_category_sites', 'meli_gender_mappings'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY read_all ON %I FOR SELECT TO erp_app USING (true)', t);
    EXECUTE format('CREATE POLICY host_all ON %I TO erp_host USING (true) WITH CHECK (true)', t);
  END LOOP;
END $$;
--> statement-breakpoint
SELECT erp_secure_tenant_tables();
