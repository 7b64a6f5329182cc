// The host's maintenance of one tenant (spec §7 Hosted, issue 31): deleted-product recovery and purge, clearing a
// tenant's call log or its data, server-side caches, the shared rate state ("Dist"), index and counter checks, and the
// per-tenant statistics. Every call here is host-only.
import { z } from "zod";
import { id, isoDate, MAX_PAGE_SIZE, queryInt } from "./common.ts";

/** An ISO date PostgreSQL can store (year 1 on; the pattern allows year 0000, which it has not). */
const when = isoDate.refine((d) => d.getUTCFullYear() >= 1, "日期超出范围");

const after = (from: string, to: string) => (q: Record<string, unknown>) =>
  !(q[from] instanceof Date && q[to] instanceof Date) || (q[to] as Date).getTime() > (q[from] as Date).getTime();

/** ReturnDelProduct: the tenant's products deleted in [startTime, endTime), of one owner when userId is given. */
export const returnDelProductQuery = z
  .object({
    tenantId: id,
    userId: id.optional(),
    /** Deletion time from (inclusive). */
    startTime: when,
    /** Deletion time up to (exclusive). */
    endTime: when,
  })
  .refine(after("startTime", "endTime"), { message: "结束时间必须晚于开始时间", path: ["endTime"] });

/** RemoveAllDelProduct: every deleted product of the tenant, for good. */
export const removeAllDelProductQuery = z.object({ tenantId: id });

/** ClearMeliStat: the tenant's marketplace call log (MeliStatLog), all of it or the calls before BeforeTime. */
export const clearMeliStatQuery = z.object({
  TenantId: id,
  /** Only the calls made before this time (absent: every call). */
  BeforeTime: when.optional(),
});

/** ClearTenantInfo: the tenant's data; the host types the tenant's name to confirm (it must equal the name exactly). */
export const clearTenantInfoQuery = z.object({
  tenantId: id,
  confirmTenantName: z.string().trim().min(1).max(64),
});

/** A started maintenance task: its id (task centre, live progress) and how much it has to go through. */
export const adminTaskStarted = z.object({
  taskId: z.string(),
  /** Products to restore or purge, call-log rows to clear, or tables to clear (ClearTenantInfo). */
  total: z.number().int(),
});
export type AdminTaskStarted = z.infer<typeof adminTaskStarted>;

/**
 * The server-side caches the host can clear: the tenant's shop access tokens (the next marketplace call refreshes
 * them), Mercado Libre's fees (read again at the next publish), the picture size probes (probed again), and the
 * picture hosts this process found down (tried again).
 */
const TENANT_CACHE_KEYS = ["ShopToken", "ListingFees", "ImageSizes", "DownHosts"] as const;
export type TenantCacheKey = (typeof TENANT_CACHE_KEYS)[number];
export const tenantCacheNames: Record<TenantCacheKey, string> = {
  ShopToken: "店铺访问令牌",
  ListingFees: "美客多费用",
  ImageSizes: "图片尺寸",
  DownHosts: "不可用的图片站点",
};

export const removeTenantCacheQuery = z.object({
  /** Which cache (absent: every cache of the tenant, which then must be given). */
  CacheKey: z.enum(TENANT_CACHE_KEYS).optional(),
  /** One shop group's token only (ShopToken). */
  AccountGroupId: id.optional(),
  TenantId: id.optional(),
});

export const removeTenantCacheResult = z.object({
  cleared: z.array(z.object({ cacheKey: z.enum(TENANT_CACHE_KEYS), name: z.string(), count: z.number().int() })),
});
export type RemoveTenantCacheResult = z.infer<typeof removeTenantCacheResult>;

/** RemoveDist: the rate state the processes share ("Dist"), what was dropped and what stays in force. */
export const removeDistResult = z.object({
  /** Rate buckets with nothing in force (a fresh bucket behaves the same), removed. */
  removedBuckets: z.number().int(),
  /** Buckets holding back calls (a 429's block, queued calls), kept. */
  keptBuckets: z.number().int(),
  /** Token refresh leases past their time, released. */
  clearedLeases: z.number().int(),
});
export type RemoveDistResult = z.infer<typeof removeDistResult>;

export const createTenantMongoIndexQuery = z.object({
  /** The tenant whose trigger-kept counters are checked and corrected (absent: only the tables and their indexes). */
  TenantId: id.optional(),
});

