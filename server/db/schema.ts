// The database schema, shared by PGlite and PostgreSQL. Tenant-owned tables start their primary key with tenant_id
// (Citus-ready) and get row-level security from the migrations (see rls.sql in the migrations folder).
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { problem } from "#shared/contract/publish.ts";

/** Host rows (the platform operator's own users) live under this reserved tenant id; the wire shows them as null. */
export const HOST_TENANT_ID = "00000000-0000-0000-0000-000000000000";

const time = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const creation = {
  creationTime: time("creation_time").notNull().defaultNow(),
  creatorId: uuid("creator_id"),
};
const modification = {
  lastModificationTime: time("last_modification_time"),
  lastModifierId: uuid("last_modifier_id"),
};
const concurrency = {
  concurrencyStamp: text("concurrency_stamp")
    .notNull()
    .default(sql`gen_random_uuid()::text`),
};

// Global (host-owned) tables: no tenant_id, reference data for all tenants.
export const tenants = pgTable(
  "tenants",
  {
    id: uuid("id").primaryKey(),
    name: text("name").notNull(),
    normalizedName: text("normalized_name").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    remark: text("remark"),
    accountExpireTime: time("account_expire_time"),
    accountPaymentType: integer("account_payment_type").notNull().default(1),
    balance: numeric("balance", { precision: 18, scale: 2 }).notNull().default("0"),
    /** The wallet's balance in fen, kept by the ledger (modules/wallet/ledger.ts) with its entries; balance is its yuan copy. */
    balanceFen: bigint("balance_fen", { mode: "number" }).notNull().default(0),
    /** Sub-accounts not deleted, kept by insertUser (and any future delete) in the same transaction: GetMyInfo reads it
     * on every call, where counting rows would cost a scan of the tenant's users. */
    subAccountCount: integer("sub_account_count").notNull().default(0),
    /** The agency tenant that recommended this tenant (issue 19 Agency; set by the host), its RecommendType and when. */
    recommendTenantId: uuid("recommend_tenant_id"),
    recommendType: integer("recommend_type"),
    recommendTime: time("recommend_time"),
    /** The recommending agency's own note on this tenant (Agency EditRemark). */
    agencyRemark: text("agency_remark"),
    ...creation,
    ...modification,
    ...concurrency,
  },
  (t) => [
    uniqueIndex("tenants_normalized_name_key").on(t.normalizedName),
    index("tenants_recommend_tenant_idx").on(t.recommendTenantId),
    check("tenants_balance_fen_not_negative", sql`${t.balanceFen} >= 0`),
  ],
);

export const settings = pgTable(
  "settings",
  {
    id: uuid("id").primaryKey(),
    name: text("name").notNull(),
    key: text("key").notNull(),
    value: text("value").notNull().default(""),
    description: text("description"),
    ...creation,
    ...modification,
  },
  (t) => [uniqueIndex("settings_key_key").on(t.key)],
);

export const currencies = pgTable(
  "currencies",
  {
    id: uuid("id").primaryKey(),
    code: text("code").notNull(),
    zh: text("zh").notNull(),
    /** CNY for one unit of this currency (CNY itself is 1). */
    rate: numeric("rate", { precision: 18, scale: 8 }).notNull(),
    ...creation,
    ...modification,
  },
  (t) => [uniqueIndex("currencies_code_key").on(t.code)],
);

// Tenant-owned tables.
export const users = pgTable(
  "users",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    userName: text("user_name").notNull(),
    normalizedUserName: text("normalized_user_name").notNull(),
    email: text("email"),
    normalizedEmail: text("normalized_email"),
    emailConfirmed: boolean("email_confirmed").notNull().default(false),
    name: text("name"),
    surname: text("surname"),
    phoneNumber: text("phone_number"),
    phoneNumberConfirmed: boolean("phone_number_confirmed").notNull().default(false),
    passwordHash: text("password_hash").notNull(),
    securityStamp: text("security_stamp").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    lockoutEnabled: boolean("lockout_enabled").notNull().default(true),
    lockoutEnd: time("lockout_end"),
    accessFailedCount: integer("access_failed_count").notNull().default(0),
    isMainAccount: boolean("is_main_account").notNull().default(false),
    isHost: boolean("is_host").notNull().default(false),
    remark: text("remark"),
    /** Per-user limits set by the main account; null means no limit. */
    limitMeliAccount: integer("limit_meli_account"),
    collectCount: integer("collect_count"),
    productCount: integer("product_count"),
    isShowPageCrwal: boolean("is_show_page_crwal").notNull().default(true),
    subAccountType: integer("sub_account_type").notNull().default(1),
    subAccountExpireTime: time("sub_account_expire_time"),
    extraProperties: jsonb("extra_properties").notNull().default({}),
    isDeleted: boolean("is_deleted").notNull().default(false),
    deleterId: uuid("deleter_id"),
    deletionTime: time("deletion_time"),
    entityVersion: integer("entity_version").notNull().default(0),
    ...creation,
    ...modification,
    ...concurrency,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("users_tenant_user_name_key").on(t.tenantId, t.normalizedUserName),
    index("users_tenant_email_idx").on(t.tenantId, t.normalizedEmail),
    index("users_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
  ],
);

/** One login session: the access token names it (sid), the refresh token rotates inside it. */
export const userSessions = pgTable(
  "user_sessions",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    userId: uuid("user_id").notNull(),
    refreshTokenHash: text("refresh_token_hash"),
    refreshExpiresAt: time("refresh_expires_at"),
    clientIp: text("client_ip"),
    revokedAt: time("revoked_at"),
    lastRefreshTime: time("last_refresh_time"),
    ...creation,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index("user_sessions_user_idx").on(t.tenantId, t.userId)],
);

export const passwordResetCodes = pgTable(
  "password_reset_codes",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    userId: uuid("user_id").notNull(),
    codeHash: text("code_hash").notNull(),
    expiresAt: time("expires_at").notNull(),
    usedAt: time("used_at"),
    attempts: integer("attempts").notNull().default(0),
    ...creation,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index("password_reset_codes_user_idx").on(t.tenantId, t.userId)],
);

export const outboxEmails = pgTable(
  "outbox_emails",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    status: integer("status").notNull().default(1),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentTime: time("sent_time"),
    ...creation,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

export const taskInfos = pgTable(
  "task_infos",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    taskType: integer("task_type").notNull(),
    taskStatus: integer("task_status").notNull(),
    content: text("content").notNull().default(""),
    taskRemark: text("task_remark"),
    progress: integer("progress").notNull().default(0),
    /** The job's own resume point (never shown): where a retried job goes on from (FetchOrders' next search page). */
    state: jsonb("state"),
    ...creation,
    lastUpdateTime: time("last_update_time").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("task_infos_tenant_creation_idx").on(t.tenantId, t.creationTime),
    index("task_infos_tenant_creator_idx").on(t.tenantId, t.creatorId, t.creationTime),
  ],
);

/**
 * The Idempotency-Key of a call that is not naturally idempotent (server/http/idempotency.ts): claimed and answered in
 * the call's own transaction, so a retry with the same key and request gets the first answer back. Kept 24 hours.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    tenantId: uuid("tenant_id").notNull(),
    userId: uuid("user_id").notNull(),
    key: text("key").notNull(),
    /** sha256 of the call and its input: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    /** The first answer (status and body text); null only inside the first request's own transaction. */
    status: integer("status"),
    response: text("response"),
    creationTime: time("creation_time").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.key] })],
);

