CREATE TABLE "meli_account_groups" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"cust_id" text NOT NULL,
	"site_code" text NOT NULL,
	"is_cbt" boolean DEFAULT false NOT NULL,
	"name" text NOT NULL,
	"alias" text,
	"brand" text,
	"email" text,
	"sites" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"access_token" text NOT NULL,
	"refresh_token" text NOT NULL,
	"token_expires_at" timestamp with time zone NOT NULL,
	"token_version" integer DEFAULT 1 NOT NULL,
	"auth_status" integer DEFAULT 1 NOT NULL,
	"auth_message" text,
	"refresh_lease_until" timestamp with time zone,
	"refresh_lease_id" uuid,
	"last_refresh_time" timestamp with time zone,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	"concurrency_stamp" text DEFAULT gen_random_uuid()::text NOT NULL,
	CONSTRAINT "meli_account_groups_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "meli_accounts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"site" integer NOT NULL,
	"site_code" text NOT NULL,
	"cust_id" text NOT NULL,
	"is_cbt" boolean DEFAULT false NOT NULL,
	"name" text NOT NULL,
	"alias" text,
	"email" text,
	"corp" text,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"is_full" boolean DEFAULT false NOT NULL,
	"currency" text NOT NULL,
	"adjust_rate" numeric(10, 4),
	"tiny_price" numeric(6, 4),
	"limit_min_price" numeric(18, 2),
	"limit_max_price" numeric(18, 2),
	"over_price" numeric(18, 2),
	"brand" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"is_recieve_order" boolean DEFAULT true NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	"concurrency_stamp" text DEFAULT gen_random_uuid()::text NOT NULL,
	CONSTRAINT "meli_accounts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "meli_auth_states" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"sites" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"code_verifier" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meli_auth_states_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "meli_notifications" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"notification_id" text NOT NULL,
	"group_id" uuid,
	"account_id" uuid,
	"topic" text NOT NULL,
	"resource" text NOT NULL,
	"meli_user_id" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"sent_time" timestamp with time zone,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meli_notifications_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "meli_rate_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"tat" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone,
	"interval_ms" double precision NOT NULL,
	"burst_ms" double precision NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "meli_account_groups_cust_key" ON "meli_account_groups" USING btree ("tenant_id","cust_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meli_accounts_group_site_key" ON "meli_accounts" USING btree ("tenant_id","group_id","site");--> statement-breakpoint
CREATE INDEX "meli_accounts_owner_idx" ON "meli_accounts" USING btree ("tenant_id","owner_id");--> statement-breakpoint
CREATE INDEX "meli_accounts_cust_idx" ON "meli_accounts" USING btree ("tenant_id","cust_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meli_notifications_key" ON "meli_notifications" USING btree ("tenant_id","notification_id");--> statement-breakpoint
CREATE INDEX "meli_notifications_pending_idx" ON "meli_notifications" USING btree ("tenant_id","status","topic","creation_time");--> statement-breakpoint
SELECT erp_secure_tenant_tables();

