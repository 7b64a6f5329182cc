// Mercado Libre's fees for publishing (issue 15 "Price per site"): listing_prices for each category and listing type of
// a publish request, read through the shop's client and cached in meli_listing_fees (platform data, like the
// categories) for 24 h. The planner reads the cache with one query; a pair whose fees could not be read is priced with
// the category row's percentage and says so (feeSource "category", a pre-flight warning), never silently.
//
// At most two probes per (site, category, listing type), never one per product: at price 1 (the percentage, the fixed
// fee a low price pays, the listing fee) with the shipping mode the items are published with (the fixed fee depends on
// it: comision-por-vender.md), and, when a fixed fee was charged, at the threshold the formula assumes
// (FIXED_FEE_UNDER: listing_prices does not publish it), which confirms that a price there pays none. When the probe
// still pays it, the cache keeps no threshold and the formula charges the fixed fee at every price.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database, Tx } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import { meliAccounts, meliListingFees, products } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { AppError } from "../../http/errors.ts";
import type { MeliClient, MeliExchange, MeliSession } from "../../integrations/mercadolibre/client.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { getListingPrices } from "../../integrations/mercadolibre/endpoints/fees.ts";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import type { PublishRequest } from "#shared/contract/publish.ts";
import type { PreflightPair } from "#shared/publish/preflight.ts";
import { FIXED_FEE_UNDER } from "#shared/publish/price.ts";
import { exchangeEntry, type MeliLogService } from "../meli-logs/index.ts";
import { pool } from "../../jobs/pool.ts";
import type { PublishingDeps } from "./types.ts";
import { categorySiteOf, isGlobalSite } from "#shared/publish/sites.ts";

/** A cached row older than this is read again before planning. */
const LISTING_FEES_MAX_AGE_MS = 24 * 3600_000;
/** listing_prices reads of one request at once. */
const LISTING_FEES_CONCURRENCY = 4;
/** The probe's price: low enough to pay the fixed fee wherever one is charged. */
const PROBE_PRICE = 1;

export type FeeKey = { site: number; cateId: string; listingType: string };
/** A cached row as the planner uses it (decimal strings). */
export type CachedFee = {
  percentageFee: string;
  fixedFee: string;
  fixedFeeUnder: string | null;
  listingFee: string;
  currency: string;
};

const keyOf = (k: { site: number; cateId: string }) => `${k.site}|${k.cateId}`;
/** The listing's currency for fees in a category of the site (global selling: USD). */
const currencyOf = (site: number) => (isGlobalSite(site) ? "USD" : MELI_SITES[site as MeliSiteNumber].currency);

/**
 * The (category site, category, listing type) of every product × shop of a request, as plan.ts picks the category: the
 * request's for the site, else the product's own when it is on that site; a global-selling shop lists in a site-5
 * category. Free listings pay no fees: none.
 */
export async function feeKeysOf(
  tx: Tx,
  input: { tenantId: string; request: PublishRequest; productIds: string[]; accounts: { id: string; site: number }[] },
): Promise<FeeKey[]> {
  const { tenantId, request, productIds, accounts } = input;
  if (request.listingType === "free" || !accounts.length) return [];
  const shops = await tx
    .select({ id: meliAccounts.id, isCbt: meliAccounts.isCbt })
    .from(meliAccounts)
    .where(
      and(
        eq(meliAccounts.tenantId, tenantId),
        inArray(
          meliAccounts.id,
          accounts.map((a) => a.id),
        ),
      ),
    );
  const cbt = new Set(shops.filter((s) => s.isCbt).map((s) => s.id));
  const sites = new Set(accounts.map((a) => categorySiteOf(cbt.has(a.id), a.site)));
  const requested = new Map(request.cateInfo.map((c) => [c.site, c.cateId]));
  const keys = new Map<string, FeeKey>();
  const add = (site: number, cateId: string | null | undefined) => {
    if (cateId) keys.set(keyOf({ site, cateId }), { site, cateId, listingType: request.listingType });
  };
  const own = [...sites].filter((site) => !requested.get(site));
  for (const site of sites) add(site, requested.get(site));
  if (own.length && productIds.length) {
    const rows = await tx
      .selectDistinct({ site: products.site, cateId: products.cateId })
      .from(products)
      .where(and(eq(products.tenantId, tenantId), inArray(products.id, productIds), inArray(products.site, own)));
    for (const r of rows) if (r.site !== null) add(r.site, r.cateId);
  }
  return [...keys.values()];
}