// Collection centre (issue 4). A collected product keeps the extractor's document-like parts in jsonb and the columns
// its list filters and sorts on as real, indexed columns. The same source item collected again by the same user is the
// same collection (unique key), from the extension and the crawler alike.
export const collections = pgTable(
  "collections",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    /** The owner: who collected it. */
    userId: uuid("user_id").notNull(),
    platformType: integer("platform_type").notNull(),
    /** The source platform's item id, always text (Pinduoduo ids pass 2^53). */
    itemId: text("item_id").notNull(),
    sourceUrl: text("source_url").notNull(),
    /** Title by language ({"zh": "…", "es": "…"}). */
    title: jsonb("title").notNull().default({}),
    /** The title the list searches and sorts on (the source language's). */
    titleText: text("title_text").notNull().default(""),
    image: text("image"),
    images: jsonb("images").notNull().default([]),
    videoUrl: text("video_url"),
    price: numeric("price", { precision: 18, scale: 2 }),
    priceMax: numeric("price_max", { precision: 18, scale: 2 }),
    currency: text("currency"),
    country: text("country"),
    stock: integer("stock"),
    brand: text("brand"),
    /** Grams. */
    weight: numeric("weight", { precision: 12, scale: 2 }),
    size: text("size"),
    /** Description by language (HTML). */
    description: jsonb("description").notNull().default({}),
    descriptionUrl: text("description_url"),
    attributes: jsonb("attributes").notNull().default([]),
    options: jsonb("options").notNull().default([]),
    variants: jsonb("variants").notNull().default([]),
    shop: jsonb("shop"),
    /** The source platform's category: { id?, path? } (category mapping, migration 0023). */
    sourceCategory: jsonb("source_category"),
    /** What the extractor said about the data: sources per field, missing fields, warnings. */
    extractInfo: jsonb("extract_info").notNull().default({}),
    status: integer("status").notNull().default(1),
    source: integer("source").notNull().default(1),
    isDiscountPrice: boolean("is_discount_price").notNull().default(false),
    infringementWord: text("infringement_word"),
    labelId: uuid("label_id"),
    collectTaskId: uuid("collect_task_id"),
    ...creation,
    ...modification,
    ...concurrency,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("collections_source_item_key").on(t.tenantId, t.userId, t.platformType, t.itemId),
    index("collections_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
    index("collections_tenant_user_creation_idx").on(t.tenantId, t.userId, t.creationTime, t.id),
    index("collections_tenant_status_creation_idx").on(t.tenantId, t.status, t.creationTime),
    index("collections_tenant_item_idx").on(t.tenantId, t.itemId),
    // The list's title filter (title_text ILIKE), by trigram (migration 0027).
    index("collections_title_trgm_idx").using("gin", t.titleText.op("gin_trgm_ops")),
  ],
);

/** One URL the crawler fetches (spec §3 collection task); created by CrawlProductByTool and by the URL queue. */
export const collectTasks = pgTable(
  "collect_tasks",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    userId: uuid("user_id").notNull(),
    platformType: integer("platform_type").notNull(),
    url: text("url").notNull(),
    title: text("title"),
    /** The item id, once known (from the URL or the extracted page). */
    sku: text("sku"),
    image: text("image"),
    /** Grams, given with the URL; overrides the extracted weight. */
    weight: numeric("weight", { precision: 12, scale: 2 }),
    isDiscountPrice: boolean("is_discount_price").notNull().default(false),
    taskStatus: integer("task_status").notNull().default(1),
    message: text("message"),
    attempts: integer("attempts").notNull().default(0),
    nextRunAt: time("next_run_at"),
    finishedAt: time("finished_at"),
    collectionId: uuid("collection_id"),
    aquiredUrlId: uuid("aquired_url_id"),
    /** The task-centre record (task_infos) of the request or import this task belongs to. */
    taskInfoId: uuid("task_info_id"),
    /** The caller's own id for the URL (collect request urls[].id). */
    clientId: text("client_id"),
    creationTime: time("creation_time").notNull().defaultNow(),
    lastModificationTime: time("last_modification_time").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("collect_tasks_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
    index("collect_tasks_tenant_user_creation_idx").on(t.tenantId, t.userId, t.creationTime, t.id),
    index("collect_tasks_tenant_status_idx").on(t.tenantId, t.taskStatus, t.creationTime),
    index("collect_tasks_tenant_task_info_idx").on(t.tenantId, t.taskInfoId),
  ],
);

/** Per-tenant collection settings (UpdateCollcetConfig / GetCollectConfig); defaults apply while no row exists. */
export const collectConfigs = pgTable(
  "collect_configs",
  {
    tenantId: uuid("tenant_id").notNull(),
    /** The settings profile; the calls use SETTINGS_PROFILE ("default"), one row per tenant. */
    profile: text("profile").notNull(),
    isDiscountPrice: boolean("is_discount_price").notNull().default(false),
    maxImageCount: integer("max_image_count").notNull().default(20),
    maxVariantCount: integer("max_variant_count").notNull().default(200),
    isCollectDescription: boolean("is_collect_description").notNull().default(true),
    isCollectVideo: boolean("is_collect_video").notNull().default(true),
    ...modification,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.profile] })],
);

/** The profile of the per-tenant settings rows (collect_configs, infringement_rule_settings). */
export const SETTINGS_PROFILE = "default";

/** Per-tenant infringement rule: whether a product with an infringement word may be collected, and how words match. */
export const infringementRuleSettings = pgTable(
  "infringement_rule_settings",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    profile: text("profile").notNull(),
    isAllowCollected: boolean("is_allow_collected").notNull().default(true),
    infringementRuleType: integer("infringement_rule_type").notNull().default(1),
    ...modification,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex("infringement_rule_settings_profile_key").on(t.tenantId, t.profile)],
);

/** The tenant's infringement words (spec §3); the InfringementWord calls that manage them belong to the product centre. */
export const infringementWords = pgTable(
  "infringement_words",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    word: text("word").notNull(),
    normalizedWord: text("normalized_word").notNull(),
    ...creation,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex("infringement_words_word_key").on(t.tenantId, t.normalizedWord)],
);

/** The URL queue (spec §7 AquiredUrl): URLs typed or imported, crawled in the background in sort order. */
export const aquiredUrls = pgTable(
  "aquired_urls",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    userId: uuid("user_id").notNull(),
    url: text("url").notNull(),
    platformType: integer("platform_type").notNull(),
    /** Task status values: pending, running, succeeded, failed. */
    status: integer("status").notNull().default(1),
    /** Higher first in the queue. */
    sort: integer("sort").notNull().default(0),
    isDiscountPrice: boolean("is_discount_price").notNull().default(false),
    message: text("message"),
    crawlCount: integer("crawl_count").notNull().default(0),
    collectTaskId: uuid("collect_task_id"),
    collectionId: uuid("collection_id"),
    /** The task-centre record of the import (or re-crawl) that queued it. */
    taskInfoId: uuid("task_info_id"),
    creationTime: time("creation_time").notNull().defaultNow(),
    lastModificationTime: time("last_modification_time").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("aquired_urls_user_url_key").on(t.tenantId, t.userId, t.url),
    index("aquired_urls_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
    index("aquired_urls_tenant_queue_idx").on(t.tenantId, t.status, t.sort, t.creationTime),
    index("aquired_urls_tenant_task_info_idx").on(t.tenantId, t.taskInfoId),
  ],
);

/**
 * Products (spec §3 Collected product and its detail): what the seller edits, prices and publishes. Titles and
 * descriptions by language, options and variants (the extractor's shape: variants name one option value id per
 * option), attributes and the category's attrs are jsonb; what lists filter and sort on are real columns with partial
 * indexes over the live (not deleted) rows. Soft-deleted, as the spec recovers deleted products.
 * title_text (the display title) and search_text (every title, lower-cased, for the title filter) are kept by a
 * trigger from `title`, so every writer (bulk replace, translation) keeps them right.
 */
