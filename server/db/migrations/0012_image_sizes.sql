CREATE TABLE "image_sizes" (
	"url_hash" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"width" integer,
	"height" integer,
	"error" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Picture sizes by URL (the pre-flight's picture size rule): platform data without tenant_id, like the categories
-- (0008): read-only for the tenant role erp_app, written by host-side work (erp_host).
ALTER TABLE "image_sizes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "image_sizes" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY read_all ON "image_sizes" FOR SELECT TO erp_app USING (true);--> statement-breakpoint
CREATE POLICY host_all ON "image_sizes" TO erp_host USING (true) WITH CHECK (true);--> statement-breakpoint
SELECT erp_secure_tenant_tables();
