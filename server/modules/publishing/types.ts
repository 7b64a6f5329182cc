// Publishing's shared shapes: what the service is built from (its dependencies and the planner) and what the planner
// decides, used by the service's parts (plan, batch, job, retry) without importing the service itself.
import type { FastifyBaseLogger } from "fastify";
import type { Database, Tx } from "../../db/client.ts";
import type { Jobs } from "../../jobs/queue.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import type { PublishRequest } from "#shared/contract/publish.ts";
import type { SecretBox } from "../../security/secrets.ts";
import type { FreightService } from "../freight/index.ts";
import type { GtinService } from "../gtin/index.ts";
import type { MeliLogService } from "../meli-logs/index.ts";
import type { ItemPlan } from "./item-body.ts";
import type { PictureFetchOptions } from "./pictures.ts";

export type PublishingDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  log: FastifyBaseLogger;
  secrets: SecretBox;
  /** The picture size probe's address guard (the crawler's: CRAWL_ALLOW_PRIVATE); private addresses refused without it. */
  pictures?: PictureFetchOptions;
  /** The GTIN pool's takers (the gtin service's, handed over by deps.ts). */
  gtin: Pick<GtinService, "takeGtinCodes" | "listingGtinCodes">;
  /** The marketplace call log's recorders (the meli-logs service's). */
  callLog: Pick<MeliLogService, "recordListingCalls" | "recordMeliCall">;
  /** Called in the transaction that cached new or moved fees of these categories (the listings' margin recompute). */
  feesMoved: (tx: Tx, categories: { site: number; cateId: string }[]) => Promise<unknown>;
};

/** What plan.ts decides for one product × site before anything is sent. */
export type ListingPlan = {
  site: number;
  accountId: string;
  cateId: string | null;
  cateName: string | null;
  problems: { code: string; field: string | null; message: string; severity: "error" | "warning" }[];
  item: Omit<ItemPlan, "key"> | null;
  priceContent: unknown;
  /** GTIN codes the listing takes from the pool (variants without their own, or the item). */
  gtinNeeded: number;
  /** Global selling: the global item's English title (the site's own title is item.title). */
  globalTitle: string | null;
  /** The title is still to be translated into the site's language (item.title is empty until then). */
  translate: { text: { from: string | null; text: string }; to: string; max: number } | null;
};

export type ShopAccount = { id: string; site: number; custId: string; isEnabled: boolean };

/** The freight rules the planner prices with (the freight service's, handed over by deps.ts). */
export type PlannerFreight = Pick<FreightService, "freightRulesOf">;

export type Planner = (
  tx: Tx,
  input: { tenantId: string; request: PublishRequest; productIds: string[]; accounts: ShopAccount[] },
) => Promise<Map<string, ListingPlan[]>>;
