// The database schema, shared by PGlite and PostgreSQL. Tenant-owned tables start their primary key with tenant_id
// (Citus-ready) and get row-level security from the migrations (see rls.sql in the migrations folder).
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

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
    /** Sub-accounts not deleted, kept by insertUser (and any future delete) in the same transaction: GetMyInfo reads it
     * on every call, where counting rows would cost a scan of the tenant's users. */
    subAccountCount: integer("sub_account_count").notNull().default(0),
    ...creation,
    ...modification,
    ...concurrency,
  },
  (t) => [uniqueIndex("tenants_normalized_name_key").on(t.normalizedName)],
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
    ...creation,
    lastUpdateTime: time("last_update_time").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("task_infos_tenant_creation_idx").on(t.tenantId, t.creationTime),
    index("task_infos_tenant_creator_idx").on(t.tenantId, t.creatorId, t.creationTime),
  ],
);
