// Shops and account groups (spec §3 Shops, §7 Meli and MeliAccount): the shop account as the wire carries it, the
// authorization calls, and the account calls' inputs. Field names as the spec spells them (isRecieveOrder).
import { z } from "zod";
import { id, pagedQuery, pagedResult, queryBool, queryInt, queryList } from "./common.ts";

/** Our site numbers (spec §1, §9) with Mercado Libre's site id, the currency a shop prices in and its Chinese name. */
export const MELI_SITES = {
  1: { code: "mx", meli: "MLM", currency: "MXN", name: "墨西哥" },
  2: { code: "bl", meli: "MLB", currency: "BRL", name: "巴西" },
  3: { code: "cl", meli: "MLC", currency: "CLP", name: "智利" },
  4: { code: "co", meli: "MCO", currency: "COP", name: "哥伦比亚" },
  5: { code: "cbt", meli: "CBT", currency: "USD", name: "跨境（CBT）" },
} as const;
export type MeliSiteNumber = keyof typeof MELI_SITES;
export function siteNumberOf(meliSiteId: string): MeliSiteNumber | null {
  for (const [n, s] of Object.entries(MELI_SITES)) if (s.meli === meliSiteId) return Number(n) as MeliSiteNumber;
  return null;
}

/** The language of a site's titles and names on Mercado Libre: es (mx, cl, co), pt (bl), en (cbt). */
export type SiteLanguage = "es" | "pt" | "en";
export const siteLanguage = (site: number): SiteLanguage => (site === 2 ? "pt" : site === 5 ? "en" : "es");

export const siteNumber = z.number().int().min(1).max(5);
const querySite = queryInt(1, 5);

// ---------------------------------------------------------------------------------------------------------------
// Meli: the authorization.

/** GetAuthUrl: uid is the user the shops will belong to (default the caller); sites are the sites to connect. */
export const getAuthUrlQuery = z.object({
  uid: id.optional(),
  sites: queryList(querySite).optional(),
});

/** AuthBack: where Mercado Libre sends the seller back (code and state; error when the seller cancelled). */
export const authBackQuery = z.object({
  state: z.string().min(1).max(2000),
  code: z.string().min(1).max(500).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});

const meliNumber = z.union([z.number().int().min(0), z.string().regex(/^\d{1,20}$/)]);

/** A Mercado Libre notification (MERCADO-LIBRE.md "Notifications"). */
export const meliCallbackBody = z.object({
  _id: z.string().max(100).optional(),
  resource: z.string().min(1).max(500),
  user_id: meliNumber,
  topic: z.string().min(1).max(100),
  application_id: meliNumber,
  attempts: z.number().int().min(0).max(10_000).optional(),
  sent: z.string().max(64).optional(),
  received: z.string().max(64).optional(),
});
export type MeliCallbackBody = z.infer<typeof meliCallbackBody>;
export const meliCallbackResult = z.object({ queued: z.boolean() });

// ---------------------------------------------------------------------------------------------------------------
// MeliAccount.

/** A shop account (spec §3). `group` is the account group's id; status is MeliAccountStatus. */
export const shopAccount = z.object({
  id: z.string(),
  group: z.string(),
  groupName: z.string(),
  ownerId: z.string(),
  ownerName: z.string().nullable(),
  alias: z.string().nullable(),
  site: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  corp: z.string().nullable(),
  status: z.number().int(),
  /** Why the shop needs authorizing again (status 3), else null. */
  statusMessage: z.string().nullable(),
  isCbt: z.boolean(),
  custId: z.string(),
  isFull: z.boolean(),
  adjustRate: z.number().nullable(),
  tinyPrice: z.number().nullable(),
  limitMinPrice: z.number().nullable(),
  limitMaxPrice: z.number().nullable(),
  currency: z.string(),
  brand: z.string().nullable(),
  creationTime: z.string(),
  isRecieveOrder: z.boolean(),
  sort: z.number().int(),
  overPrice: z.number().nullable(),
  /** Ours (issue 28): the minimum margin in % of the price (最低利润率); null: shared/publish/margin.ts DEFAULT_MIN_MARGIN. */
  minMargin: z.number().nullable(),
  /** Ours (issue 32): automatic repricing (自动调价) of listings under the minimum margin, within ± autoRepriceMaxPercent a day. */
  autoReprice: z.boolean(),
  /** The most % an automatic repricing moves a price in a day; null: shared/publish/margin.ts AUTO_REPRICE_DEFAULT_MAX_PERCENT. */
  autoRepriceMaxPercent: z.number().nullable(),
  lastModificationTime: z.string().nullable(),
});
export type ShopAccount = z.infer<typeof shopAccount>;
export const shopAccountPage = pagedResult(shopAccount);

