-- Issue 29: a bulk edit task's batches were id ranges of the selection, so each batch's update walked the selection's
-- index from its start (100,000 entries a batch for 5,000 rows). The task now lists the selection once, numbered in id
-- order, and each batch takes its next numbers by this key and joins the products by theirs; the batch deletes the
-- numbers it took, and the task's end deletes any left.
CREATE TABLE "product_edit_targets" (
	"tenant_id" uuid NOT NULL,
	"edit_id" uuid NOT NULL,
	"n" integer NOT NULL,
	"product_id" uuid NOT NULL,
	CONSTRAINT "product_edit_targets_tenant_id_edit_id_n_pk" PRIMARY KEY("tenant_id","edit_id","n")
);--> statement-breakpoint
SELECT erp_secure_tenant_tables();