export const products = pgTable(
  "products",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    userId: uuid("user_id").notNull(),
    sourceCollectionId: uuid("source_collection_id"),
    platformType: integer("platform_type"),
    sourceUrl: text("source_url"),
    itemId: text("item_id"),
    sku: text("sku"),
    title: jsonb("title").notNull().default({}),
    titleText: text("title_text").notNull().default(""),
    searchText: text("search_text").notNull().default(""),
    image: text("image"),
    images: jsonb("images").notNull().default([]),
    price: numeric("price", { precision: 18, scale: 2 }),
    currency: text("currency"),
    /** Grams. */
    weight: numeric("weight", { precision: 12, scale: 2 }),
    /** Centimetres, "LxWxH". */
    size: text("size"),
    stock: integer("stock"),
    brand: text("brand"),
    country: text("country"),
    videoUrl: text("video_url"),
    /** Profit rate in percent the seller wants on this product. */
    profit: numeric("profit", { precision: 8, scale: 2 }),
    description: jsonb("description").notNull().default({}),
    attributes: jsonb("attributes").notNull().default([]),
    options: jsonb("options").notNull().default([]),
    variants: jsonb("variants").notNull().default([]),
    /** Mercado Libre site (1-5) and category of cateInfo, as columns for the site and cateId filters. */
    site: integer("site"),
    cateId: text("cate_id"),
    /** { cateId, site, attrs: [{ nameId, name, valueId, value }] } */
    cateInfo: jsonb("cate_info"),
    categoryName: text("category_name"),
    /** The source platform's category, copied from the collected item: { id?, path? } (migration 0023). */
    sourceCategory: jsonb("source_category"),
    labelId: uuid("label_id"),
    status: integer("status").notNull().default(1),
    infringementWord: text("infringement_word"),
    isDeleted: boolean("is_deleted").notNull().default(false),
    deleterId: uuid("deleter_id"),
    deletionTime: time("deletion_time"),
    ...creation,
    ...modification,
    ...concurrency,
  },
  (t) => {
    const live = sql`${t.isDeleted} = false`;
    return [
      primaryKey({ columns: [t.tenantId, t.id] }),
      index("products_live_creation_idx").on(t.tenantId, t.creationTime, t.id).where(live),
      index("products_live_user_creation_idx").on(t.tenantId, t.userId, t.creationTime, t.id).where(live),
      index("products_live_status_creation_idx").on(t.tenantId, t.status, t.creationTime, t.id).where(live),
      index("products_live_label_creation_idx").on(t.tenantId, t.labelId, t.creationTime, t.id).where(live),
      index("products_live_platform_creation_idx").on(t.tenantId, t.platformType, t.creationTime, t.id).where(live),
      // No index on price or weight: bulk edits of them stay heap-only updates (migration 0006, fillfactor 50).
      index("products_live_sku_idx").on(t.tenantId, t.sku).where(live),
      index("products_live_cate_idx").on(t.tenantId, t.site, t.cateId).where(live),
      index("products_live_search_trgm_idx").using("gin", t.searchText.op("gin_trgm_ops")).where(live),
      index("products_deleted_idx")
        .on(t.tenantId, t.deletionTime)
        .where(sql`${t.isDeleted} = true`),
      index("products_tenant_source_collection_idx").on(t.tenantId, t.sourceCollectionId),
    ];
  },
);

/**
 * Live products per owner, kept by statement-level triggers on products (insert, delete, and updates of user_id or
 * is_deleted), so every writer keeps it right: the unfiltered list's total and the productCount limit read it instead
 * of counting a million rows.
 */
export const productCounts = pgTable(
  "product_counts",
  {
    tenantId: uuid("tenant_id").notNull(),
    userId: uuid("user_id").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] })],
);

/**
 * One bulk edit of products (spec §3 Bulk edits): what it was, by whom, how many rows. The previous values of the
 * columns it changed are in product_edit_backups, so the user's last edit can be undone within 24 hours.
 */
export const productEdits = pgTable(
  "product_edits",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    userId: uuid("user_id").notNull(),
    /** The call's name, e.g. BatchUpdateProductPrice. */
    kind: text("kind").notNull(),
    /** The columns the edit changed, the ones undo restores. */
    columns: jsonb("columns").notNull().default([]),
    /** The edit's input, for the record. */
    input: jsonb("input").notNull().default({}),
    rowCount: integer("row_count").notNull().default(0),
    undoneTime: time("undone_time"),
    ...creation,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index("product_edits_user_idx").on(t.tenantId, t.userId, t.creationTime)],
);

/** The values a bulk edit replaced, one row per product it touched. */
export const productEditBackups = pgTable(
  "product_edit_backups",
  {
    tenantId: uuid("tenant_id").notNull(),
    editId: uuid("edit_id").notNull(),
    productId: uuid("product_id").notNull(),
    /** { column: previous value } for the edit's columns. */
    before: jsonb("before").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.editId, t.productId] })],
);

/** A bulk edit or translation task's selection, listed once and numbered in id order; its batches take them in turn. */
export const productEditTargets = pgTable(
  "product_edit_targets",
  {
    tenantId: uuid("tenant_id").notNull(),
    editId: uuid("edit_id").notNull(),
    n: integer("n").notNull(),
    productId: uuid("product_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.editId, t.n] })],
);

/** Product labels (spec §3 Product label, label group); a product carries at most one label (labelId). */
export const productLabelGroups = pgTable(
  "product_label_groups",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    name: text("name").notNull(),
    sort: integer("sort").notNull().default(0),
    ...creation,
    ...modification,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex("product_label_groups_name_key").on(t.tenantId, t.name)],
);

export const productLabels = pgTable(
  "product_labels",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    groupId: uuid("group_id"),
    name: text("name").notNull(),
    sort: integer("sort").notNull().default(0),
    ...creation,
    ...modification,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex("product_labels_name_key").on(t.tenantId, t.name)],
);

// Shop centre (issue 6). One account group per Mercado Libre authorization (a local seller, or a global CBT seller
// with its marketplace users), holding the token pair encrypted (server/security/secrets.ts); one shop account per site
// the group sells on. The same seller is connected to one tenant at a time (a second tenant's grant would log the first
// out: Mercado Libre keeps only the newest refresh token per seller and app).
export const meliAccountGroups = pgTable(
  "meli_account_groups",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    /** Who connected it first. */
    ownerId: uuid("owner_id").notNull(),
    /** Mercado Libre's user id of the token's seller (the global seller for CBT). */
    custId: text("cust_id").notNull(),
    /** Mercado Libre's site of that user: MLM, MLB, MLC, MCO or CBT. */
    siteCode: text("site_code").notNull(),
    isCbt: boolean("is_cbt").notNull().default(false),
    /** The seller's nickname. */
    name: text("name").notNull(),
    alias: text("alias"),
    brand: text("brand"),
    email: text("email"),
    /** Our site numbers (1-5) of its shop accounts. */
    sites: jsonb("sites").notNull().default([]),
    /** AES-256-GCM, bound to the row (secrets.ts); never the plain token. */
    accessToken: text("access_token").notNull(),
    refreshToken: text("refresh_token").notNull(),
    tokenExpiresAt: time("token_expires_at").notNull(),
    /** Moves on every stored pair: a refresh is written only over the version it started from. */
    tokenVersion: integer("token_version").notNull().default(1),
    /** 1 authorized, 2 needs re-authorization (MeliAuthStatus). */
    authStatus: integer("auth_status").notNull().default(1),
    authMessage: text("auth_message"),
    /** The single-flight refresh: one process holds the lease while it refreshes. */
    refreshLeaseUntil: time("refresh_lease_until"),
    refreshLeaseId: uuid("refresh_lease_id"),
    lastRefreshTime: time("last_refresh_time"),
    ...creation,
    ...modification,
    ...concurrency,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex("meli_account_groups_cust_key").on(t.tenantId, t.custId)],
);

