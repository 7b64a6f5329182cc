// Product PredictWightByTitle (spec §7 Product, the spec's spelling): a weight for a title from the caller's own
// visible live products that have a known weight, found by trigram similarity of titles (pg_trgm over search_text,
// served by the partial GIN index products_live_search_trgm_idx).
//
// The measure is word_similarity(title, search_text): how much of the given title appears, as one stretch, in the
// product's titles. search_text holds every language of a product's title, so plain similarity() would fall with
// each translation added (a product whose zh title equals the query scores 0.23 once en/es/pt titles are added);
// word_similarity still scores it 1. Neighbours: the 5 nearest at word similarity ≥ 0.3. The weight is their
// weighted median with weights similarity², rounded to grams: a near-identical title outweighs several loose ones,
// and one outlier (a 5 kg coat among phone cases) cannot pull the answer the way an average would.
//
// Using the index takes two things (docs/decisions.md): migration 0005 marks the `<%` operator's function LEAKPROOF,
// so the tenant policy lets the trigram index serve it; and the planner is told what a trigram comparison costs
// (neighbourSettings).
import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../../db/client.ts";
import type { CallContext } from "../../http/calls.ts";
import { type PredictWeightByTitleResult } from "#shared/contract/product.ts";
import { visibleProducts } from "./filter.ts";

/** Least word similarity of a neighbour (pg_trgm.word_similarity_threshold for the `<%` operator). */
const PREDICT_MIN_SIMILARITY = 0.3;
/** Most neighbours a prediction rests on. */
const PREDICT_NEIGHBOURS = 5;
export const NO_BASIS_MESSAGE = "没有可参考的相似商品（需要先有填写了重量的商品）";

type Neighbour = { id: string; title: string; weight: number; similarity: number };

/** The weighted median of the neighbours' weights, weights similarity²; the mean of the two middle ones on an exact tie. */
export function weightedMedian(neighbours: { weight: number; similarity: number }[]): number {
  const sorted = [...neighbours].sort((a, b) => a.weight - b.weight);
  const w = sorted.map((n) => n.similarity * n.similarity);
  const half = w.reduce((a, b) => a + b, 0) / 2;
  let acc = 0;
  for (let i = 0; i < sorted.length; i++) {
    acc += w[i];
    if (Math.abs(acc - half) < 1e-12 && i + 1 < sorted.length) return (sorted[i].weight + sorted[i + 1].weight) / 2;
    if (acc >= half) return sorted[i].weight;
  }
  return sorted[sorted.length - 1].weight;
}

/**
 * The neighbour query's settings, local to the call's transaction (answers the operator cost to restore): the
 * threshold of `<%`, and the planner's cost of an operator. pg_trgm declares its operators at the cost of one integer
 * comparison (cpu_operator_cost) while a word similarity takes ~10 µs a row, so the planner would rather read the
 * tenant's rows through a btree and compare every title than use the trigram index. At 100 × the default every
 * operator of this one statement is costed closer to what the trigram ones really cost, and the planner weighs the
 * comparisons each plan makes: the index (and its rechecks of other tenants' matches), the tenant's rows, or both
 * bitmaps ANDed.
 */
export const neighbourSettings = sql`select current_setting('cpu_operator_cost') as "operatorCost",
  set_config('pg_trgm.word_similarity_threshold', ${String(PREDICT_MIN_SIMILARITY)}, true),
  set_config('cpu_operator_cost', '0.25', true)`;

/**
 * The nearest visible live products with a weight: `<%` is what the trigram index serves (a bitmap scan of the
 * matching rows), then the few matches are ordered by distance (`<<->`, 1 - word similarity).
 */
export function neighboursQuery(ctx: Pick<CallContext, "user" | "tenantId">, title: string, productId?: string | null): SQL {
  const q = sql`lower(${title})`;
  const notSelf = productId ? sql`and id <> ${productId}` : sql``;
  return sql`select id, title_text as title, weight::text as weight, word_similarity(${q}, search_text) as similarity
    from products
    where ${visibleProducts(ctx as CallContext)} and weight > 0 and ${q} <% search_text ${notSelf}
    order by ${q} <<-> search_text, id
    limit ${PREDICT_NEIGHBOURS}`;
}

export async function predictWeightByTitle(
  ctx: CallContext,
  input: { title: string; productId?: string | null },
): Promise<PredictWeightByTitleResult> {
  const [{ operatorCost }] = rowsOf<{ operatorCost: string }>(await ctx.tx.execute(neighbourSettings));
  const rows = rowsOf<{ id: string; title: string; weight: string; similarity: number }>(
    await ctx.tx.execute(neighboursQuery(ctx, input.title, input.productId)),
  );
  await ctx.tx.execute(sql`select set_config('cpu_operator_cost', ${operatorCost}, true)`);
  const neighbours: Neighbour[] = rows.map((r) => ({
    id: r.id,
    title: r.title,
    weight: Number(r.weight),
    similarity: Math.round(Number(r.similarity) * 1000) / 1000,
  }));
  if (!neighbours.length) return { weight: null, hasBasis: false, message: NO_BASIS_MESSAGE, neighbours: [] };
  return {
    weight: Math.round(weightedMedian(neighbours)),
    hasBasis: true,
    message: `根据 ${neighbours.length} 个相似商品的重量估算`,
    neighbours,
  };
}
