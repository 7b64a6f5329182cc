CREATE TABLE "meli_listing_fees" (
	"site" integer NOT NULL,
	"cate_id" text NOT NULL,
	"listing_type" text NOT NULL,
	"percentage_fee" numeric(6, 2) NOT NULL,
	"fixed_fee" numeric(18, 2) DEFAULT '0' NOT NULL,
	"fixed_fee_under" numeric(18, 2),
	"listing_fee" numeric(18, 2) DEFAULT '0' NOT NULL,
	"currency" text NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meli_listing_fees_site_cate_id_listing_type_pk" PRIMARY KEY("site","cate_id","listing_type")
);
--> statement-breakpoint
-- Mercado Libre's fees (listing_prices) per category and listing type: platform data without tenant_id, like the
-- categories (0008): read-only for the tenant role erp_app, written by host-side work (erp_host).
ALTER TABLE "meli_listing_fees" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "meli_listing_fees" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY read_all ON "meli_listing_fees" FOR SELECT TO erp_app USING (true);--> statement-breakpoint
CREATE POLICY host_all ON "meli_listing_fees" TO erp_host USING (true) WITH CHECK (true);--> statement-breakpoint
SELECT erp_secure_tenant_tables();