/** A shop account (spec §3 Shops): one site of an account group, with the seller's pricing rules for it. */
export const meliAccounts = pgTable(
  "meli_accounts",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    groupId: uuid("group_id").notNull(),
    /** The user (main or sub-account) the shop belongs to; a sub-account sees only its own. */
    ownerId: uuid("owner_id").notNull(),
    /** 1-5 (Site). */
    site: integer("site").notNull(),
    siteCode: text("site_code").notNull(),
    /** Mercado Libre's user id on this site (a CBT seller has one per marketplace). */
    custId: text("cust_id").notNull(),
    isCbt: boolean("is_cbt").notNull().default(false),
    name: text("name").notNull(),
    alias: text("alias"),
    email: text("email"),
    corp: text("corp"),
    isEnabled: boolean("is_enabled").notNull().default(true),
    /** Fulfillment (Mercado Libre's own logistics) on this site. */
    isFull: boolean("is_full").notNull().default(false),
    currency: text("currency").notNull(),
    adjustRate: numeric("adjust_rate", { precision: 10, scale: 4 }),
    tinyPrice: numeric("tiny_price", { precision: 6, scale: 4 }),
    limitMinPrice: numeric("limit_min_price", { precision: 18, scale: 2 }),
    limitMaxPrice: numeric("limit_max_price", { precision: 18, scale: 2 }),
    overPrice: numeric("over_price", { precision: 18, scale: 2 }),
    /** The minimum margin in % of the price (null: shared/publish/margin.ts DEFAULT_MIN_MARGIN). */
    minMargin: numeric("min_margin", { precision: 5, scale: 2 }),
    /** Automatic repricing (issue 32): when a rate, fee or rule leaves a listing under the minimum margin. */
    autoReprice: boolean("auto_reprice").notNull().default(false),
    /** The most an automatic repricing moves a price in a day, in % (null: AUTO_REPRICE_DEFAULT_MAX_PERCENT). */
    autoRepriceMaxPercent: numeric("auto_reprice_max_percent", { precision: 5, scale: 2 }),
    brand: text("brand"),
    sort: integer("sort").notNull().default(0),
    isReceiveOrder: boolean("is_recieve_order").notNull().default(true),
    ...creation,
    ...modification,
    ...concurrency,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("meli_accounts_group_site_key").on(t.tenantId, t.groupId, t.site),
    index("meli_accounts_owner_idx").on(t.tenantId, t.ownerId),
    index("meli_accounts_cust_idx").on(t.tenantId, t.custId),
  ],
);

/** A pending authorization (GetAuthUrl): the signed state's single-use record and its PKCE verifier. */
export const meliAuthStates = pgTable(
  "meli_auth_states",
  {
    tenantId: uuid("tenant_id").notNull(),
    /** The state's nonce. */
    id: uuid("id").notNull(),
    /** Who asked for the link, and who the shops will belong to. */
    userId: uuid("user_id").notNull(),
    ownerId: uuid("owner_id").notNull(),
    sites: jsonb("sites").notNull().default([]),
    codeVerifier: text("code_verifier").notNull(),
    expiresAt: time("expires_at").notNull(),
    creationTime: time("creation_time").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

/** Notifications Mercado Libre sent to MeliCallback, stored per shop for the listing and order syncs. */
export const meliNotifications = pgTable(
  "meli_notifications",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    /** Mercado Libre's _id (a hash of the payload when it has none): a resent notification is stored once. */
    notificationId: text("notification_id").notNull(),
    groupId: uuid("group_id"),
    accountId: uuid("account_id"),
    topic: text("topic").notNull(),
    resource: text("resource").notNull(),
    meliUserId: text("meli_user_id").notNull(),
    attempts: integer("attempts").notNull().default(1),
    sentTime: time("sent_time"),
    payload: jsonb("payload").notNull().default({}),
    /** 1 pending, 2 processed (MeliNotificationStatus). */
    status: integer("status").notNull().default(1),
    creationTime: time("creation_time").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("meli_notifications_key").on(t.tenantId, t.notificationId),
    index("meli_notifications_pending_idx").on(t.tenantId, t.status, t.topic, t.creationTime),
  ],
);

/**
 * Rate buckets shared by every process (global, no tenant): one row per seller and one per app, as GCRA — `tat` is
 * the theoretical arrival time; a call may go at tat − interval − burst. blocked_until holds a 429's Retry-After.
 */
export const meliRateBuckets = pgTable("meli_rate_buckets", {
  key: text("key").primaryKey(),
  tat: time("tat").notNull(),
  blockedUntil: time("blocked_until"),
  intervalMs: doublePrecision("interval_ms").notNull(),
  burstMs: doublePrecision("burst_ms").notNull(),
});

/**
 * Category mapping (类目映射, issue 28): the Mercado Libre category a seller picked for a product of a source category,
 * per site, suggested first for the next product of that source category. The source key is the source platform's
 * category id, or its path text when the page gives no id.
 */
export const categoryMappings = pgTable(
  "category_mappings",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    platformType: integer("platform_type").notNull(),
    sourceKey: text("source_key").notNull(),
    sourcePath: text("source_path"),
    site: integer("site").notNull(),
    cateId: text("cate_id").notNull(),
    categoryName: text("category_name").notNull(),
    useCount: integer("use_count").notNull().default(1),
    creationTime: time("creation_time").notNull().defaultNow(),
    lastModificationTime: time("last_modification_time").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("category_mappings_source_key").on(t.tenantId, t.platformType, t.sourceKey, t.site),
    index("category_mappings_tenant_time_idx").on(t.tenantId, t.lastModificationTime, t.id),
  ],
);

// Categories (issue 6): Mercado Libre's category trees, attributes and fees, synced by the host for every tenant.
// Platform data like settings and currencies: no tenant_id. Row-level security (migration 0008) lets the tenant role
// erp_app only read them; writes go through host-side work (erp_host).

/** One category of a site (spec §3 Marketplace category). Kept when Mercado Libre drops it (products name it). */
export const meliCategories = pgTable(
  "meli_categories",
  {
    /** 1-5 (Site). */
    site: integer("site").notNull(),
    /** Mercado Libre's id, e.g. MLM1055. */
    cateId: text("cate_id").notNull(),
    id: uuid("id").notNull().defaultRandom(),
    level: integer("level").notNull(),
    name: text("name").notNull(),
    /** Chinese name: translated by AckCategory, or kept as set. */
    zh: text("zh"),
    /** The parent's cateId (null for a root). */
    pId: text("p_id"),
    isLeaf: boolean("is_leaf").notNull(),
    /** The path in Chinese (zh, else the name, of each ancestor) once any of them has a Chinese name. */
    fullZh: text("full_zh"),
    /** The path of names from the root, "A > B > C". */
    fullName: text("full_name").notNull(),
    /** The host's reference name for sellers (UpdateRefer); searched by the category picker. */
    alias: text("alias"),
    /** The path of ids from the root, "MLM1051/MLM1055". */
    pathName: text("path_name").notNull(),
    /** Position among its siblings, as Mercado Libre lists them. */
    sort: integer("sort").notNull().default(0),
    /** Sale fee percentages of the classic (gold_special) and premium (gold_pro) listing types. */
    classicFee: numeric("classic_fee", { precision: 6, scale: 2 }),
    premiumFee: numeric("premium_fee", { precision: 6, scale: 2 }),
    /** The host's switch (UpdateAllCategoryStatus): a disabled category and its subtree leave the picker. */
    enable: boolean("enable").notNull().default(true),
    /** Mercado Libre's side: "enabled", or "removed" when the last sync's tree no longer had it. */
    meliStatus: text("meli_status").notNull().default("enabled"),
    listingAllowed: boolean("listing_allowed").notNull().default(false),
    /** Ids of the attributes variations are made of (allow_variations), from the attribute sync. */
    variantKeys: jsonb("variant_keys").notNull().default([]),
    /** Mercado Libre's catalog domain of a leaf. */
    domain: text("domain"),
    maxTitleLength: integer("max_title_length"),
    maxPictures: integer("max_pictures"),
    minimumPrice: numeric("minimum_price", { precision: 18, scale: 2 }),
    currency: text("currency"),
    syncTime: time("sync_time").notNull().defaultNow(),
    feeSyncTime: time("fee_sync_time"),
    attrSyncTime: time("attr_sync_time"),
    creationTime: time("creation_time").notNull().defaultNow(),
    lastModificationTime: time("last_modification_time"),
  },
  (t) => [
    primaryKey({ columns: [t.site, t.cateId] }),
    uniqueIndex("meli_categories_id_key").on(t.id),
    index("meli_categories_parent_idx").on(t.site, t.pId, t.sort),
  ],
);

/** A category's attributes (spec §3 Category attribute), with Mercado Libre's tags, value types and units kept. */
export const meliCategoryAttributes = pgTable(
  "meli_category_attributes",
  {
    site: integer("site").notNull(),
    cateId: text("cate_id").notNull(),
    attributes: jsonb("attributes").notNull().default([]),
    attributeCount: integer("attribute_count").notNull().default(0),
    requiredCount: integer("required_count").notNull().default(0),
    /** Hash of what Mercado Libre answered: an unchanged list is not written again (its zh stays). */
    hash: text("hash").notNull(),
    syncTime: time("sync_time").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.site, t.cateId] })],
);

