-- Issue 29: Publish writes a large batch over several short transactions (modules/publishing/batch-write.ts), so on
-- PGlite's one connection other tenants' calls run between its chunks. Until its last transaction the batch has a
-- state of its own, Writing (-1), or Dropping (-2) while one left by a failed or crashed publish is removed, and every
-- read leaves out such a batch and its listings: a read first asks this index which of the tenant's batches are hidden
-- (almost always none), and the sweep finds the stale ones here.
CREATE INDEX "publish_batches_hidden_idx" ON "publish_batches" USING btree ("tenant_id","last_update_time") WHERE "publish_batches"."status" < 0;
