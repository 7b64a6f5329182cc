// Storing a collected product, the one path the extension (CrawlProductByPlugin) and the crawler share: the tenant's
// collect settings shape it, the infringement rule decides whether it is refused or flagged, the owner's collectCount
// limit is checked under a lock on the owner's row, and the same source item from the same user is the same collection.
import { randomUUID } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { collectConfigs, collections, infringementRuleSettings, SETTINGS_PROFILE, users } from "../../db/schema.ts";
import { badRequest, businessError } from "../../http/errors.ts";
import { describeIssues } from "../../http/validation.ts";
import { platformTypeOf, type CollectConfig, type CollectedProduct } from "#shared/contract/collect.ts";
import { extractedProduct } from "#shared/extract/product.ts";
import { CollectSource, CollectStatus, InfringementRuleType } from "#shared/contract/enums.ts";

const defaultCollectConfig: Omit<CollectConfig, "lastModificationTime"> = {
  isDiscountPrice: false,
  maxImageCount: 20,
  maxVariantCount: 200,
  isCollectDescription: true,
  isCollectVideo: true,
};

export async function readCollectConfig(tx: Tx, tenantId: string): Promise<CollectConfig> {
  const [row] = await tx
    .select()
    .from(collectConfigs)
    .where(and(eq(collectConfigs.tenantId, tenantId), eq(collectConfigs.profile, SETTINGS_PROFILE)));
  if (!row) return { ...defaultCollectConfig, lastModificationTime: null };
  return {
    isDiscountPrice: row.isDiscountPrice,
    maxImageCount: row.maxImageCount,
    maxVariantCount: row.maxVariantCount,
    isCollectDescription: row.isCollectDescription,
    isCollectVideo: row.isCollectVideo,
    lastModificationTime: row.lastModificationTime?.toISOString() ?? null,
  };
}

export type InfringementRule = { id: string | null; isAllowCollected: boolean; infringementRuleType: number };

export async function readInfringementRule(tx: Tx, tenantId: string): Promise<InfringementRule> {
  const [row] = await tx
    .select()
    .from(infringementRuleSettings)
    .where(and(eq(infringementRuleSettings.tenantId, tenantId), eq(infringementRuleSettings.profile, SETTINGS_PROFILE)));
  return row
    ? { id: row.id, isAllowCollected: row.isAllowCollected, infringementRuleType: row.infringementRuleType }
    : { id: null, isAllowCollected: true, infringementRuleType: InfringementRuleType.Contains };
}

/**
 * The SQL condition "word w matches text t" for a rule type: anywhere (Contains) or with no letter or digit on either
 * side (WholeWord). Both sides are compared lower-cased; the word's regex characters are escaped.
 */
export function wordMatch(ruleType: number, text: ReturnType<typeof sql>, word: ReturnType<typeof sql>) {
  if (ruleType === InfringementRuleType.WholeWord) {
    // Every character that is not a letter, digit or space is escaped (a backslash before a non-alphanumeric is that
    // character in PostgreSQL's regular expressions), so a word is always matched literally.
    const escaped = sql`regexp_replace(${word}, '([^[:alnum:][:space:]])', '\\\\\\1', 'g')`;
    return sql`${text} ~ ('(^|[^[:alnum:]])' || ${escaped} || '($|[^[:alnum:]])')`;
  }
  return sql`strpos(${text}, ${word}) > 0`;
}

/** The first infringement word of the tenant found in the given text (longest first), or null. */
async function findInfringementWord(tx: Tx, tenantId: string, ruleType: number, text: string): Promise<string | null> {
  if (!text.trim()) return null;
  const rows = rowsOf<{ word: string }>(
    await tx.execute(sql`select word from infringement_words
      where tenant_id = ${tenantId} and ${wordMatch(ruleType, sql`${text.toLowerCase()}::text`, sql`normalized_word`)}
      order by length(word) desc, word limit 1`),
  );
  return rows[0]?.word ?? null;
}

const languagePreference = ["zh", "zh-cn", "en", "es", "pt"];

