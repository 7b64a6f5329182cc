-- The title filter searches every title by trigram (pg_trgm ships with PostgreSQL and with PGlite).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "product_counts" (
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_counts_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "product_edit_backups" (
	"tenant_id" uuid NOT NULL,
	"edit_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"before" jsonb NOT NULL,
	CONSTRAINT "product_edit_backups_tenant_id_edit_id_product_id_pk" PRIMARY KEY("tenant_id","edit_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "product_edits" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"input" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"undone_time" timestamp with time zone,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	CONSTRAINT "product_edits_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "product_label_groups" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	CONSTRAINT "product_label_groups_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "product_labels" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"group_id" uuid,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	CONSTRAINT "product_labels_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
DROP INDEX "products_tenant_creation_idx";--> statement-breakpoint
DROP INDEX "products_tenant_user_creation_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sku" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "size" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "stock" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "brand" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "video_url" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "profit" numeric(8, 2);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "site" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cate_id" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cate_info" jsonb;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "category_name" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "label_id" uuid;--> statement-breakpoint
CREATE INDEX "product_edits_user_idx" ON "product_edits" USING btree ("tenant_id","user_id","creation_time");--> statement-breakpoint
CREATE UNIQUE INDEX "product_label_groups_name_key" ON "product_label_groups" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "product_labels_name_key" ON "product_labels" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "products_live_creation_idx" ON "products" USING btree ("tenant_id","creation_time","id") WHERE "products"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "products_live_user_creation_idx" ON "products" USING btree ("tenant_id","user_id","creation_time","id") WHERE "products"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "products_live_status_creation_idx" ON "products" USING btree ("tenant_id","status","creation_time","id") WHERE "products"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "products_live_label_creation_idx" ON "products" USING btree ("tenant_id","label_id","creation_time","id") WHERE "products"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "products_live_platform_creation_idx" ON "products" USING btree ("tenant_id","platform_type","creation_time","id") WHERE "products"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "products_live_price_idx" ON "products" USING btree ("tenant_id","price") WHERE "products"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "products_live_weight_idx" ON "products" USING btree ("tenant_id","weight") WHERE "products"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "products_live_sku_idx" ON "products" USING btree ("tenant_id","sku") WHERE "products"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "products_live_cate_idx" ON "products" USING btree ("tenant_id","site","cate_id") WHERE "products"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "products_live_search_trgm_idx" ON "products" USING gin ("search_text" gin_trgm_ops) WHERE "products"."is_deleted" = false;--> statement-breakpoint
CREATE INDEX "products_deleted_idx" ON "products" USING btree ("tenant_id","deletion_time") WHERE "products"."is_deleted" = true;--> statement-breakpoint
-- title_text (the display title: the first non-empty of zh, zh-cn, en, es, pt, then any language) and search_text
-- (every title, lower-cased) follow `title` on every write, whoever writes it.
CREATE OR REPLACE FUNCTION erp_product_titles() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF jsonb_typeof(NEW.title) IS DISTINCT FROM 'object' THEN
    NEW.title_text := '';
    NEW.search_text := '';
    RETURN NEW;
  END IF;
  NEW.title_text := coalesce((
    SELECT btrim(e.value) FROM jsonb_each_text(NEW.title) e
    WHERE btrim(e.value) <> ''
    ORDER BY array_position(ARRAY['zh', 'zh-cn', 'en', 'es', 'pt'], lower(e.key)) NULLS LAST, e.key
    LIMIT 1), '');
  NEW.search_text := coalesce((SELECT lower(string_agg(e.value, E'\n' ORDER BY e.key)) FROM jsonb_each_text(NEW.title) e), '');
  RETURN NEW;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER products_titles BEFORE INSERT OR UPDATE OF title ON products FOR EACH ROW EXECUTE FUNCTION erp_product_titles();--> statement-breakpoint
UPDATE products SET title = title;--> statement-breakpoint
-- product_counts follows every statement on products: the net change of live rows per owner, one upsert per owner
-- whose count moved (a price edit of 100,000 rows moves none).
CREATE OR REPLACE FUNCTION erp_product_counts() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO product_counts AS c (tenant_id, user_id, count)
      SELECT tenant_id, user_id, count(*) FROM new_rows WHERE NOT is_deleted GROUP BY tenant_id, user_id
    ON CONFLICT (tenant_id, user_id) DO UPDATE SET count = c.count + EXCLUDED.count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO product_counts AS c (tenant_id, user_id, count)
      SELECT tenant_id, user_id, -count(*) FROM old_rows WHERE NOT is_deleted GROUP BY tenant_id, user_id
    ON CONFLICT (tenant_id, user_id) DO UPDATE SET count = c.count + EXCLUDED.count;
  ELSE
    INSERT INTO product_counts AS c (tenant_id, user_id, count)
      SELECT tenant_id, user_id, sum(d) FROM (
        SELECT tenant_id, user_id, -1 AS d FROM old_rows WHERE NOT is_deleted
        UNION ALL
        SELECT tenant_id, user_id, 1 AS d FROM new_rows WHERE NOT is_deleted) x
      GROUP BY tenant_id, user_id HAVING sum(d) <> 0
    ON CONFLICT (tenant_id, user_id) DO UPDATE SET count = c.count + EXCLUDED.count;
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
INSERT INTO product_counts (tenant_id, user_id, count)
  SELECT tenant_id, user_id, count(*) FROM products WHERE NOT is_deleted GROUP BY tenant_id, user_id;--> statement-breakpoint
CREATE TRIGGER products_counts_insert AFTER INSERT ON products REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION erp_product_counts();--> statement-breakpoint
CREATE TRIGGER products_counts_update AFTER UPDATE ON products REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION erp_product_counts();--> statement-breakpoint
CREATE TRIGGER products_counts_delete AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION erp_product_counts();--> statement-breakpoint
SELECT erp_secure_tenant_tables();