/** Per site: the tree as GetAllCategory serves it (built once per change) and its version, counts and sync times. */
export const meliCategorySites = pgTable("meli_category_sites", {
  site: integer("site").primaryKey(),
  /** A hash of `tree`: the console's cache key (ETag). */
  version: text("version").notNull(),
  /** The picker's tree as JSON text: enabled categories only, leaves marked. */
  tree: text("tree").notNull(),
  categoryCount: integer("category_count").notNull().default(0),
  leafCount: integer("leaf_count").notNull().default(0),
  nodeCount: integer("node_count").notNull().default(0),
  syncTime: time("sync_time"),
  feeSyncTime: time("fee_sync_time"),
  attrSyncTime: time("attr_sync_time"),
  lastModificationTime: time("last_modification_time").notNull().defaultNow(),
});

/**
 * Mercado Libre's fees for a category and listing type (GET /sites/{SITE}/listing_prices), cached for publishing
 * (modules/publishing/fees.ts, read again after 24 h). Platform data like the categories: no tenant_id (migration 0011).
 */
export const meliListingFees = pgTable(
  "meli_listing_fees",
  {
    /** 1-5 (Site): the category's site (5 for a global-selling category). */
    site: integer("site").notNull(),
    cateId: text("cate_id").notNull(),
    listingType: text("listing_type").notNull(),
    /** sale_fee_details.percentage_fee, e.g. 13.50. */
    percentageFee: numeric("percentage_fee", { precision: 6, scale: 2 }).notNull(),
    /** The fixed fee per sale charged on a low price (0 when none; global selling has none). */
    fixedFee: numeric("fixed_fee", { precision: 18, scale: 2 }).notNull().default("0"),
    /** The price from which no fixed fee is charged, as a probe at it confirmed; null: charged at every price. */
    fixedFeeUnder: numeric("fixed_fee_under", { precision: 18, scale: 2 }),
    /** listing_fee_amount. */
    listingFee: numeric("listing_fee", { precision: 18, scale: 2 }).notNull().default("0"),
    currency: text("currency").notNull(),
    fetchedAt: time("fetched_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.site, t.cateId, t.listingType] })],
);

/** Gender mapping (spec §3): which attribute of a domain holds the gender, for size charts. Built by the attribute sync. */
export const meliGenderMappings = pgTable(
  "meli_gender_mappings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    site: integer("site").notNull(),
    domainId: text("domain_id").notNull(),
    genderAttrId: text("gender_attr_id").notNull(),
    genderAttrName: text("gender_attr_name").notNull(),
    /** A readable name for the domain: the full name of a category in it. */
    alias: text("alias"),
    creationTime: time("creation_time").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("meli_gender_mappings_domain_key").on(t.site, t.domainId)],
);

/**
 * The pixel size of a picture URL as its first bytes tell it (issue 15: the pre-flight's picture size rule), probed by
 * modules/publishing/pictures.ts. Global like the categories (the same URL is the same picture for every tenant): no
 * tenant_id; read-only for erp_app, written by host-side work (migration 0012). A failed probe keeps its error and is
 * tried again after an hour; a size is kept.
 */
export const imageSizes = pgTable("image_sizes", {
  /** sha256 of the URL, hex. */
  urlHash: text("url_hash").primaryKey(),
  url: text("url").notNull(),
  width: integer("width"),
  height: integer("height"),
  /** Why the size is unknown (HTTP status, not an image, timeout, refused address); null when known. */
  error: text("error"),
  checkedAt: time("checked_at").notNull().defaultNow(),
});

// Publishing (issue 15). A publish batch is one Publish call: its request and counts. Each product × shop × site it
// covers gets a listing row when the batch is accepted (status Pending, or Skipped with the pre-flight's reasons); the
// row's id is the stable key of that publish: a job retried after a crash looks the item up by it before creating
// again. Listings stay after publishing: the listing centre works on the same rows.
export const publishBatches = pgTable(
  "publish_batches",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    accountGroupId: uuid("account_group_id").notNull(),
    /** Our site numbers (1-5) published to. */
    sites: jsonb("sites").notNull().default([]),
    /** PublishBatchStatus; negative while the batch is written or removed (publishing's HiddenBatchStatus). */
    status: integer("status").notNull(),
    /** Listings of the batch: all, created, refused by Mercado Libre or failed, skipped by the pre-flight check. */
    total: integer("total").notNull().default(0),
    success: integer("success").notNull().default(0),
    fail: integer("fail").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    /** The publish request as accepted (overrides, listing type, prefixes...). */
    request: jsonb("request").notNull().default({}),
    ...creation,
    lastUpdateTime: time("last_update_time").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("publish_batches_tenant_creation_idx").on(t.tenantId, t.creationTime),
    // A batch still being written or being removed (a negative status: modules/publishing/batch-write.ts), hidden from
    // every read; its sweep finds it by its last touch (migration 0028).
    index("publish_batches_hidden_idx")
      .on(t.tenantId, t.lastUpdateTime)
      .where(sql`${t.status} < 0`),
  ],
);