/** The title the list shows and searches: the first non-empty of zh, en, es, pt, then any language. */
export function mainText(byLanguage: Record<string, string>): string {
  const entries = Object.entries(byLanguage).filter(([, v]) => v.trim() !== "");
  for (const lang of languagePreference) {
    const hit = entries.find(([k]) => k.toLowerCase() === lang);
    if (hit) return hit[1].trim();
  }
  return entries[0]?.[1].trim() ?? "";
}

const money = (n: number | null | undefined) => (n === null || n === undefined || !Number.isFinite(n) ? null : n.toFixed(2));

/** The row values a product gives, shaped by the settings (image and variant limits, discount price, description). */
function productValues(p: CollectedProduct, config: Omit<CollectConfig, "lastModificationTime">, overrides: { weight?: number | null }) {
  const isDiscountPrice = p.isDiscountPrice ?? config.isDiscountPrice;
  const pick = (now: number | undefined, original: number | undefined) => (isDiscountPrice ? (now ?? original) : (original ?? now));
  // Both prices stay on every variant (the discount price beside the original), so the choice can change later.
  const variants = p.variants
    .slice(0, config.maxVariantCount)
    .map((v) => ({ ...v, price: pick(v.price, v.originalPrice), ...(v.price !== undefined ? { discountPrice: v.price } : {}) }));
  const variantPrices = variants.map((v) => v.price).filter((x): x is number => typeof x === "number");
  const low = variantPrices.length ? Math.min(...variantPrices) : (pick(p.price, p.originalPrice) ?? p.priceRange?.min);
  const high = variantPrices.length ? Math.max(...variantPrices) : (p.priceRange?.max ?? low);
  const images = [...new Set(p.images)].slice(0, config.maxImageCount);
  const titleText = (p.title[p.titleLanguage] ?? mainText(p.title)).trim();
  const stocks = variants.map((v) => v.stock).filter((x): x is number => typeof x === "number");
  const weightG = overrides.weight ?? p.weightG ?? variants.find((v) => typeof v.weightG === "number")?.weightG ?? null;
  const dims = p.dims ?? variants.find((v) => v.dims)?.dims;
  return {
    platformType: platformTypeOf(p.platform),
    itemId: p.itemId,
    sourceUrl: p.sourceUrl,
    title: p.title,
    titleText,
    image: images[0] ?? variants.find((v) => v.image)?.image ?? null,
    images,
    videoUrl: config.isCollectVideo ? (p.video ?? null) : null,
    price: money(low),
    priceMax: money(high),
    currency: p.currency ?? null,
    stock: p.stock ?? (stocks.length ? stocks.reduce((a, b) => a + b, 0) : null),
    brand: p.brand ?? null,
    weight: weightG === null ? null : weightG.toFixed(2),
    size: dims ? `${dims.lengthCm}x${dims.widthCm}x${dims.heightCm}` : null,
    description: config.isCollectDescription && p.descriptionHtml ? { [p.titleLanguage]: p.descriptionHtml } : {},
    descriptionUrl: config.isCollectDescription ? (p.descriptionUrl ?? null) : null,
    attributes: p.attributes,
    options: p.options,
    variants,
    shop: p.shop ?? null,
    sourceCategory: p.sourceCategory ?? null,
    extractInfo: {
      sources: p.sources ?? {},
      missingFields: p.missingFields ?? [],
      warnings: p.warnings ?? [],
      incompleteFields: p.incompleteFields ?? [],
    },
    isDiscountPrice,
  };
}

/** Bounds the extractor's schema leaves open, so one collection stays a sane row. */
const bounds = { titleChars: 1000, descriptionChars: 500_000, images: 200, variants: 5000, options: 50, attributes: 500 };

/**
 * The extractor's cross-field rules (title in its language, known option value ids, unique skus) and our bounds: a
 * product that breaks one is a 400 naming the field.
 */