const tableCheck = z.object({
  table: z.string(),
  /** The planner's row estimate after ANALYZE. */
  rows: z.number(),
  /** Indexes the schema declares that were found, created again (missing), or rebuilt (invalid). */
  indexes: z.number().int(),
  missing: z.array(z.string()),
  recreated: z.array(z.string()),
  reindexed: z.array(z.string()),
});

export const createTenantMongoIndexResult = z.object({
  tables: z.array(tableCheck),
  /** The tenant's counters that triggers and writers keep, checked against a count of their rows. */
  counters: z.array(z.object({ name: z.string(), checked: z.number().int(), fixed: z.number().int() })),
  /** What was done, one line each (Chinese). */
  messages: z.array(z.string()),
});
export type CreateTenantMongoIndexResult = z.infer<typeof createTenantMongoIndexResult>;

/** GetStatLogStatics: marketplace calls per tenant over a period. status 1: answered 2xx; 2: anything else. */
export const getStatLogStaticsInput = z
  .object({
    tenantId: id.optional(),
    status: z.union([z.literal(1), z.literal(2)]).optional(),
    startTime: when.optional(),
    endTime: when.optional(),
  })
  .refine(after("startTime", "endTime"), { message: "结束时间必须晚于开始时间", path: ["endTime"] });

export const tenantCount = z.object({ tenantId: z.string(), tenantName: z.string(), count: z.number().int() });
export type TenantCount = z.infer<typeof tenantCount>;

/** The longest period the statistics answer (days). */
export const STATISTICS_MAX_DAYS = 366;
/** The period when none is given: the last 30 UTC days, today included. */
export const STATISTICS_DEFAULT_DAYS = 30;

const statisticsSortFields = ["productAckCount", "uploadStatCount", "activeAccountCount", "tenantName", "productCount"] as const;

export const getTenantStatisticsInfoQuery = z
  .object({
    TenantId: id.optional(),
    /** First UTC day (inclusive); default: STATISTICS_DEFAULT_DAYS - 1 days before EndDate. */
    StartDate: when.optional(),
    /** Last UTC day (inclusive); default: today. */
    EndDate: when.optional(),
    /** Tenants whose name contains this (ignored with TenantId). */
    TenantName: z.string().trim().max(64).optional(),
    SkipCount: queryInt(0).default(0),
    MaxResultCount: queryInt(1, MAX_PAGE_SIZE).default(100),
    Sorting: z
      .string()
      .trim()
      .regex(new RegExp(`^(${statisticsSortFields.join("|")})( (asc|desc))?$`, "i"), `must be one of ${statisticsSortFields.join(", ")}`)
      .optional(),
  })
  .refine((q) => !(q.StartDate && q.EndDate) || q.EndDate.getTime() >= q.StartDate.getTime(), {
    message: "结束日期不能早于开始日期",
    path: ["EndDate"],
  });

const figures = {
  /** Products that entered the library (collected, claimed, imported) in the period, deleted since or not. */
  productAckCount: z.number().int(),
  /** Listings published to Mercado Libre in the period (the item created). */
  uploadStatCount: z.number().int(),
  /** Shop accounts that published at least one listing in the period. */
  activeAccountCount: z.number().int(),
};

const tenantStatistics = z.object({
  tenantId: z.string(),
  tenantName: z.string(),
  ...figures,
  /** Live products now (not deleted). */
  productCount: z.number().int(),
  /** Enabled shop accounts now. */
  shopCount: z.number().int(),
});

const tenantStatisticsDay = z.object({ date: z.string(), ...figures });

const userStatistics = z.object({
  userId: z.string(),
  userName: z.string(),
  isMainAccount: z.boolean(),
  /** Products the user brought into the library in the period. */
  productCount: z.number().int(),
  /** Paid orders of the user's shops in the period, in CNY through the currency rates (orders without a rate left out). */
  totalAmount: z.string(),
});

export const tenantStatisticsInfo = z.object({
  /** The period answered, as UTC days (YYYY-MM-DD), both inclusive. */
  startDate: z.string(),
  endDate: z.string(),
  /** Over every tenant of the selection (not only the page). */
  totals: z.object(figures),
  tenants: z.object({ items: z.array(tenantStatistics), totalCount: z.number().int() }),
  /** One point per day of the period, over the selection: for the charts. */
  days: z.array(tenantStatisticsDay),
  /** With TenantId: each user of the tenant; otherwise empty. */
  users: z.array(userStatistics),
});
export type TenantStatisticsInfo = z.infer<typeof tenantStatisticsInfo>;
