// PredictMeliCategory (spec §7 Product): Mercado Libre's domain discovery for a title (given, or the product's title in
// the site's language), answered with our stored categories joined in (full name, Chinese path, whether it can be
// chosen). Mercado Libre's predictor needs a seller's token, so the call uses one of the tenant's connected shops (the
// caller's own first, one on the asked site first); the request goes out after the call's transaction.
// Mercado Libre does not read Chinese: a Chinese title is translated into the site's language first when the host
// configured a translation service ("translated"), else (or without a shop, or when the translation fails) it is
// matched against the categories' Chinese names from AckCategory in one statement ("chineseNames"); the answer says
// which, and why.
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf, type Tx } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import { AfterCommit, type CallContext } from "../../http/calls.ts";
import { businessError, notFound } from "../../http/errors.ts";
import { predictCategory, type DomainPrediction } from "../../integrations/mercadolibre/endpoints/categories.ts";
import { createTranslator, readTranslateSettings } from "../../integrations/translate/index.ts";
import { TranslationError, type Translator } from "../../integrations/translate/types.ts";
import type {
  CategoryPredictionMethod,
  PredictedCategory,
  predictMeliCategoryInput,
  PredictMeliCategoryResult,
} from "#shared/contract/category.ts";
import { siteLanguage } from "#shared/contract/meli.ts";
import { meliSiteOf, type CategoryDeps } from "./sync.ts";

export const NO_SHOP_FOR_PREDICTION = "类目预测需要美客多店铺授权，请先在店铺列表中绑定店铺";
/** Mercado Libre reads the start of a title; longer ones only cost bytes. */
const TITLE_LIMIT = 200;

/** The title to predict from: the product's title in the site's language, then en, es, pt, then its display title. */
function titleFor(title: Record<string, string> | null, display: string | null, site: number): string | null {
  for (const lang of [siteLanguage(site), "en", "es", "pt"]) {
    const t = title?.[lang]?.trim();
    if (t) return t;
  }
  return display?.trim() || null;
}

/** Whether Mercado Libre cannot read the title: it holds Chinese characters. */
export const isChineseTitle = (title: string) => /\p{Script=Han}/u.test(title);

/** The distinct two-character pieces of the title's runs of Chinese characters, for matching Chinese names. */
export function chineseBigrams(title: string): string[] {
  const out = new Set<string>();
  for (const run of title.match(/\p{Script=Han}+/gu) ?? []) {
    const chars = [...run];
    for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
  }
  return [...out];
}

/** Category `c` may be chosen: it and every ancestor enabled by the host and still on Mercado Libre. */
const VISIBLE = sql`not exists (select 1 from meli_categories a where a.site = c.site
  and a.cate_id = any(string_to_array(c.path_name, '/')) and not (a.enable and a.meli_status = 'enabled'))`;

/**
 * The site's choosable leaves whose Chinese path matches a Chinese title, best first. A category's Chinese name scores
 * twice its length when the title holds it whole, plus one for each of the title's two-character pieces it holds; a
 * leaf scores its own match twice and its ancestors' once. One statement over the site's named categories.
 */
async function matchChineseNames(tx: Tx, site: number, title: string, limit: number): Promise<PredictedCategory[]> {
  const bigrams = JSON.stringify(chineseBigrams(title));
  const rows = rowsOf<{ cateId: string; name: string; fullName: string; fullZh: string | null; domain: string | null }>(
    await tx.execute(sql`with b as (select jsonb_array_elements_text(${bigrams}::jsonb) as b),
      hits as (
        select h.cate_id, h.score from (
          select c.cate_id,
            case when strpos(${title}::text, c.zh) > 0 then 2 * char_length(c.zh) else 0 end
              + (select count(*) from b where strpos(c.zh, b.b) > 0) as score
          from meli_categories c where c.site = ${site} and c.zh is not null and c.zh <> ''
        ) h where h.score > 0
      ),
      scored as (
        select c.cate_id, c.name, c.full_name, c.full_zh, c.domain, s.score
        from meli_categories c
        cross join lateral (
          select sum(case when h.cate_id = c.cate_id then 2 * h.score else h.score end) as score
          from hits h where h.cate_id = any(string_to_array(c.path_name, '/'))
        ) s
        where c.site = ${site} and c.is_leaf and c.listing_allowed and s.score > 0 and ${VISIBLE}
      )
      select cate_id as "cateId", name, full_name as "fullName", full_zh as "fullZh", domain from scored
      order by score desc, char_length(full_name), cate_id
      limit ${limit}`),
  );
  return rows.map((r) => ({
    cateId: r.cateId,
    name: r.name,
    fullName: r.fullName,
    fullZh: r.fullZh,
    domainId: r.domain ?? "",
    domainName: r.name,
    known: true,
    selectable: true,
    attributes: [],
  }));
}