/** The cached fees of these keys, each as one string to compare (by site, category and listing type). */
async function feeStates(tx: Tx, keys: FeeKey[]) {
  const rows = rowsOf<FeeKey & { state: string }>(
    await tx.execute(sql`select f.site, f.cate_id as "cateId", f.listing_type as "listingType",
        concat_ws('|', f.percentage_fee, f.fixed_fee, coalesce(f.fixed_fee_under::text, '-'), f.listing_fee, f.currency) as state
      from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(site int, "cateId" text, "listingType" text)
      join ${meliListingFees} f on f.site = k.site and f.cate_id = k."cateId" and f.listing_type = k."listingType"`),
  );
  return new Map(rows.map((r) => [`${keyOf(r)}|${r.listingType}`, r]));
}

/**
 * Reads listing_prices for the keys whose cached row is missing or older than 24 h, with the shop group's client and
 * at most LISTING_FEES_CONCURRENCY at once, and caches what it read. Never inside a transaction (the client opens its
 * own). A key that could not be read keeps its older row, if any, and is answered in `failed`; the calls are in the
 * tenant's marketplace call log.
 */
export async function ensureListingFees(
  deps: Pick<PublishingDeps, "database" | "meli" | "callLog" | "feesMoved">,
  input: { tenantId: string; groupId: string; creatorId?: string | null; keys: FeeKey[] },
  options: { maxAgeMs?: number; concurrency?: number } = {},
): Promise<{ read: FeeKey[]; failed: FeeKey[] }> {
  const keys = input.keys.filter((k) => k.listingType !== "free" && MELI_SITES[k.site as MeliSiteNumber]);
  if (!keys.length) return { read: [], failed: [] };
  const maxAge = options.maxAgeMs ?? LISTING_FEES_MAX_AGE_MS;
  const fresh = new Set(
    rowsOf<{ site: number; cateId: string; listingType: string }>(
      await inScope(deps.database.db, { tenantId: input.tenantId }, (tx) =>
        tx.execute(sql`select f.site, f.cate_id as "cateId", f.listing_type as "listingType"
          from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(site int, "cateId" text, "listingType" text)
          join ${meliListingFees} f on f.site = k.site and f.cate_id = k."cateId" and f.listing_type = k."listingType"
          where f.fetched_at > now() - make_interval(secs => ${maxAge / 1000})`),
      ),
    ).map((r) => `${keyOf(r)}|${r.listingType}`),
  );
  const stale = keys.filter((k) => !fresh.has(`${keyOf(k)}|${k.listingType}`));
  if (!stale.length) return { read: [], failed: [] };

  const shop = deps.meli.shop({ tenantId: input.tenantId, groupId: input.groupId });
  const exchanges: { site: number; x: MeliExchange }[] = [];
  const results = await pool(stale, options.concurrency ?? LISTING_FEES_CONCURRENCY, async (key) => {
    try {
      return { key, fee: await readFee(shop, key, (x) => exchanges.push({ site: key.site, x })) };
    } catch (err) {
      // A refusal, an unknown category, a failed token or network: the pair is estimated from the category row.
      if (err instanceof MeliApiError || err instanceof FeeAnswerError || err instanceof AppError) return { key, fee: null };
      throw err;
    }
  });
  const read = results.filter((r): r is { key: FeeKey; fee: CachedFee } => r.fee !== null);
  await inScope(deps.database.db, hostAllScope, async (tx) => {
    if (read.length) {
      const before = await feeStates(
        tx,
        read.map((r) => r.key),
      );
      await tx
        .insert(meliListingFees)
        .values(read.map(({ key, fee }) => ({ ...key, ...fee, fetchedAt: new Date() })))
        .onConflictDoUpdate({
          target: [meliListingFees.site, meliListingFees.cateId, meliListingFees.listingType],
          set: {
            percentageFee: sql`excluded.percentage_fee`,
            fixedFee: sql`excluded.fixed_fee`,
            fixedFeeUnder: sql`excluded.fixed_fee_under`,
            listingFee: sql`excluded.listing_fee`,
            currency: sql`excluded.currency`,
            fetchedAt: sql`excluded.fetched_at`,
          },
        });
      // A fee that is new or moved changes the margin of the listings in its category: computed again by the job.
      const after = await feeStates(
        tx,
        read.map((r) => r.key),
      );
      const moved = new Map<string, { site: number; cateId: string }>();
      for (const [key, row] of after)
        if (before.get(key)?.state !== row.state) moved.set(keyOf(row), { site: row.site, cateId: row.cateId });
      if (moved.size) await deps.feesMoved(tx, [...moved.values()]);
    }
    for (const { site, x } of exchanges) {
      await deps.callLog.recordMeliCall(tx, {
        tenantId: input.tenantId,
        accountGroupId: input.groupId,
        site,
        ...exchangeEntry(x),
        creatorId: input.creatorId ?? null,
      });
    }
  });
  return { read: read.map((r) => r.key), failed: results.filter((r) => r.fee === null).map((r) => r.key) };
}

