// Publish: writes, in one transaction, the batch, a listing per product × site (Pending, or Skipped with the
// pre-flight's reasons, an already listed product's among them: duplicates.ts) and one job per product with a pending
// listing. The listing's id is its publish key. The transaction stays short and the event loop free (issue 29): the
// listings go in through one JSON parameter per chunk (building a 1,000-row insert with drizzle's parameters took
// 130+ ms of synchronous work), and the loops over thousands of rows give the event loop back every few ms.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db/client.ts";
import { publishBatches } from "../../db/schema.ts";
import { turnPause } from "../../turns.ts";
import type { CallContext } from "../../http/calls.ts";
import { ListingStatus, PublishBatchStatus } from "../../../shared/contract/enums.ts";
import type { PublishRequest, PublishResult } from "../../../shared/contract/publish.ts";
import { DUPLICATE_PROBLEM_CODE } from "../../../shared/publish/duplicates.ts";
import { announce, batchView } from "./batch-state.ts";
import type { PublishJob } from "./publish-job.ts";
import { PUBLISH_JOB, PUBLISH_MAX_PRODUCTS } from "./constants.ts";
import { listedMeanwhile, markListed } from "./duplicates.ts";
import { rememberCategoryPicks } from "../category-mappings/store.ts";
import type { ListingPlan, Planner, PublishingDeps, ShopAccount } from "./service.ts";

export async function createBatch(
  deps: Pick<PublishingDeps, "jobs">,
  ctx: CallContext,
  request: PublishRequest,
  resolved: { group: { id: string; name: string | null }; productIds: string[]; siteAccounts: ShopAccount[]; selected: number },
  plan: Planner,
): Promise<PublishResult> {
  const { group, productIds, siteAccounts } = resolved;
  const plans = await plan(ctx.tx, { tenantId: ctx.tenantId, request, productIds, accounts: siteAccounts });
  await markListed(ctx.tx, ctx.tenantId, { plans, groupId: group.id, sites: request.sites, allowDuplicate: request.isAllowDuplicate });
  // The categories the seller picked on the publish screen are remembered against the products' source categories.
  const picks = request.cateInfo.flatMap((c) => productIds.map((productId) => ({ productId, site: c.site, cateId: c.cateId })));
  await rememberCategoryPicks(ctx.tx, ctx.tenantId, picks);

  const batchId = randomUUID();
  const owners = new Map(
    rowsOf<{ id: string; userId: string }>(
      await ctx.tx.execute(sql`select id, user_id as "userId" from products
        where tenant_id = ${ctx.tenantId} and id in (select jsonb_array_elements_text(${JSON.stringify(productIds)}::jsonb)::uuid)`),
    ).map((p) => [p.id, p.userId]),
  );
  const rows: ListingRow[] = [];
  const pause = turnPause();
  for (const productId of productIds) {
    await pause();
    for (const p of plans.get(productId) ?? []) {
      rows.push({
        tenantId: ctx.tenantId,
        id: randomUUID(),
        batchId,
        accountGroupId: group.id,
        accountId: p.accountId,
        userId: owners.get(productId)!,
        productId,
        productLabelId: request.productLabel ?? null,
        site: p.site,
        cateId: p.cateId,
        cateName: p.cateName,
        title: p.item?.title || null,
        price: p.item ? p.item.price.toFixed(2) : null,
        currency: p.item?.currency ?? null,
        priceContent: p.priceContent ?? null,
        listingType: request.listingType,
        image: p.item?.pictures[0] ?? null,
        stock: p.item?.stock ?? null,
        duplicateAllowed: request.isAllowDuplicate,
        creatorId: ctx.user!.id,
        ...outcomeOf(p.problems),
      });
    }
  }
  await insertListings(ctx, rows);
  const skipped = rows.filter((r) => r.status === ListingStatus.Skipped).length;
  const [batch] = await ctx.tx
    .insert(publishBatches)
    .values({
      tenantId: ctx.tenantId,
      id: batchId,
      accountGroupId: group.id,
      sites: request.sites,
      status: skipped === rows.length ? PublishBatchStatus.Failed : PublishBatchStatus.Queued,
      total: rows.length,
      skipped,
      request,
      creatorId: ctx.user!.id,
    })
    .returning();
  await announce(ctx.tx, ctx.tenantId, batchId, batch);
  const toPublish = new Set(rows.filter((r) => r.status === ListingStatus.Pending).map((r) => r.productId));
  await deps.jobs.sendMany<PublishJob>(
    PUBLISH_JOB,
    [...toPublish].map((productId) => ({ tenantId: ctx.tenantId, batchId, productId })),
    { tx: ctx.tx },
  );
  const alreadyListed = rows.filter((r) => r.problems.some(isDuplicateRefusal)).length;
  return { ...batchView(batch, group.name), ...resultNotice(resolved.selected, productIds.length, alreadyListed) };
}

const isDuplicateRefusal = (x: ListingPlan["problems"][number]) => x.code === DUPLICATE_PROBLEM_CODE && x.severity === "error";