/** A listing (spec §3 Listing): one product on one site of one shop, with what Mercado Libre answered. */
export const listings = pgTable(
  "listings",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    batchId: uuid("batch_id"),
    accountGroupId: uuid("account_group_id").notNull(),
    /** The shop account (the group's account on this site). */
    accountId: uuid("account_id").notNull(),
    /** Who owns it: the product's owner (a sub-account sees its own listings). */
    userId: uuid("user_id").notNull(),
    /** The product it was published from; null for a listing imported from Mercado Libre that no product's SKU matches. */
    productId: uuid("product_id"),
    productLabelId: uuid("product_label_id"),
    site: integer("site").notNull(),
    /** The global item (CBT…) a cross-border listing belongs to; the site item is itemId. */
    cbtId: text("cbt_id"),
    itemId: text("item_id"),
    cateId: text("cate_id"),
    cateName: text("cate_name"),
    title: text("title"),
    /** ListingStatus. */
    status: integer("status").notNull(),
    price: numeric("price", { precision: 18, scale: 2 }),
    currency: text("currency"),
    /** The price breakdown (shared/publish/price.ts) the price came from: cost, fees, freight, margin. */
    priceContent: jsonb("price_content"),
    /** Why it is not live, in Chinese: the pre-flight's problems or Mercado Libre's refusal. */
    reason: text("reason"),
    /** Pre-flight problems and Mercado Libre's causes as data ({code, field, message, severity, fix}). */
    problems: jsonb("problems").$type<z.infer<typeof problem>[]>().notNull().default([]),
    warningMessage: text("warning_message"),
    permalink: text("permalink"),
    listingType: text("listing_type"),
    weight: numeric("weight", { precision: 12, scale: 2 }),
    size: text("size"),
    image: text("image"),
    stock: integer("stock"),
    variantInfos: jsonb("variant_infos").notNull().default([]),
    health: numeric("health", { precision: 5, scale: 2 }),
    orders: integer("orders").notNull().default(0),
    views: integer("views").notNull().default(0),
    /** Publish attempts made by jobs (a retried job looks up its earlier attempt first). */
    attempts: integer("attempts").notNull().default(0),
    /** A copy the seller asked for (Publish isAllowDuplicate): not held to one listing per product, shop and site. */
    duplicateAllowed: boolean("duplicate_allowed").notNull().default(false),
    /** 重新定价 (issue 32, migration 0033): the price and breakdown the last Reprice replaced, its batch and why. */
    previousPrice: numeric("previous_price", { precision: 18, scale: 2 }),
    previousPriceContent: jsonb("previous_price_content"),
    repriceTaskId: uuid("reprice_task_id"),
    repriceReason: text("reprice_reason"),
    /**
     * The margin stored (issue 32, migration 0034; listings/margin-sql.ts): when priced (price_content's) and now, in
     * minor units of the formula's currency, now's % of the buyer's price, its level (0 ok, 1 under the shop's minimum,
     * 2 a loss; null: no formula) and when computed (null: to compute again, cleared by a trigger on a price change).
     */
    marginPriced: bigint("margin_priced", { mode: "number" }),
    marginNow: bigint("margin_now", { mode: "number" }),
    marginNowPercent: numeric("margin_now_percent"),
    marginLevel: smallint("margin_level"),
    marginAt: time("margin_at"),
    /** The day of the last automatic repricing and the price the listing had before the first one that day. */
    autoRepriceDay: date("auto_reprice_day", { mode: "string" }),
    autoRepriceDayPrice: numeric("auto_reprice_day_price", { precision: 18, scale: 2 }),
    syncTime: time("sync_time"),
    ...creation,
    ...modification,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("listings_tenant_batch_idx").on(t.tenantId, t.batchId),
    index("listings_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
    index("listings_tenant_product_idx").on(t.tenantId, t.productId),
    index("listings_tenant_item_idx").on(t.tenantId, t.itemId),
    // The listing centre's filters and sorts (migration 0013; there the status, site, group, account and user indexes
    // also INCLUDE account_group_id and account_id, which drizzle cannot declare).
    index("listings_tenant_status_creation_idx").on(t.tenantId, t.status, t.creationTime, t.id),
    index("listings_tenant_site_creation_idx").on(t.tenantId, t.site, t.creationTime, t.id),
    index("listings_tenant_group_creation_idx").on(t.tenantId, t.accountGroupId, t.creationTime, t.id),
    index("listings_tenant_account_creation_idx").on(t.tenantId, t.accountId, t.creationTime, t.id),
    index("listings_tenant_user_creation_idx").on(t.tenantId, t.userId, t.creationTime, t.id),
    index("listings_tenant_label_creation_idx")
      .on(t.tenantId, t.productLabelId, t.creationTime, t.id)
      .where(sql`${t.productLabelId} is not null`),
    index("listings_tenant_cbt_idx")
      .on(t.tenantId, t.cbtId, t.status)
      .where(sql`${t.cbtId} is not null`),
    index("listings_tenant_cate_idx").on(t.tenantId, t.cateId),
    index("listings_tenant_reprice_idx")
      .on(t.tenantId, t.repriceTaskId)
      .where(sql`${t.repriceTaskId} is not null`),
    // The 利润率 filter (under the shop's minimum, a loss) newest first, and the rows whose margin is to compute again.
    index("listings_tenant_margin_creation_idx")
      .on(t.tenantId, t.creationTime, t.id)
      .where(sql`${t.marginLevel} > 0`),
    index("listings_tenant_margin_stale_idx")
      .on(t.tenantId, t.id)
      .where(sql`${t.marginAt} is null`),
    index("listings_tenant_modification_idx").on(t.tenantId, t.lastModificationTime, t.id),
    index("listings_tenant_price_idx").on(t.tenantId, t.price, t.id),
    index("listings_tenant_stock_idx").on(t.tenantId, t.stock, t.id),
    index("listings_tenant_orders_idx").on(t.tenantId, t.orders, t.id),
    index("listings_tenant_views_idx").on(t.tenantId, t.views, t.id),
    index("listings_tenant_warning_creation_idx")
      .on(t.tenantId, t.creationTime, t.id)
      .where(sql`${t.warningMessage} is not null and ${t.warningMessage} <> ''`),
    index("listings_title_trgm_idx").using("gin", t.title.op("gin_trgm_ops")),
    // One listing waiting, being published or live per product, shop and site (shared/publish/duplicates.ts
    // LISTED_STATUSES), unless a copy was asked for; imported listings (no batch) record items that already exist.
    uniqueIndex("listings_one_listed_per_shop_site_idx")
      .on(t.tenantId, t.productId, t.accountGroupId, t.site)
      .where(sql`${t.batchId} is not null and ${t.productId} is not null and not ${t.duplicateAllowed} and ${t.status} in (1, 2, 3, 4, 6)`),
  ],
);

/** The GTIN pool (MeliCode): codes the seller bought, each given to at most one variant ever. */
export const gtinCodes = pgTable(
  "gtin_codes",
  {
    tenantId: uuid("tenant_id").notNull(),
    code: text("code").notNull(),
    /** The listing that took it; null while unused. */
    listingId: uuid("listing_id"),
    usedTime: time("used_time"),
    ...creation,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.code] }), index("gtin_codes_tenant_unused_idx").on(t.tenantId, t.listingId, t.creationTime)],
);

/** Every marketplace call made for a listing (MeliStatLog): request and answer with tokens scrubbed. */
export const meliCallLogs = pgTable(
  "meli_call_logs",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    accountGroupId: uuid("account_group_id"),
    listingId: uuid("listing_id"),
    batchId: uuid("batch_id"),
    site: integer("site"),
    method: text("method").notNull(),
    path: text("path").notNull(),
    /** The HTTP status answered (null: no answer, e.g. a network failure). */
    status: integer("status"),
    request: text("request"),
    response: text("response"),
    durationMs: integer("duration_ms"),
    /** Why the call was made, when a repricing made it (重新定价 or the automatic one: issue 32). */
    reason: text("reason"),
    ...creation,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("meli_call_logs_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
    index("meli_call_logs_tenant_group_idx").on(t.tenantId, t.accountGroupId, t.creationTime),
  ],
);

// Orders (issue 18). One row per Mercado Libre order in the tenant (whichever way it arrived: a notification, the
// periodic pull, FetchOrders), its lines in order_items. The list's filters and sorts lead their own indexes with the
// default order (order time, id) after them (migration 0015 INCLUDEs the columns the visibility and the tabs read).
export const orders = pgTable(
  "orders",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    /** Mercado Libre's order id. */
    meliOrderId: text("meli_order_id").notNull(),
    /** Orders bought together share Mercado Libre's pack id. */
    packId: text("pack_id"),
    accountGroupId: uuid("account_group_id").notNull(),
    accountId: uuid("account_id").notNull(),
    /** The shop account's owner (a sub-account sees its shops' orders). */
    userId: uuid("user_id").notNull(),
    site: integer("site").notNull(),
    isCbt: boolean("is_cbt").notNull().default(false),
    currency: text("currency").notNull(),
    /** OrderStatus. */
    status: integer("status").notNull(),
    meliStatus: text("meli_status").notNull(),
    shipmentId: text("shipment_id"),
    shipmentStatus: text("shipment_status"),
    shipmentSubstatus: text("shipment_substatus"),
    buyerId: text("buyer_id"),
    buyerNickname: text("buyer_nickname"),
    totalAmount: numeric("total_amount", { precision: 18, scale: 2 }).notNull(),
    saleFee: numeric("sale_fee", { precision: 18, scale: 2 }).notNull(),
    freightFee: numeric("freight_fee", { precision: 18, scale: 2 }).notNull(),
    cost: numeric("cost", { precision: 18, scale: 2 }).notNull(),
    profit: numeric("profit", { precision: 18, scale: 2 }).notNull(),
    /** The profit breakdown (contract/orders.ts profitBreakdown). */
    profitDetail: jsonb("profit_detail").notNull().default({}),
    logisticsName: text("logistics_name"),
    logisticsNumber: text("logistics_number"),
    thumb: text("thumb"),
    /** The buyer's address (contract/orders.ts orderAddress). */
    address: jsonb("address"),
    orderTime: time("order_time").notNull(),
    deliveryTime: time("delivery_time"),
    signingTime: time("signing_time"),
    estimatedDeliveryTime: time("estimated_delivery_time"),
    mustSendTime: time("must_send_time"),
    /** Mercado Libre's last_updated of what is stored: an older read never lands over a newer one. */
    meliUpdated: time("meli_updated"),
    syncTime: time("sync_time").notNull().defaultNow(),
    ...creation,
    ...modification,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("orders_tenant_meli_order_key").on(t.tenantId, t.meliOrderId),
    index("orders_tenant_time_idx").on(t.tenantId, t.orderTime, t.id),
    index("orders_tenant_status_time_idx").on(t.tenantId, t.status, t.orderTime, t.id),
    index("orders_tenant_site_time_idx").on(t.tenantId, t.site, t.orderTime, t.id),
    index("orders_tenant_group_time_idx").on(t.tenantId, t.accountGroupId, t.orderTime, t.id),
    // A shop group's status tab, the screen's usual filter (migration 0021, INCLUDE account_id and site).
    index("orders_tenant_group_status_time_idx").on(t.tenantId, t.accountGroupId, t.status, t.orderTime, t.id),
    index("orders_tenant_account_time_idx").on(t.tenantId, t.accountId, t.orderTime, t.id),
    index("orders_tenant_user_time_idx").on(t.tenantId, t.userId, t.orderTime, t.id),
    index("orders_tenant_pack_idx")
      .on(t.tenantId, t.packId)
      .where(sql`${t.packId} is not null`),
    index("orders_tenant_must_send_idx").on(t.tenantId, t.mustSendTime, t.id),
    index("orders_tenant_modification_idx").on(t.tenantId, t.lastModificationTime, t.id),
  ],
);

