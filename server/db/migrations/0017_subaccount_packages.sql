CREATE TABLE "sub_account_orders" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"package_id" uuid NOT NULL,
	"package_name" text NOT NULL,
	"type" integer NOT NULL,
	"count" integer NOT NULL,
	"days" integer NOT NULL,
	"price_fen" integer NOT NULL,
	"expire_time" timestamp with time zone NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	CONSTRAINT "sub_account_orders_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "sub_account_packages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"count" integer NOT NULL,
	"days" integer NOT NULL,
	"price_fen" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid
);
--> statement-breakpoint
CREATE INDEX "sub_account_orders_tenant_expire_idx" ON "sub_account_orders" USING btree ("tenant_id","expire_time");--> statement-breakpoint
CREATE INDEX "sub_account_orders_tenant_creation_idx" ON "sub_account_orders" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "sub_account_packages_sort_idx" ON "sub_account_packages" USING btree ("sort","creation_time");--> statement-breakpoint
-- Packages are the host's reference data for every tenant (no tenant_id: readable by all, written by host calls only);
-- purchases are the tenant's and get the row-level security of every tenant table.
SELECT erp_secure_tenant_tables();