const accountSortFields = ["creationTime", "lastModificationTime", "sort", "alias", "name", "site", "status"] as const;

export const getAccountsQuery = pagedQuery(accountSortFields).extend({
  KeyWord: z.string().max(100).optional(),
  Site: querySite.optional(),
  Status: queryInt(1, 3).optional(),
  UserId: id.optional(),
});

export const getMeliOneQuery = z.object({ id });

/** The pricing rules of a shop (spec: shop edit info). A field left out keeps its value; null clears it. */
export const accountInfo = z.object({
  alias: z.string().trim().max(64).nullable().optional(),
  /** The cents a price ends on, e.g. 0.99. */
  tinyPrice: z.number().min(0).lt(1).nullable().optional(),
  /** Multiplier applied to a product's price for this shop. */
  adjustRate: z.number().min(0.01).max(100).nullable().optional(),
  limitMinPrice: z.number().min(0).max(1_000_000_000).nullable().optional(),
  limitMaxPrice: z.number().min(0).max(1_000_000_000).nullable().optional(),
  brand: z.string().trim().max(100).nullable().optional(),
  sort: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  /** Amount added to the price after the rate (freight, packing), in the shop's currency. */
  overPrice: z.number().min(0).max(1_000_000_000).nullable().optional(),
  /** Ours (issue 28): the minimum margin in % of the price, under which the screens warn in red; null: the default. */
  minMargin: z.number().min(0).max(99.99).multipleOf(0.01).nullable().optional(),
  /** Ours (issue 32): automatic repricing within bounds (never under minMargin, at most ± autoRepriceMaxPercent a day). */
  autoReprice: z.boolean().optional(),
  autoRepriceMaxPercent: z.number().min(0.01).max(50).multipleOf(0.01).nullable().optional(),
});
export type AccountInfo = z.infer<typeof accountInfo>;

export const updateAccountInput = z.object({ id, info: accountInfo });
export const batchUpdateAccountInput = z.object({ ids: z.array(id).min(1).max(1000), info: accountInfo });
export const enableAccountInput = z.object({ ids: z.array(id).min(1).max(1000), enable: z.boolean() });
export const assignAccountInput = z.object({ ids: z.array(id).min(1).max(1000), userId: id });
export const enableReceiveOrderQuery = z.object({ Id: id, Enable: queryBool });
export const accountCountResult = z.object({ count: z.number().int() });

/** The cached shop account (spec §3): one per account group. */
const cachedShopAccount = z.object({
  groupId: z.string(),
  name: z.string(),
  alias: z.string().nullable(),
  brand: z.string().nullable(),
});
const accountGroup = cachedShopAccount.extend({ sites: z.array(z.number().int()) });
const nameRef = z.object({ id: z.string(), name: z.string() });

/** GetMeliAccGroup (spec: account-group response): sub users, cached shop accounts, module auths, and each group with its shops. */
export const accountGroupResponse = z.object({
  subUsers: z.array(nameRef),
  accs: z.array(cachedShopAccount),
  moduleAuths: z.array(nameRef),
  groups: z.array(
    accountGroup.extend({
      isCbt: z.boolean(),
      custId: z.string(),
      status: z.number().int(),
      statusMessage: z.string().nullable(),
      /** The users holding shops of the group. */
      subUsers: z.array(nameRef),
      accs: z.array(shopAccount),
    }),
  ),
});
export type AccountGroupResponse = z.infer<typeof accountGroupResponse>;

/** GetMeliShopIds: Mercado Libre's seller ids (custId) of the caller's shops. */
export const meliShopIds = z.array(z.string());
