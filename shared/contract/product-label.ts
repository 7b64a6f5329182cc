// Product labels (spec §3 "Product label: id, name, sort, count. Label group: id, name, productLabels."; §7
// ProductLabel). Labels belong to the tenant: its main account keeps them, every user of the tenant reads them, and a
// label's count is how many of the caller's visible live products carry it. Putting labels on products and taking them
// off (LinkProductLabel, CancelLinkProductLabel) are bulk edits, in product.ts.
import { z } from "zod";
import { id } from "./common.ts";

/** At most this many labels, and label groups, per tenant. */
export const MAX_PRODUCT_LABELS = 500;
export const MAX_PRODUCT_LABEL_GROUPS = 100;

/** A label or group name: trimmed, 1-50 characters, no line breaks or control characters; unique in the tenant. */
const productLabelName = z
  .string()
  .trim()
  .min(1, "名称不能为空")
  .max(50, "名称最多50个字符")
  .regex(/^[^\p{Cc}]*$/u, "名称不能包含换行或控制字符");

/** Lower sorts first; equal sorts go by name. */
const productLabelSort = z.number().int().min(-1_000_000).max(1_000_000);

export const productLabel = z.object({
  id: z.string(),
  name: z.string(),
  sort: z.number().int(),
  /** The group the label is in; null: ungrouped. */
  groupId: z.string().nullable(),
  /** How many of the caller's visible live products carry the label (a sub-account: its own products). */
  count: z.number().int(),
});
export type ProductLabel = z.infer<typeof productLabel>;

export const productLabelGroup = z.object({
  id: z.string(),
  name: z.string(),
  sort: z.number().int(),
  /** The group's labels, by sort then name. */
  productLabels: z.array(productLabel),
});
export type ProductLabelGroup = z.infer<typeof productLabelGroup>;

/**
 * GetProductLabels: every label of the tenant (by sort then name; ungrouped ones have groupId null) and every group
 * with its labels (by sort then name). The same label objects appear in both, so a filter list reads `labels` and the
 * label manager reads `groups` plus the ungrouped labels.
 */
export const productLabelList = z.object({
  labels: z.array(productLabel),
  groups: z.array(productLabelGroup),
});
export type ProductLabelList = z.infer<typeof productLabelList>;

/**
 * CreateOrUpdateProductLabel: without id creates (sort 0, ungrouped unless given); with id edits that label, and a
 * field left out keeps its value (groupId null ungroups it).
 */
export const createOrUpdateProductLabelInput = z.object({
  id: id.nullish(),
  name: productLabelName,
  sort: productLabelSort.nullish(),
  groupId: id.nullish(),
});

/** CreateOrUpdateProductLabels: several at once, all or nothing (names may be swapped between labels). */
export const createOrUpdateProductLabelsInput = z.array(createOrUpdateProductLabelInput).min(1).max(MAX_PRODUCT_LABELS);

/** CreateOrUpdateProductLabelGroup: without id creates; with id renames / re-sorts that group. */
export const createOrUpdateProductLabelGroupInput = z.object({
  id: id.nullish(),
  name: productLabelName,
  sort: productLabelSort.nullish(),
});

/** DeleteProductLabel / DeleteProductLabelGroup: the id in the query. */
export const productLabelIdQuery = z.object({ id });