/** An order's lines, with the listing and product each came from when recorded. */
export const orderItems = pgTable(
  "order_items",
  {
    tenantId: uuid("tenant_id").notNull(),
    orderId: uuid("order_id").notNull(),
    line: integer("line").notNull(),
    itemId: text("item_id").notNull(),
    variationId: text("variation_id"),
    title: text("title").notNull(),
    thumb: text("thumb"),
    link: text("link"),
    quantity: integer("quantity").notNull(),
    unitPrice: numeric("unit_price", { precision: 18, scale: 2 }).notNull(),
    saleFee: numeric("sale_fee", { precision: 18, scale: 2 }).notNull(),
    sku: text("sku"),
    vkes: jsonb("vkes").notNull().default([]),
    listingId: uuid("listing_id"),
    productId: uuid("product_id"),
    /** Marked bought (issue 32, migration 0031): what it cost in minor units of purchaseCurrency, and the purchase order. */
    purchaseCost: bigint("purchase_cost", { mode: "number" }),
    purchaseCurrency: text("purchase_currency"),
    purchaseOrderNo: text("purchase_order_no"),
    purchaseTime: time("purchase_time"),
    purchaserId: uuid("purchaser_id"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.orderId, t.line] }),
    index("order_items_tenant_product_idx").on(t.tenantId, t.productId),
    index("order_items_tenant_item_idx").on(t.tenantId, t.itemId),
  ],
);

// Freight rules, size charts and the selection library (issue 18). Freight rules and size charts are the tenant's
// (pulled by its users, read by its publishing); the selection library is the host's own data: its rows carry the host's
// tenant id, so the same row-level security applies and only host-side work (erp_host) reaches them.

/** A freight rule (spec §3: start, end, freight, site): the freight of a parcel over `start` up to `end` grams. */
export const meliFreightRules = pgTable(
  "meli_freight_rules",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    /** 1-5 (Site); 5 is global selling's table (USD). */
    site: integer("site").notNull(),
    /** Grams: the band holds weights over start, up to and with end. */
    start: numeric("start", { precision: 12, scale: 2 }).notNull(),
    end: numeric("end", { precision: 12, scale: 2 }).notNull(),
    freight: numeric("freight", { precision: 18, scale: 2 }).notNull(),
    /** The table's currency (the site's; USD for global selling). */
    currency: text("currency").notNull(),
    ...creation,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index("meli_freight_rules_tenant_site_idx").on(t.tenantId, t.site, t.start)],
);

/** A seller's size chart (Mercado Libre /catalog/charts) pulled for a shop group; its rows are what SIZE_GRID_ROW_ID names. */
export const meliSizeCharts = pgTable(
  "meli_size_charts",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    accountGroupId: uuid("account_group_id").notNull(),
    /** Mercado Libre's chart id (SIZE_GRID_ID's value). */
    chartId: text("chart_id").notNull(),
    site: integer("site").notNull(),
    domainId: text("domain_id").notNull(),
    name: text("name").notNull(),
    chartType: text("chart_type").notNull(),
    /** The GENDER value the chart is for, when it names one. */
    gender: text("gender"),
    mainAttributeId: text("main_attribute_id"),
    /** [{id, label}]: each row's id and its main attribute's value. */
    rows: jsonb("rows").notNull().default([]),
    fetchedAt: time("fetched_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("meli_size_charts_chart_key").on(t.tenantId, t.accountGroupId, t.chartId),
    index("meli_size_charts_tenant_domain_idx").on(t.tenantId, t.accountGroupId, t.domainId),
  ],
);

/** A competitor listing the host watches (spec §3 Competitor listing), as its latest read left it. */
export const selectionSkus = pgTable(
  "selection_skus",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    /** The marketplace item id (MLM123…). */
    sku: text("sku").notNull(),
    /** What the host gave: the listing URL, or the id itself. */
    url: text("url").notNull(),
    site: integer("site"),
    status: text("status"),
    sellerId: text("seller_id"),
    sellerCountry: text("seller_country"),
    title: text("title"),
    permalink: text("permalink"),
    image: text("image"),
    price: numeric("price", { precision: 18, scale: 2 }),
    originalPrice: numeric("original_price", { precision: 18, scale: 2 }),
    currencyId: text("currency_id"),
    sold: integer("sold"),
    isCbt: boolean("is_cbt").notNull().default(false),
    /** The item's own creation date on Mercado Libre. */
    skuCreateDate: time("sku_create_date"),
    /** Why the last read failed, in Chinese; null after a good read. */
    error: text("error"),
    lastReadTime: time("last_read_time"),
    /** When the job reads it next (the job carries it: a job whose time is not the row's is a stale one). */
    nextReadTime: time("next_read_time").notNull(),
    ...creation,
    ...modification,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("selection_skus_sku_key").on(t.tenantId, t.sku),
    index("selection_skus_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
  ],
);

/** One read of a watched listing: its price and sold count then (the trend). */
export const selectionSnapshots = pgTable(
  "selection_snapshots",
  {
    tenantId: uuid("tenant_id").notNull(),
    skuId: uuid("sku_id").notNull(),
    readTime: time("read_time").notNull(),
    price: numeric("price", { precision: 18, scale: 2 }),
    originalPrice: numeric("original_price", { precision: 18, scale: 2 }),
    sold: integer("sold"),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.skuId, t.readTime] })],
);

// Sub-account packages (issue 19): what the host offers, and what tenants bought from their wallet.

/** A package on offer, set by the host and read by every tenant (reference data, like currencies: no tenant_id). */
export const subAccountPackages = pgTable(
  "sub_account_packages",
  {
    id: uuid("id").primaryKey(),
    name: text("name").notNull(),
    /** Sub-accounts it allows. */
    count: integer("count").notNull(),
    /** How long they are allowed, in days from the purchase. */
    days: integer("days").notNull(),
    /** Price in fen (integer minor units). */
    priceFen: integer("price_fen").notNull(),
    /** Only active packages are on offer; a withdrawn one stays for the purchases that name it. */
    isActive: boolean("is_active").notNull().default(true),
    sort: integer("sort").notNull().default(0),
    ...creation,
    ...modification,
  },
  (t) => [index("sub_account_packages_sort_idx").on(t.sort, t.creationTime)],
);

/** One purchase of a package: `count` more sub-accounts allowed from its creation until expire_time. */
export const subAccountOrders = pgTable(
  "sub_account_orders",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    packageId: uuid("package_id").notNull(),
    /** The package as bought (the host may edit it later). */
    packageName: text("package_name").notNull(),
    /** SubAccountType (Package for a purchase). */
    type: integer("type").notNull(),
    count: integer("count").notNull(),
    days: integer("days").notNull(),
    priceFen: integer("price_fen").notNull(),
    expireTime: time("expire_time").notNull(),
    ...creation,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("sub_account_orders_tenant_expire_idx").on(t.tenantId, t.expireTime),
    index("sub_account_orders_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
  ],
);

// The wallet (issue 19, server/modules/wallet): the ledger in integer fen, top-ups the host reviews, withdrawals. The
// balance itself is tenants.balance_fen (the tenant's row is the wallet row every movement locks), with tenants.balance
// (numeric yuan) kept equal to it / 100 in the same transaction for the session and the tenant lists that read it.

