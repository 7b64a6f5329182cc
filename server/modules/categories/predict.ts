// PredictMeliCategory (spec §7 Product): Mercado Libre's domain discovery for a title (given, or the product's title in
// the site's language), answered with our stored categories joined in (full name, Chinese path, whether it can be
// chosen). Mercado Libre's predictor needs a seller's token, so the call uses one of the tenant's connected shops (the
// caller's own first, one on the asked site first); the request goes out after the call's transaction.
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import { AfterCommit, type CallContext } from "../../http/calls.ts";
import { businessError, notFound } from "../../http/errors.ts";
import type { DomainPrediction } from "../../integrations/mercadolibre/types.ts";
import type { PredictedCategory, predictMeliCategoryInput } from "../../../shared/contract/category.ts";
import { languageOf } from "./chinese.ts";
import { meliSiteOf, type CategoryDeps } from "./sync.ts";

export const NO_SHOP_FOR_PREDICTION = "类目预测需要美客多店铺授权，请先在店铺列表中绑定店铺";
/** Mercado Libre reads the start of a title; longer ones only cost bytes. */
const TITLE_LIMIT = 200;

/** The title to predict from: the product's title in the site's language, then en, es, pt, then its display title. */
function titleFor(title: Record<string, string> | null, display: string | null, site: number): string | null {
  for (const lang of [languageOf(site), "en", "es", "pt"]) {
    const t = title?.[lang]?.trim();
    if (t) return t;
  }
  return display?.trim() || null;
}

type Known = { cateId: string; fullName: string; fullZh: string | null; isLeaf: boolean; visible: boolean };

export function joinPredictions(predictions: DomainPrediction[], known: Known[]): PredictedCategory[] {
  const byId = new Map(known.map((k) => [k.cateId, k]));
  return predictions.map((p) => {
    const k = byId.get(p.category_id);
    return {
      cateId: p.category_id,
      name: p.category_name,
      fullName: k?.fullName ?? p.category_name,
      fullZh: k?.fullZh ?? null,
      domainId: p.domain_id,
      domainName: p.domain_name,
      known: !!k,
      selectable: !!k && k.isLeaf && k.visible,
      attributes: p.attributes.map((a) => ({
        id: a.id,
        name: a.name ?? null,
        valueId: a.value_id ?? null,
        valueName: a.value_name ?? null,
      })),
    };
  });
}

export async function predictMeliCategory(
  deps: Pick<CategoryDeps, "database" | "meli">,
  ctx: CallContext,
  body: z.output<typeof predictMeliCategoryInput>,
) {
  const u = ctx.user!;
  let title = body.title ?? null;
  if (!title) {
    const own = u.isMainAccount || u.isHost ? sql`` : sql` and user_id = ${u.id}`;
    const [p] = rowsOf<{ title: Record<string, string> | null; titleText: string | null }>(
      await ctx.tx.execute(sql`select title, title_text as "titleText" from products
        where tenant_id = ${ctx.tenantId} and id = ${body.productId!} and not is_deleted${own}`),
    );
    if (!p) throw notFound("商品不存在");
    title = titleFor(p.title, p.titleText, body.site);
    if (!title) throw businessError("该商品没有标题，无法预测类目");
  }
  // A connected, authorized shop of the tenant: the caller's own and one on this site first.
  const [shop] = rowsOf<{ groupId: string }>(
    await ctx.tx.execute(sql`select g.id as "groupId" from meli_account_groups g
      where g.tenant_id = ${ctx.tenantId} and g.auth_status = 1
      order by exists (select 1 from meli_accounts a where a.tenant_id = g.tenant_id and a.group_id = g.id
          and a.owner_id = ${u.id}) desc,
        exists (select 1 from meli_accounts a where a.tenant_id = g.tenant_id and a.group_id = g.id
          and a.site = ${body.site}) desc,
        g.creation_time
      limit 1`),
  );
  if (!shop) throw businessError(NO_SHOP_FOR_PREDICTION, "Category.NoShop");
  const q = title.slice(0, TITLE_LIMIT);
  const { tenantId } = ctx;
  return new AfterCommit(async (reply) => {
    const predictions = await deps.meli
      .shop({ tenantId, groupId: shop.groupId })
      .domainDiscovery(meliSiteOf(body.site), q, body.limit ?? 4);
    const ids = JSON.stringify([...new Set(predictions.map((p) => p.category_id))]);
    const known = await inScope(deps.database.db, { tenantId }, async (tx) =>
      rowsOf<Known>(
        await tx.execute(sql`select c.cate_id as "cateId", c.full_name as "fullName", c.full_zh as "fullZh",
            c.is_leaf and c.listing_allowed as "isLeaf",
            not exists (select 1 from meli_categories a where a.site = c.site
              and a.cate_id = any(string_to_array(c.path_name, '/')) and not (a.enable and a.meli_status = 'enabled')) as visible
          from meli_categories c
          where c.site = ${body.site} and c.cate_id in (select jsonb_array_elements_text(${ids}::jsonb))`),
      ),
    );
    return reply.send({ result: { title: q, site: body.site, items: joinPredictions(predictions, known) } });
  });
}
