-- Issue 29: GetCollect's title filter (title_text ILIKE '%word%', case-insensitive contains) by trigram, as the
-- product (0004) and listing (0013) title searches: without it every title search read the tenant's collections
-- (a rare word 310-350 ms at 200,000 collections, ~2 s at 1,000,000). Collections are deleted outright, so no partial
-- WHERE: the filter has no live condition. ILIKE may use it under the tenant policy since 0013 marked texticlike
-- LEAKPROOF (where the migrating role is a superuser).
CREATE INDEX "collections_title_trgm_idx" ON "collections" USING gin ("title_text" gin_trgm_ops);