/** A listing's status and reasons from its plan's problems: skipped with the errors' messages, else pending. */
function outcomeOf(problems: ListingPlan["problems"]) {
  const refused = problems.filter((x) => x.severity === "error");
  const warnings = problems.filter((x) => x.severity === "warning");
  return {
    status: refused.length ? ListingStatus.Skipped : ListingStatus.Pending,
    reason: refused.length ? refused.map((x) => x.message).join("；") : null,
    problems,
    warningMessage: warnings.map((x) => x.message).join("；") || null,
  };
}

/** A listing as Publish writes it (the columns of LISTING_COLUMNS). */
type ListingRow = {
  tenantId: string;
  id: string;
  batchId: string;
  accountGroupId: string;
  accountId: string;
  userId: string;
  productId: string;
  productLabelId: string | null;
  site: number;
  cateId: string | null;
  cateName: string | null;
  title: string | null;
  price: string | null;
  currency: string | null;
  priceContent: unknown;
  listingType: string;
  image: string | null;
  stock: number | null;
  duplicateAllowed: boolean;
  creatorId: string;
  status: number;
  reason: string | null;
  problems: ListingPlan["problems"];
  warningMessage: string | null;
};

/** Each written column, its type in jsonb_to_recordset and the row's field it comes from. */
const LISTING_COLUMNS: [column: string, type: string, field: keyof ListingRow][] = [
  ["tenant_id", "uuid", "tenantId"],
  ["id", "uuid", "id"],
  ["batch_id", "uuid", "batchId"],
  ["account_group_id", "uuid", "accountGroupId"],
  ["account_id", "uuid", "accountId"],
  ["user_id", "uuid", "userId"],
  ["product_id", "uuid", "productId"],
  ["product_label_id", "uuid", "productLabelId"],
  ["site", "int", "site"],
  ["cate_id", "text", "cateId"],
  ["cate_name", "text", "cateName"],
  ["title", "text", "title"],
  ["price", "numeric", "price"],
  ["currency", "text", "currency"],
  ["price_content", "jsonb", "priceContent"],
  ["listing_type", "text", "listingType"],
  ["image", "text", "image"],
  ["stock", "int", "stock"],
  ["duplicate_allowed", "boolean", "duplicateAllowed"],
  ["creator_id", "uuid", "creatorId"],
  ["status", "int", "status"],
  ["reason", "text", "reason"],
  ["problems", "jsonb", "problems"],
  ["warning_message", "text", "warningMessage"],
];
const columnList = sql.raw(LISTING_COLUMNS.map(([c]) => c).join(", "));
const recordType = sql.raw(LISTING_COLUMNS.map(([c, t]) => `${c} ${t}`).join(", "));
/** Listings per statement. */
const LISTING_CHUNK = 500;

/** Inserts `rows` in chunks, each one statement with the rows as one JSON parameter; answers the ids written. */
async function insertChunks(ctx: CallContext, rows: ListingRow[], onConflictDoNothing: boolean): Promise<Set<string>> {
  const written = new Set<string>();
  const pause = turnPause();
  for (let i = 0; i < rows.length; i += LISTING_CHUNK) {
    const json = JSON.stringify(
      rows.slice(i, i + LISTING_CHUNK).map((r) => Object.fromEntries(LISTING_COLUMNS.map(([c, , f]) => [c, r[f] ?? null]))),
    );
    const done = rowsOf<{ id: string }>(
      await ctx.tx.execute(sql`insert into listings (${columnList})
        select ${columnList} from jsonb_to_recordset(${json}::jsonb) as v(${recordType})
        ${onConflictDoNothing ? sql`on conflict do nothing` : sql``} returning id`),
    );
    for (const d of done) written.add(d.id);
    await pause();
  }
  return written;
}

/**
 * Writes the batch's listings. The pending ones go in with ON CONFLICT DO NOTHING against the one-listing-per-shop-site
 * index (migration 0026): a pair another publish holds since the plans were read is written skipped instead (rows
 * change in place, so the batch counts them as skipped).
 */
async function insertListings(ctx: CallContext, rows: ListingRow[]) {
  const pending = rows.filter((r) => r.status === ListingStatus.Pending);
  const inserted = await insertChunks(ctx, pending, true);
  for (const r of pending) if (!inserted.has(r.id)) Object.assign(r, outcomeOf([...r.problems, listedMeanwhile()]));
  await insertChunks(
    ctx,
    rows.filter((r) => r.status === ListingStatus.Skipped),
    false,
  );
}

/** Publish's counts and notice (shared/contract/publish.ts publishResult). */
function resultNotice(selected: number, taken: number, alreadyListed: number) {
  const notes = [
    selected > taken
      ? `所选 ${selected} 个商品超过单批上限 ${PUBLISH_MAX_PRODUCTS} 个，本批只刊登最新创建的 ${taken} 个，其余请再次刊登`
      : null,
    alreadyListed ? `${alreadyListed} 个商品站点已在此店铺刊登，已跳过；如需再刊登一份，请勾选“允许重复刊登”` : null,
  ].filter(Boolean);
  return { selected, taken, alreadyListed, notice: notes.join("；") || null };
}