/** Request-time translation: the seller is waiting, so shorter than a job's. */
const TRANSLATE_OPTIONS = { timeoutMs: 10_000, maxAttempts: 2, maxRetryAfterSeconds: 5 };

export const NOTE_NO_TRANSLATOR = "未配置翻译服务，已按类目中文名匹配";
export const NOTE_NO_SHOP = "未绑定美客多店铺，已按类目中文名匹配（绑定店铺后可由美客多预测）";
export const NOTE_NO_CHINESE_NAMES =
  "中文标题无法预测：未配置翻译服务，且该站点的类目还没有中文名。请填写该站点语言的标题，或联系管理员配置翻译服务、补充类目中文名";
const NOTE_NO_MATCH = "没有类目的中文名与该标题匹配，请换个标题或直接搜索类目";

/** The Chinese names' answer, with why they were used, or why nothing came out. */
async function byChineseNames(
  tx: Tx,
  body: { site: number; limit?: number },
  title: string,
  why: string,
): Promise<PredictMeliCategoryResult> {
  const items = await matchChineseNames(tx, body.site, title, body.limit ?? 4);
  let note = why;
  if (!items.length) {
    const [named] = rowsOf<{ any: boolean }>(
      await tx.execute(sql`select exists (select 1 from meli_categories where site = ${body.site} and zh is not null) as any`),
    );
    note = named?.any ? `${why}；${NOTE_NO_MATCH}` : NOTE_NO_CHINESE_NAMES;
  }
  return { title, site: body.site, method: "chineseNames", translatedTitle: null, note, items };
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
  deps: Pick<CategoryDeps, "database" | "meli" | "secrets">,
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
  const q = title.slice(0, TITLE_LIMIT);
  let translator: Translator | null = null;
  if (isChineseTitle(q)) {
    try {
      translator = createTranslator(await readTranslateSettings(ctx.tx, deps.secrets), TRANSLATE_OPTIONS);
    } catch (e) {
      if (!(e instanceof TranslationError)) throw e;
      const why = e.kind === "not-configured" ? NOTE_NO_TRANSLATOR : `${e.message}；已按类目中文名匹配`;
      return byChineseNames(ctx.tx, body, q, why);
    }
    if (!shop) return byChineseNames(ctx.tx, body, q, NOTE_NO_SHOP);
  }
  if (!shop) throw businessError(NO_SHOP_FOR_PREDICTION, "Category.NoShop");
  const { tenantId } = ctx;
  return new AfterCommit(async (reply) => {
    let method: CategoryPredictionMethod = "direct";
    let asked = q;
    if (translator) {
      try {
        const [es] = await translator.translate([q], "zh", siteLanguage(body.site));
        asked = es?.trim().slice(0, TITLE_LIMIT) ?? "";
        if (!asked) throw new TranslationError("bad-response", translator.provider);
        method = "translated";
      } catch (e) {
        if (!(e instanceof TranslationError)) throw e;
        const answer = await inScope(deps.database.db, { tenantId }, (tx) =>
          byChineseNames(tx, body, q, `翻译失败（${e.message}），已按类目中文名匹配`),
        );
        return reply.send({ result: answer });
      }
    }
    const predictions = await predictCategory(
      deps.meli.shop({ tenantId, groupId: shop.groupId }),
      meliSiteOf(body.site),
      asked,
      body.limit ?? 4,
    );
    const ids = JSON.stringify([...new Set(predictions.map((p) => p.category_id))]);
    const known = await inScope(deps.database.db, { tenantId }, async (tx) =>
      rowsOf<Known>(
        await tx.execute(sql`select c.cate_id as "cateId", c.full_name as "fullName", c.full_zh as "fullZh",
            c.is_leaf and c.listing_allowed as "isLeaf",
            ${VISIBLE} as visible
          from meli_categories c
          where c.site = ${body.site} and c.cate_id in (select jsonb_array_elements_text(${ids}::jsonb))`),
      ),
    );
    const result: PredictMeliCategoryResult = {
      title: q,
      site: body.site,
      method,
      translatedTitle: method === "translated" ? asked : null,
      note: null,
      items: joinPredictions(predictions, known),
    };
    return reply.send({ result });
  });
}
