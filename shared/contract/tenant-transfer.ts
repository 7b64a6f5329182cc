// Moving and copying between tenants (spec §7 Hosted: GetTenantMeliAccountInfo, MigrateAccount, RemoveMeliAccount,
// CopyProductsToTenant, CopyCollectsToTenant, CopyGroupsToTenant, MigrateWord; Product: MigrateToProduct,
// MigrateFromProduct). Host-only. What each moves and how ids are remapped: docs/decisions.md "Moving and copying
// between tenants (issue 31)".
import { z } from "zod";
import { id, queryBool } from "./common.ts";

/** A repeated query key read as a list of 1 to `max` values. */
const queryIds = (max: number) => z.preprocess((v) => (v === undefined ? v : Array.isArray(v) ? v : [v]), z.array(id).min(1).max(max));

const site = z.number().int().min(1).max(5);
const ids = (max: number) => z.array(id).max(max).default([]);

// ---------------------------------------------------------------------------------------------------------------
// Shop groups.

export const tenantMeliAccountInfoInput = z.object({ tenantId: id });

const tenantShopAccount = z.object({
  id: z.string(),
  site: z.number().int(),
  siteCode: z.string(),
  custId: z.string(),
  name: z.string(),
  alias: z.string().nullable(),
  ownerId: z.string(),
  ownerName: z.string().nullable(),
  isEnabled: z.boolean(),
});

const tenantShopGroup = z.object({
  groupId: z.string(),
  custId: z.string(),
  siteCode: z.string(),
  isCbt: z.boolean(),
  name: z.string(),
  alias: z.string().nullable(),
  ownerId: z.string(),
  ownerName: z.string().nullable(),
  /** MeliAuthStatus: 1 authorized, 2 needs authorizing again. */
  authStatus: z.number().int(),
  sites: z.array(z.number().int()),
  /** What moves with the group: its listings, and the live products they were published from. */
  listingCount: z.number().int(),
  productCount: z.number().int(),
  accounts: z.array(tenantShopAccount),
});

/** The tenant's shop groups with their shops, and its users (who may own what a migration brings). */
export const tenantMeliAccountInfo = z.object({
  tenantId: z.string(),
  tenantName: z.string(),
  users: z.array(z.object({ id: z.string(), userName: z.string(), isMainAccount: z.boolean() })),
  groups: z.array(tenantShopGroup),
});
export type TenantMeliAccountInfo = z.infer<typeof tenantMeliAccountInfo>;

/**
 * Which shop groups: those named (groupIds, accountGroupId, and the groups of the shop accounts selfIds), else those
 * selling on `sites`; with names and sites both, the named ones selling on those sites. A group whose seller (or one of
 * its shops' sellers) is in protectedCustIds is left alone.
 */
const shopSelection = z.object({
  groupIds: ids(500),
  accountGroupId: id.nullish(),
  selfIds: ids(500),
  sites: z.array(site).max(5).default([]),
  protectedCustIds: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[0-9A-Za-z_-]{1,40}$/, "卖家 ID 格式不正确"),
    )
    .max(500)
    .default([]),
});
export type ShopSelection = z.output<typeof shopSelection>;

export const migrateAccountInput = shopSelection.extend({
  srcTenantId: id,
  destTenantId: id,
  /** Who owns the shops, listings and products in the destination (default its main account). */
  userId: id.nullish(),
  /** Remove from the source the products that moved with the listings (those no shop left there lists). */
  isDeleteProduct: z.boolean().default(false),
  /** Move the groups' listings (MeliStat); without it they are removed from the source and not moved. */
  isMigrateStat: z.boolean().default(true),
});

export const removeMeliAccountInput = shopSelection.extend({ tenantId: id });

// ---------------------------------------------------------------------------------------------------------------
// Copies.

const tenantPair = { srcTenantId: id, destTenantId: id };
const users = {
  /** Only what this user of the source owns (default: the whole tenant's). */
  srcUserId: id.optional(),
  /** Who owns the copies (default: the destination's main account). */
  destUserId: id.optional(),
};

export const copyToTenantQuery = z.object({ ...tenantPair, ...users, isDeleteSrc: queryBool.default(false) });
export const copyGroupsToTenantQuery = z.object({ ...tenantPair, ...users });
export const migrateWordQuery = z.object(tenantPair);

/** MigrateToProduct: chosen products of one tenant, copied (or moved) to another. */
export const migrateToProductBody = z.object({
  ...tenantPair,
  productIds: z.array(id).min(1).max(1000),
  destUserId: id.nullish(),
  isDeleteSrc: z.boolean().default(false),
});

/** MigrateFromProduct: chosen products of one tenant (SrcTenantId), copied into each of TenantIds. */
export const migrateFromProductQuery = z.object({
  SrcTenantId: id,
  TenantIds: queryIds(50),
  ProductIds: queryIds(1000),
});

/** A transfer runs as a task (task centre, live progress); total is how many rows it has to go through. */
export const transferTaskResult = z.object({ taskId: z.string(), total: z.number().int() });
export type TransferTaskResult = z.infer<typeof transferTaskResult>;

export const migrateWordResult = z.object({ count: z.number().int(), skipped: z.number().int() });