function checkProduct(p: CollectedProduct): void {
  const r = extractedProduct.safeParse(p);
  const problems = r.success ? [] : describeIssues(r.error.issues, p).map(({ message, members }) => ({ message, members }));
  const over = (field: string, ok: boolean, limit: string) => {
    if (!ok) problems.push({ message: `${field}: ${limit}`, members: [field] });
  };
  over(
    "title",
    Object.values(p.title).every((t) => t.length <= bounds.titleChars),
    `at most ${bounds.titleChars} characters`,
  );
  over("descriptionHtml", (p.descriptionHtml?.length ?? 0) <= bounds.descriptionChars, `at most ${bounds.descriptionChars} characters`);
  over("images", p.images.length <= bounds.images, `at most ${bounds.images} images`);
  over("variants", p.variants.length <= bounds.variants, `at most ${bounds.variants} variants`);
  over("options", p.options.length <= bounds.options, `at most ${bounds.options} options`);
  over("attributes", p.attributes.length <= bounds.attributes, `at most ${bounds.attributes} attributes`);
  if (problems.length) throw badRequest("商品数据不完整或不一致", problems.map((x) => x.message).join("\n"), problems);
}

export type StoreOutcome = { id: string; isNew: boolean; infringementWord: string | null };

/**
 * Stores a product for a user: refused (403 business error) over the collectCount limit or, when the rule does not
 * allow it, with an infringement word. Runs in the caller's transaction and tenant scope.
 */
export async function storeCollection(
  tx: Tx,
  who: { tenantId: string; userId: string },
  p: CollectedProduct,
  opts: { source: number; collectTaskId?: string | null; weight?: number | null } = { source: CollectSource.Plugin },
): Promise<StoreOutcome> {
  const { tenantId, userId } = who;
  checkProduct(p);
  // The owner's row is the lock that serializes this user's collects: the limit cannot be passed by two at once.
  const [owner] = await tx
    .select({ collectCount: users.collectCount })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .for("update");
  if (!owner) throw businessError("采集账号不存在");
  const config = await readCollectConfig(tx, tenantId);
  const values = productValues(p, config, { weight: opts.weight });

  const rule = await readInfringementRule(tx, tenantId);
  const titles = Object.values(p.title).join("\n");
  const infringementWord = await findInfringementWord(tx, tenantId, rule.infringementRuleType, titles);
  if (infringementWord && !rule.isAllowCollected) {
    throw businessError(`商品标题包含侵权词「${infringementWord}」，已按侵权规则拒绝采集`, "Collect.Infringement");
  }

  const key = and(
    eq(collections.tenantId, tenantId),
    eq(collections.userId, userId),
    eq(collections.platformType, values.platformType),
    eq(collections.itemId, values.itemId),
  );
  const [existing] = await tx.select({ id: collections.id }).from(collections).where(key);
  const now = new Date();
  if (existing) {
    await tx
      .update(collections)
      .set({
        ...values,
        infringementWord,
        collectTaskId: opts.collectTaskId ?? null,
        lastModificationTime: now,
        lastModifierId: userId,
        concurrencyStamp: randomUUID(),
      })
      .where(and(eq(collections.tenantId, tenantId), eq(collections.id, existing.id)));
    return { id: existing.id, isNew: false, infringementWord };
  }
  if (owner.collectCount !== null) {
    const [{ n }] = await tx
      .select({ n: count() })
      .from(collections)
      .where(and(eq(collections.tenantId, tenantId), eq(collections.userId, userId)));
    if (Number(n) >= owner.collectCount) {
      throw businessError(
        `已达到采集数量上限（${owner.collectCount} 个），请删除不需要的采集商品或联系主账号提高上限`,
        "Collect.LimitReached",
      );
    }
  }
  const id = randomUUID();
  await tx.insert(collections).values({
    tenantId,
    id,
    userId,
    ...values,
    status: CollectStatus.Collected,
    source: opts.source,
    infringementWord,
    collectTaskId: opts.collectTaskId ?? null,
    creationTime: now,
    creatorId: userId,
  });
  return { id, isNew: true, infringementWord };
}

/** How many more collections a user may make (null: no limit). */
export async function remainingCollects(tx: Tx, tenantId: string, userId: string): Promise<number | null> {
  const [owner] = await tx
    .select({ collectCount: users.collectCount })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  if (!owner || owner.collectCount === null) return null;
  const [{ n }] = await tx
    .select({ n: count() })
    .from(collections)
    .where(and(eq(collections.tenantId, tenantId), eq(collections.userId, userId)));
  return Math.max(0, owner.collectCount - Number(n));
}
