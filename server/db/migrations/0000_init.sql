CREATE TABLE "currencies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"zh" text NOT NULL,
	"rate" numeric(18, 8) NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid
);
--> statement-breakpoint
CREATE TABLE "outbox_emails" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_time" timestamp with time zone,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	CONSTRAINT "outbox_emails_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "password_reset_codes" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	CONSTRAINT "password_reset_codes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"key" text NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"description" text,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid
);
--> statement-breakpoint
CREATE TABLE "task_infos" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"task_type" integer NOT NULL,
	"task_status" integer NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"task_remark" text,
	"progress" integer DEFAULT 0 NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_infos_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"normalized_name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"remark" text,
	"account_expire_time" timestamp with time zone,
	"account_payment_type" integer DEFAULT 1 NOT NULL,
	"balance" numeric(18, 2) DEFAULT '0' NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	"concurrency_stamp" text DEFAULT gen_random_uuid()::text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_sessions" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"refresh_token_hash" text,
	"refresh_expires_at" timestamp with time zone,
	"client_ip" text,
	"revoked_at" timestamp with time zone,
	"last_refresh_time" timestamp with time zone,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	CONSTRAINT "user_sessions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_name" text NOT NULL,
	"normalized_user_name" text NOT NULL,
	"email" text,
	"normalized_email" text,
	"email_confirmed" boolean DEFAULT false NOT NULL,
	"name" text,
	"surname" text,
	"phone_number" text,
	"phone_number_confirmed" boolean DEFAULT false NOT NULL,
	"password_hash" text NOT NULL,
	"security_stamp" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"lockout_enabled" boolean DEFAULT true NOT NULL,
	"lockout_end" timestamp with time zone,
	"access_failed_count" integer DEFAULT 0 NOT NULL,
	"is_main_account" boolean DEFAULT false NOT NULL,
	"is_host" boolean DEFAULT false NOT NULL,
	"remark" text,
	"limit_meli_account" integer,
	"collect_count" integer,
	"product_count" integer,
	"is_show_page_crwal" boolean DEFAULT true NOT NULL,
	"sub_account_type" integer DEFAULT 1 NOT NULL,
	"sub_account_expire_time" timestamp with time zone,
	"extra_properties" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleter_id" uuid,
	"deletion_time" timestamp with time zone,
	"entity_version" integer DEFAULT 0 NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	"concurrency_stamp" text DEFAULT gen_random_uuid()::text NOT NULL,
	CONSTRAINT "users_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "currencies_code_key" ON "currencies" USING btree ("code");--> statement-breakpoint
CREATE INDEX "password_reset_codes_user_idx" ON "password_reset_codes" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "settings_key_key" ON "settings" USING btree ("key");--> statement-breakpoint
CREATE INDEX "task_infos_tenant_creation_idx" ON "task_infos" USING btree ("tenant_id","creation_time");--> statement-breakpoint
CREATE INDEX "task_infos_tenant_creator_idx" ON "task_infos" USING btree ("tenant_id","creator_id","creation_time");--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_normalized_name_key" ON "tenants" USING btree ("normalized_name");--> statement-breakpoint
CREATE INDEX "user_sessions_user_idx" ON "user_sessions" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_tenant_user_name_key" ON "users" USING btree ("tenant_id","normalized_user_name");--> statement-breakpoint
CREATE INDEX "users_tenant_email_idx" ON "users" USING btree ("tenant_id","normalized_email");--> statement-breakpoint
CREATE INDEX "users_tenant_creation_idx" ON "users" USING btree ("tenant_id","creation_time");