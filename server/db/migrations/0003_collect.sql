CREATE TABLE "aquired_urls" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"url" text NOT NULL,
	"platform_type" integer NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"is_discount_price" boolean DEFAULT false NOT NULL,
	"message" text,
	"crawl_count" integer DEFAULT 0 NOT NULL,
	"collect_task_id" uuid,
	"collection_id" uuid,
	"task_info_id" uuid,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modification_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "aquired_urls_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "collect_configs" (
	"tenant_id" uuid NOT NULL,
	"profile" text NOT NULL,
	"is_discount_price" boolean DEFAULT false NOT NULL,
	"max_image_count" integer DEFAULT 20 NOT NULL,
	"max_variant_count" integer DEFAULT 200 NOT NULL,
	"is_collect_description" boolean DEFAULT true NOT NULL,
	"is_collect_video" boolean DEFAULT true NOT NULL,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	CONSTRAINT "collect_configs_tenant_id_profile_pk" PRIMARY KEY("tenant_id","profile")
);
--> statement-breakpoint
CREATE TABLE "collect_tasks" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"platform_type" integer NOT NULL,
	"url" text NOT NULL,
	"title" text,
	"sku" text,
	"image" text,
	"weight" numeric(12, 2),
	"is_discount_price" boolean DEFAULT false NOT NULL,
	"task_status" integer DEFAULT 1 NOT NULL,
	"message" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_run_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"collection_id" uuid,
	"aquired_url_id" uuid,
	"task_info_id" uuid,
	"client_id" text,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modification_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collect_tasks_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "collections" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"platform_type" integer NOT NULL,
	"item_id" text NOT NULL,
	"source_url" text NOT NULL,
	"title" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"title_text" text DEFAULT '' NOT NULL,
	"image" text,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"video_url" text,
	"price" numeric(18, 2),
	"price_max" numeric(18, 2),
	"currency" text,
	"country" text,
	"stock" integer,
	"brand" text,
	"weight" numeric(12, 2),
	"size" text,
	"description" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"description_url" text,
	"attributes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"variants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"shop" jsonb,
	"extract_info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"source" integer DEFAULT 1 NOT NULL,
	"is_discount_price" boolean DEFAULT false NOT NULL,
	"infringement_word" text,
	"label_id" uuid,
	"collect_task_id" uuid,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	"concurrency_stamp" text DEFAULT gen_random_uuid()::text NOT NULL,
	CONSTRAINT "collections_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "infringement_rule_settings" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"profile" text NOT NULL,
	"is_allow_collected" boolean DEFAULT true NOT NULL,
	"infringement_rule_type" integer DEFAULT 1 NOT NULL,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	CONSTRAINT "infringement_rule_settings_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "infringement_words" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"word" text NOT NULL,
	"normalized_word" text NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	CONSTRAINT "infringement_words_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"source_collection_id" uuid,
	"platform_type" integer,
	"source_url" text,
	"item_id" text,
	"title" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"title_text" text DEFAULT '' NOT NULL,
	"image" text,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"price" numeric(18, 2),
	"currency" text,
	"weight" numeric(12, 2),
	"description" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attributes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"variants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"infringement_word" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleter_id" uuid,
	"deletion_time" timestamp with time zone,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"creator_id" uuid,
	"last_modification_time" timestamp with time zone,
	"last_modifier_id" uuid,
	"concurrency_stamp" text DEFAULT gen_random_uuid()::text NOT NULL,
	CONSTRAINT "products_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "aquired_urls_user_url_key" ON "aquired_urls" USING btree ("tenant_id","user_id","url");--> statement-breakpoint
CREATE INDEX "aquired_urls_tenant_creation_idx" ON "aquired_urls" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "aquired_urls_tenant_queue_idx" ON "aquired_urls" USING btree ("tenant_id","status","sort","creation_time");--> statement-breakpoint
CREATE INDEX "aquired_urls_tenant_task_info_idx" ON "aquired_urls" USING btree ("tenant_id","task_info_id");--> statement-breakpoint
CREATE INDEX "collect_tasks_tenant_creation_idx" ON "collect_tasks" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "collect_tasks_tenant_user_creation_idx" ON "collect_tasks" USING btree ("tenant_id","user_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "collect_tasks_tenant_status_idx" ON "collect_tasks" USING btree ("tenant_id","task_status","creation_time");--> statement-breakpoint
CREATE INDEX "collect_tasks_tenant_task_info_idx" ON "collect_tasks" USING btree ("tenant_id","task_info_id");--> statement-breakpoint
CREATE UNIQUE INDEX "collections_source_item_key" ON "collections" USING btree ("tenant_id","user_id","platform_type","item_id");--> statement-breakpoint
CREATE INDEX "collections_tenant_creation_idx" ON "collections" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "collections_tenant_user_creation_idx" ON "collections" USING btree ("tenant_id","user_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "collections_tenant_status_creation_idx" ON "collections" USING btree ("tenant_id","status","creation_time");--> statement-breakpoint
CREATE INDEX "collections_tenant_item_idx" ON "collections" USING btree ("tenant_id","item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "infringement_rule_settings_profile_key" ON "infringement_rule_settings" USING btree ("tenant_id","profile");--> statement-breakpoint
CREATE UNIQUE INDEX "infringement_words_word_key" ON "infringement_words" USING btree ("tenant_id","normalized_word");--> statement-breakpoint
CREATE INDEX "products_tenant_creation_idx" ON "products" USING btree ("tenant_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "products_tenant_user_creation_idx" ON "products" USING btree ("tenant_id","user_id","creation_time","id");--> statement-breakpoint
CREATE INDEX "products_tenant_source_collection_idx" ON "products" USING btree ("tenant_id","source_collection_id");--> statement-breakpoint
SELECT erp_secure_tenant_tables();
