// A transfer task is a list of steps run in order, each in transactions of its own: labels first (what the copies
// will carry), then products or collections chunk by chunk, then the shop groups in one transaction. A step's unit of
// work is one transaction; the runner (runner.ts) stores where it got to with that work.
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import type { SecretBox } from "../../security/secrets.ts";
import type { Chunk } from "./chunks.ts";
import { copyCollectChunk, labelsOfCollects } from "./collects.ts";
import { copyLabels } from "./labels.ts";
import { ownerStillThere } from "./parties.ts";
import { copyProductChunk, labelsOfProducts, type DeleteSource, type ProductFilter } from "./products.ts";
import { moveShopGroups, removeShopGroups, type MoveShops } from "./shops.ts";
import { uuids, type Leg } from "./sql.ts";

/** Which source labels a labels step copies: all, or those the chosen products, collections or groups' listings carry. */
export type LabelSource =
  | { of: "all" }
  | { of: "products"; filter: ProductFilter }
  | { of: "collects"; srcUserId: string | null }
  | { of: "shops"; groupIds: string[] };

export type Step = { total: number } & (
  | { kind: "labels"; leg: Leg; labels: LabelSource }
  | { kind: "products"; leg: Leg; filter: ProductFilter; deleteSource: DeleteSource }
  | { kind: "collects"; leg: Leg; srcUserId: string | null; move: boolean }
  | { kind: "moveShops"; move: MoveShops }
  | { kind: "removeShops"; tenantId: string; groupIds: string[] }
);

/** What a task has done so far, by kind (the remark and the test read them). */
export type Counts = {
  labels: number;
  products: number;
  productsSkipped: number;
  collects: number;
  collectsSkipped: number;
  groups: number;
  listings: number;
};
export const noCounts = (): Counts => ({
  labels: 0,
  products: 0,
  productsSkipped: 0,
  collects: 0,
  collectsSkipped: 0,
  groups: 0,
  listings: 0,
});

export const stepNames: Record<Step["kind"], string> = {
  labels: "标签",
  products: "商品",
  collects: "采集商品",
  moveShops: "店铺",
  removeShops: "店铺",
};

function labelIds(leg: Leg, s: LabelSource): SQL | null {
  if (s.of === "all") return null;
  if (s.of === "products") return labelsOfProducts(leg, s.filter);
  if (s.of === "collects") return labelsOfCollects(leg, s.srcUserId);
  const groups = uuids(s.groupIds);
  // The labels of the listings and of the products they were published from.
  return sql`select l.product_label_id from listings l where l.tenant_id = ${leg.src}::uuid and l.account_group_id = any(${groups})
      and l.product_label_id is not null
    union ${labelsOfProducts(leg, { listedByGroups: s.groupIds })}`;
}

/** How many source labels a labels step looks at. */
export async function countLabels(tx: Tx, leg: Leg, s: LabelSource): Promise<number> {
  const ids = labelIds(leg, s);
  const [r] = rowsOf<{ n: number }>(
    await tx.execute(
      sql`select count(*)::int as n from product_labels s where s.tenant_id = ${leg.src}::uuid${ids ? sql` and s.id in (${ids})` : sql``}`,
    ),
  );
  return r?.n ?? 0;
}

export type UnitResult = { units: number; after: string | null; stepDone: boolean };

/** One transaction's work of a step, from `after` (a chunked step's last source id); adds what it did to `counts`. */
export async function runUnit(
  tx: Tx,
  deps: { secrets: SecretBox; chunkSize: number },
  step: Step,
  after: string | null,
  counts: Counts,
): Promise<UnitResult> {
  switch (step.kind) {
    case "labels": {
      await ownerStillThere(tx, step.leg);
      counts.labels += await copyLabels(tx, step.leg, labelIds(step.leg, step.labels));
      return { units: 1, after: null, stepDone: true };
    }
    case "products": {
      await ownerStillThere(tx, step.leg);
      const c = await copyProductChunk(tx, step.leg, step.filter, after, deps.chunkSize, step.deleteSource);
      return tallyChunk(counts, "products", c, deps.chunkSize);
    }
    case "collects": {
      await ownerStillThere(tx, step.leg);
      return tallyChunk(
        counts,
        "collects",
        await copyCollectChunk(tx, step.leg, step.srcUserId, after, deps.chunkSize, step.move),
        deps.chunkSize,
      );
    }
    case "moveShops": {
      await ownerStillThere(tx, step.move.leg);
      return tallyShops(counts, await moveShopGroups(tx, deps.secrets, step.move), step.total);
    }
    case "removeShops":
      return tallyShops(counts, await removeShopGroups(tx, step.tenantId, step.groupIds), step.total);
  }
}

/** A chunk's copies and skips counted; the step is done when a chunk comes short. */
function tallyChunk(counts: Counts, kind: "products" | "collects", c: Chunk, size: number): UnitResult {
  counts[kind] += c.copied;
  counts[`${kind}Skipped`] += c.taken - c.copied;
  return { units: c.taken, after: c.last, stepDone: c.taken < size };
}

/** The shop groups' one transaction: all of the step's units. */
function tallyShops(counts: Counts, done: { groups: number; listings: number }, total: number): UnitResult {
  counts.groups += done.groups;
  counts.listings += done.listings;
  return { units: Math.max(1, total), after: null, stepDone: true };
}

/** The counts in words, those that are not zero. */
export function countsText(c: Counts): string {
  const parts = [
    c.groups && `店铺组 ${c.groups} 个`,
    c.listings && `在线商品 ${c.listings} 个`,
    c.products && `商品 ${c.products} 个`,
    c.productsSkipped && `已存在而跳过的商品 ${c.productsSkipped} 个`,
    c.collects && `采集商品 ${c.collects} 个`,
    c.collectsSkipped && `已存在而跳过的采集商品 ${c.collectsSkipped} 个`,
    c.labels && `新增标签 ${c.labels} 个`,
  ].filter(Boolean);
  return parts.length ? parts.join("，") : "没有需要处理的数据";
}