/** The append-only ledger: one row per movement, with the balance after it (the sum of amounts is the balance). */
export const walletLogs = pgTable(
  "wallet_logs",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    /** WalletLogType. */
    type: integer("type").notNull(),
    /** Signed: + credit, - debit. */
    amountFen: bigint("amount_fen", { mode: "number" }).notNull(),
    balanceAfterFen: bigint("balance_after_fen", { mode: "number" }).notNull(),
    /** Who moved it (the host user for a host adjustment); null for the system. */
    userId: uuid("user_id"),
    remark: text("remark"),
    /** The charge record, withdrawal or sub-account order it belongs to. */
    refId: uuid("ref_id"),
    /** A commission's paying tenant. */
    inviteTenantId: uuid("invite_tenant_id"),
    creationTime: time("creation_time").notNull().defaultNow(),
    /**
     * The entry's place in its wallet's ledger: drawn from one sequence on insert, which the ledger does holding the
     * wallet's row lock, so within a wallet it rises in the order the balances chain (migration 0025). The list and the
     * export show this order; creation times are the transactions' starts, not that order.
     */
    seq: bigint("seq", { mode: "number" })
      .notNull()
      .default(sql`nextval('wallet_log_seq')`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("wallet_logs_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
    uniqueIndex("wallet_logs_tenant_seq_key").on(t.tenantId, t.seq),
    index("wallet_logs_tenant_type_seq_idx").on(t.tenantId, t.type, t.seq),
    /**
     * GetWalletLogs sorted by money (either way, the id breaking ties): an index range, not a sort of the ledger; under
     * a Type or a UserId filter its own range (a type's amounts share a sign, and a user's entries are mostly its
     * debits: on the amount alone, "largest first" would step over every top-up before the first of them).
     */
    index("wallet_logs_tenant_amount_idx").on(t.tenantId, t.amountFen, t.id),
    index("wallet_logs_tenant_type_amount_idx").on(t.tenantId, t.type, t.amountFen, t.id),
    index("wallet_logs_tenant_user_amount_idx").on(t.tenantId, t.userId, t.amountFen, t.id),
    check("wallet_logs_balance_after_not_negative", sql`${t.balanceAfterFen} >= 0`),
    /** One commission per purchase entry (ref_id: the buyer's debit), whatever retries happen (issue 19 Agency). */
    uniqueIndex("wallet_logs_commission_ref_key")
      .on(t.tenantId, t.refId)
      .where(sql`${t.type} = 6`),
  ],
);

/** A top-up: the seller's transfer with its receipt image, Pending until the host approves (credit) or rejects it. */
export const chargeRecords = pgTable(
  "charge_records",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    userId: uuid("user_id"),
    moneyFen: bigint("money_fen", { mode: "number" }).notNull(),
    /** ChargePayType. */
    payType: integer("pay_type").notNull(),
    /** The receipt: "<tenantId>/<file>" under DATA_DIR/receipts. */
    pic: text("pic").notNull(),
    remark: text("remark"),
    /** ChargeStatus. */
    status: integer("status").notNull(),
    reason: text("reason"),
    auditTime: time("audit_time"),
    auditorId: uuid("auditor_id"),
    creationTime: time("creation_time").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("charge_records_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
    index("charge_records_status_creation_idx").on(t.status, t.creationTime),
    /** The host's audit finds a record by its id alone. */
    index("charge_records_id_idx").on(t.id),
    check("charge_records_money_positive", sql`${t.moneyFen} > 0`),
  ],
);

/** A withdrawal: its money held (debited) when requested, returned when the host rejects it. */
export const withdrawals = pgTable(
  "withdrawals",
  {
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    userId: uuid("user_id"),
    moneyFen: bigint("money_fen", { mode: "number" }).notNull(),
    alipayAccount: text("alipay_account").notNull(),
    pic: text("pic"),
    remark: text("remark"),
    /** WithdrawSource. */
    source: integer("source").notNull(),
    /** WithdrawStatus. */
    status: integer("status").notNull(),
    reason: text("reason"),
    auditTime: time("audit_time"),
    auditorId: uuid("auditor_id"),
    creationTime: time("creation_time").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("withdrawals_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
    index("withdrawals_status_creation_idx").on(t.status, t.creationTime),
    /** The host's audit finds a record by its id alone. */
    index("withdrawals_id_idx").on(t.id),
    check("withdrawals_money_positive", sql`${t.moneyFen} > 0`),
  ],
);

// The authorization centre (issue 19, server/modules/module-auth): tenant A (the applicant, tenant_id) asks tenant B
// (the grantor, auth_tenant_id) with a code B generated; B audits. A grant in force lets A's users act on the granted
// part of B's data (auth_content), checked per request against the row. Besides the tenant policies, B reaches the
// applies made to it through a second policy on auth_tenant_id (migration 0019).

/** A one-time authorization code a grantor made: only its SHA-256 is kept; ApplyAuth consumes it. */
export const moduleAuthCodes = pgTable(
  "module_auth_codes",
  {
    /** The grantor (B). */
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    /** hex SHA-256 of the normalized code (16 Crockford base-32 characters). */
    codeHash: text("code_hash").notNull(),
    expireTime: time("expire_time").notNull(),
    /** Set once by the ApplyAuth that consumed it. */
    usedTime: time("used_time"),
    usedByTenantId: uuid("used_by_tenant_id"),
    applyId: uuid("apply_id"),
    ...creation,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    /** ApplyAuth finds a code by its hash alone (the applicant does not know the grantor yet). Not unique: a unique
     * index must hold tenant_id (Citus); 80 random bits do not collide. */
    index("module_auth_codes_hash_idx").on(t.codeHash),
    index("module_auth_codes_tenant_creation_idx").on(t.tenantId, t.creationTime),
  ],
);

/** An application for (and, once approved, the grant of) access to modules of another tenant. */
export const moduleAuths = pgTable(
  "module_auths",
  {
    /** The applicant (A), whose users act on B's data once approved. */
    tenantId: uuid("tenant_id").notNull(),
    id: uuid("id").notNull(),
    /** The grantor (B), whose data it opens. */
    authTenantId: uuid("auth_tenant_id").notNull(),
    /** ModuleAuthContent values, e.g. ["products"]. */
    authContent: jsonb("auth_content").notNull().default([]),
    /** Until when the grant lasts (asked by A; B approves it as asked). */
    expireTime: time("expire_time").notNull(),
    /** ModuleAuthStatus (Expired is derived from expire_time on reading, never stored). */
    auditStatus: integer("audit_status").notNull(),
    /** A's note to B. */
    remark: text("remark"),
    /** B's reason for a rejection or a revocation. */
    reason: text("reason"),
    applicantId: uuid("applicant_id").notNull(),
    auditorId: uuid("auditor_id"),
    auditTime: time("audit_time"),
    revokeTime: time("revoke_time"),
    /** How many times A submitted it (1 + ReApplyAuth calls). */
    applyCount: integer("apply_count").notNull().default(1),
    ...creation,
    ...modification,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("module_auths_tenant_creation_idx").on(t.tenantId, t.creationTime, t.id),
    /** The grantor's side: the applies made to it, and a grant's check by (A, B). */
    index("module_auths_auth_tenant_creation_idx").on(t.authTenantId, t.creationTime, t.id),
    check("module_auths_not_self", sql`${t.tenantId} <> ${t.authTenantId}`),
  ],
);

// Statistics rollups (issue 31, migration 0030): kept by triggers on products and listings, read by the host's
// per-tenant statistics (modules/tenant-admin/statistics.ts). Events per UTC day, never decremented.

/** Products that entered a tenant's library per UTC day of their creation and per owner. */
export const tenantProductDays = pgTable(
  "tenant_product_days",
  {
    tenantId: uuid("tenant_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    userId: uuid("user_id").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.userId] }), index("tenant_product_days_day_idx").on(t.day, t.tenantId)],
);

/** Listings published per UTC day and shop account. */
export const tenantListingDays = pgTable(
  "tenant_listing_days",
  {
    tenantId: uuid("tenant_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    accountId: uuid("account_id").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.accountId] }), index("tenant_listing_days_day_idx").on(t.day, t.tenantId)],
);
