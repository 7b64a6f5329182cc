-- Bulk edits of a seller's whole catalogue (prices, weights, sizes, stock, currency) are heap-only (HOT) updates:
-- no index names those columns (price and weight lose theirs: their filters narrow the list's index walk instead),
-- and half of each page is kept free for the new row versions. A non-HOT update writes a new entry in every index,
-- dozens of them in the title trigram index; at 100,000 rows that was 14-25 s against under 2 s.
DROP INDEX "products_live_price_idx";--> statement-breakpoint
DROP INDEX "products_live_weight_idx";--> statement-breakpoint
ALTER TABLE "products" SET (fillfactor = 50);--> statement-breakpoint
-- A recorded bulk edit (server/modules/products/edits.ts) names itself and the columns it changes in two
-- transaction-local settings around its UPDATE; this statement trigger then backs up the previous values of exactly
-- the rows that UPDATE changed, from the statement's old rows, in one insert: no locking pass over the rows first.
-- A nullable jsonb column is wrapped in an array so SQL null and JSON null restore as what they were.
CREATE OR REPLACE FUNCTION erp_product_edit_backup() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  edit_id text := nullif(current_setting('erp.edit_id', true), '');
  pairs text;
BEGIN
  IF edit_id IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT string_agg(CASE WHEN a.atttypid = 'jsonb'::regtype AND NOT a.attnotnull
      THEN format('%L, CASE WHEN o.%I IS NULL THEN NULL ELSE jsonb_build_array(o.%I) END', a.attname, a.attname, a.attname)
      ELSE format('%L, o.%I', a.attname, a.attname) END, ', ' ORDER BY a.attnum)
    INTO pairs
    FROM pg_attribute a
    WHERE a.attrelid = TG_RELID AND a.attnum > 0 AND NOT a.attisdropped
      AND a.attname = ANY (string_to_array(current_setting('erp.edit_columns', true), ','));
  IF pairs IS NULL THEN
    RAISE EXCEPTION 'bulk edit % names no column of %', edit_id, TG_TABLE_NAME;
  END IF;
  EXECUTE format('INSERT INTO product_edit_backups (tenant_id, edit_id, product_id, before)
    SELECT o.tenant_id, %L::uuid, o.id, jsonb_build_object(%s) FROM old_rows o', edit_id, pairs);
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER products_edit_backup AFTER UPDATE ON products REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION erp_product_edit_backup();
