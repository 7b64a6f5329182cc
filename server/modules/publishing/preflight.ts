// PreflightPublish's answer: every product × site's problems, title and price for the publish screen, planned in the
// call's transaction; nothing is written or sent. What it needs read first (fees, picture sizes) is before-call.ts's.
import { and, eq, inArray } from "drizzle-orm";
import { products } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { PREVIEW_MAX_PRODUCTS, type PreflightPairView, type PreflightResultView, type PublishRequest } from "#shared/contract/publish.ts";
import { DUPLICATE_PROBLEM_CODE } from "#shared/publish/duplicates.ts";
import { markListed } from "./duplicates.ts";
import { resolveRequest, selectedCount } from "./selection.ts";
import type { Planner } from "./types.ts";

/** PreflightPublish: every pair's problems, title and price, for the publish screen; nothing is written or sent. */
export async function preflightPublish(plan: Planner, ctx: CallContext, request: PublishRequest): Promise<PreflightResultView> {
  const { group, productIds, siteAccounts, where } = await resolveRequest(ctx, request, PREVIEW_MAX_PRODUCTS);
  const selected = await selectedCount(ctx, request, productIds.length, where, PREVIEW_MAX_PRODUCTS);
  const plans = await plan(ctx.tx, { tenantId: ctx.tenantId, request, productIds, accounts: siteAccounts });
  await markListed(ctx.tx, ctx.tenantId, { plans, groupId: group.id, sites: request.sites, allowDuplicate: request.isAllowDuplicate });
  const shown = await ctx.tx
    .select({ id: products.id, title: products.titleText, image: products.image })
    .from(products)
    .where(and(eq(products.tenantId, ctx.tenantId), inArray(products.id, productIds)));
  const byId = new Map(shown.map((p) => [p.id, p]));
  const pairs: PreflightPairView[] = productIds.flatMap((id) =>
    (plans.get(id) ?? []).map((p) => ({
      productId: id,
      productTitle: byId.get(id)?.title ?? "",
      image: byId.get(id)?.image ?? null,
      site: p.site,
      cateId: p.cateId,
      cateName: p.cateName,
      ok: !p.problems.some((x) => x.severity === "error"),
      title: p.item?.title || null,
      problems: p.problems,
      price: p.priceContent ?? null,
    })),
  );
  const ok = pairs.filter((p) => p.ok).length;
  const alreadyListed = pairs.filter((p) => p.problems.some((x) => x.code === DUPLICATE_PROBLEM_CODE)).length;
  return { selected, pairs, ok, refused: pairs.length - ok, alreadyListed };
}