/** An answer that does not say the fees (no percentage, another currency, no entry for the listing type). */
class FeeAnswerError extends Error {}

/**
 * The shipping the items are published with (item-body.ts: shipping mode me2), asked with the fees: since March-April
 * 2026 the fixed fee depends on it, and under ME2 only Flex pays one (comision-por-vender.md). Global selling's page
 * is the marketplace's own: nothing to add there.
 */
const PUBLISHED_SHIPPING = { shippingMode: "me2" } as const;

async function readFee(shop: MeliSession, key: FeeKey, observe: (x: MeliExchange) => void): Promise<CachedFee> {
  const site = key.site as MeliSiteNumber;
  const currency = currencyOf(site);
  const probe = async (price: number) => {
    const answer = await getListingPrices(
      shop,
      MELI_SITES[site].meli,
      {
        price,
        categoryId: key.cateId,
        listingTypeId: key.listingType,
        currencyId: currency,
        ...(isGlobalSite(site) ? {} : PUBLISHED_SHIPPING),
      },
      { observe },
    );
    const fee = answer.find((x) => x.listing_type_id === key.listingType);
    if (!fee?.sale_fee_details) throw new FeeAnswerError(`listing_prices answered no fees for ${key.listingType}`);
    if (fee.currency_id !== currency) throw new FeeAnswerError(`listing_prices answered ${fee.currency_id}, not ${currency}`);
    return { ...fee, sale_fee_details: fee.sale_fee_details };
  };
  const low = await probe(PROBE_PRICE);
  // Global selling has no fixed fee (Mercado Libre adds its fee to net_proceeds).
  const fixed = isGlobalSite(site) ? 0 : low.sale_fee_details.fixed_fee;
  let under: number | null = null;
  const assumed = FIXED_FEE_UNDER[site];
  if (fixed > 0 && assumed !== null) {
    const at = await probe(assumed);
    under = at.sale_fee_details.fixed_fee === 0 ? assumed : null;
  }
  return {
    percentageFee: String(low.sale_fee_details.percentage_fee),
    fixedFee: String(fixed),
    fixedFeeUnder: under === null ? null : String(under),
    listingFee: String(low.listing_fee_amount),
    currency,
  };
}

/** The cached fees of the categories (`site|cateId`) for one listing type, in one query; whatever their age. */
export async function cachedFees(
  tx: Tx,
  categories: { site: number; cateId: string }[],
  listingType: string,
): Promise<Map<string, CachedFee>> {
  if (!categories.length || listingType === "free") return new Map();
  const rows = rowsOf<CachedFee & { site: number; cateId: string }>(
    await tx.execute(sql`select f.site, f.cate_id as "cateId", f.percentage_fee as "percentageFee", f.fixed_fee as "fixedFee",
        f.fixed_fee_under as "fixedFeeUnder", f.listing_fee as "listingFee", f.currency
      from jsonb_to_recordset(${JSON.stringify(categories)}::jsonb) as k(site int, "cateId" text)
      join ${meliListingFees} f on f.site = k.site and f.cate_id = k."cateId" and f.listing_type = ${listingType}`),
  );
  return new Map(rows.map((r) => [keyOf(r), r]));
}

/**
 * What the pre-flight and the price formula take from a pair's cached fees: listing_prices' percentage, fixed fee (with
 * its threshold) and listing fee; without a row, the category row's percentage, marked "category" (a warning).
 */
export function feeInput(
  fee: CachedFee | undefined,
  listingType: string,
): Pick<PreflightPair, "feePercent" | "feeSource" | "fixedFee" | "listingFee"> {
  if (listingType === "free") return {};
  if (!fee) return { feeSource: "category" };
  return {
    feeSource: "listingPrices",
    feePercent: fee.percentageFee,
    fixedFee: Number(fee.fixedFee) > 0 ? { amount: fee.fixedFee, under: fee.fixedFeeUnder } : null,
    listingFee: fee.listingFee,
  };
}
