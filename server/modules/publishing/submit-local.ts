// A publish job's listings on local sites (MLM, MLB, MLC, MCO): one item per listing, created with the listing id as
// seller_custom_field and idempotency key. A job tried before looks the item up by that key first, so a retry after a
// crash finds the item its earlier attempt created instead of creating a second one.
import { AppError } from "../../http/errors.ts";
import type { MeliExchange, MeliSession } from "../../integrations/mercadolibre/client.ts";
import { createItem, getItem, searchSellerItems } from "../../integrations/mercadolibre/endpoints/items.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import { localItemBody, type ItemPlan } from "./item-body.ts";
import {
  finish,
  gtinFor,
  logCalls,
  meliProblems,
  refusalOf,
  statusOf,
  warningsOf,
  withCodes,
  type ListingRow,
  type OutcomeDeps,
} from "./outcome.ts";
import type { ListingPlan } from "./types.ts";

export async function submitLocal(
  deps: OutcomeDeps,
  tenantId: string,
  pending: { listing: ListingRow; custId: string }[],
  plans: ListingPlan[],
  shop: MeliSession,
): Promise<void> {
  for (const { listing, custId } of pending) {
    const exchanges: MeliExchange[] = [];
    const observe = (x: MeliExchange) => exchanges.push(x);
    const p = plans.find((x) => x.accountId === listing.accountId && x.site === listing.site);
    const refusal = refusalOf(p);
    if (refusal || !p?.item) {
      await finish(deps, tenantId, listing, exchanges, { status: ListingStatus.Skipped, ...refusal });
      continue;
    }
    let item: ItemPlan = { ...p.item, key: listing.id };
    try {
      if (p.gtinNeeded > 0) item = withCodes(item, await gtinFor(deps, tenantId, listing.id, p.gtinNeeded));
      // An earlier attempt of this job may have created the item before the process died: look it up by its key.
      const earlier = listing.attempts > 0 ? await searchSellerItems(shop, custId, { sku: listing.id }, { observe }) : null;
      const itemId = earlier?.results[0];
      const created = itemId
        ? await getItem(shop, itemId, { observe })
        : await createItem(shop, localItemBody(item), listing.id, { observe });
      await finish(deps, tenantId, listing, exchanges, {
        status: statusOf(created.status),
        itemId: created.id,
        permalink: created.permalink ?? null,
        title: item.title,
        reason: null,
        ...warningsOf(p.problems),
      });
    } catch (err) {
      if (err instanceof AppError && err.code === "Gtin.PoolExhausted") {
        await finish(deps, tenantId, listing, exchanges, { status: ListingStatus.Skipped, reason: err.message });
        continue;
      }
      if (!(err instanceof MeliApiError)) throw err;
      if (err.retryable) {
        // The queue retries the job; the next attempt looks the item up first. The calls made so far are logged.
        await logCalls(deps, tenantId, listing, exchanges);
        throw err;
      }
      await finish(deps, tenantId, listing, exchanges, {
        status: err.status === 400 ? ListingStatus.Refused : ListingStatus.Failed,
        reason: err.message,
        problems: meliProblems(err),
      });
    }
  }
}
