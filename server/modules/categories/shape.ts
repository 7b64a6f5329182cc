// Pure conversions of the category area: Mercado Libre's category dump into our rows, its attribute answers into the
// spec's attribute shape, and our rows into the picker's tree. No database, no network: unit-testable and shared by the
// sync job and the calls.
import { createHash } from "node:crypto";
import type { CategoryAttribute as MeliAttribute, CategoryDetail } from "../../integrations/mercadolibre/endpoints/categories.ts";
import { CategoryAttributeModelType, type CategoryAttribute, type CategoryTreeNode } from "#shared/contract/category.ts";

const PATH_SEPARATOR = " > ";

/** A category row as the tree sync writes it (the columns Mercado Libre's dump decides). */
export type TreeRow = {
  cateId: string;
  level: number;
  name: string;
  pId: string | null;
  isLeaf: boolean;
  fullName: string;
  pathName: string;
  sort: number;
  listingAllowed: boolean;
  domain: string | null;
  maxTitleLength: number | null;
  maxPictures: number | null;
  minimumPrice: number | null;
  currency: string | null;
};

/**
 * The rows of a site from `/sites/{SITE}/categories/all`. Level, parent and paths come from path_from_root; a
 * category's position among its siblings from its parent's children_categories (roots keep the dump's order).
 */
export function treeRows(dump: Record<string, CategoryDetail>): TreeRow[] {
  const position = new Map<string, number>();
  let rootIndex = 0;
  for (const c of Object.values(dump)) {
    c.children_categories.forEach((child, i) => position.set(child.id, i));
  }
  const rows: TreeRow[] = [];
  for (const c of Object.values(dump)) {
    const path = c.path_from_root.length ? c.path_from_root : [{ id: c.id, name: c.name }];
    const parent = path.length > 1 ? path[path.length - 2].id : null;
    rows.push({
      cateId: c.id,
      level: path.length,
      name: c.name,
      pId: parent,
      isLeaf: c.children_categories.length === 0,
      fullName: path.map((p) => p.name).join(PATH_SEPARATOR),
      pathName: path.map((p) => p.id).join("/"),
      sort: parent ? (position.get(c.id) ?? 0) : rootIndex++,
      listingAllowed: c.settings.listing_allowed ?? c.children_categories.length === 0,
      domain: c.settings.catalog_domain ?? null,
      maxTitleLength: c.settings.max_title_length ?? null,
      maxPictures: c.settings.max_pictures_per_item ?? null,
      minimumPrice: c.settings.minimum_price ?? null,
      currency: c.settings.minimum_price_currency ?? null,
    });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------------------
// Attributes.

/** The product field an attribute is filled from when publishing (spec §3 attribute alias). */
const productFields: Record<string, string> = {
  BRAND: "brand",
  SELLER_SKU: "sku",
  GTIN: "gtin",
  ITEM_CONDITION: "condition",
  PACKAGE_LENGTH: "size",
  PACKAGE_WIDTH: "size",
  PACKAGE_HEIGHT: "size",
  PACKAGE_WEIGHT: "weight",
};

const setTags = (tags: Record<string, unknown>) =>
  Object.entries(tags)
    .filter(([, v]) => v === true)
    .map(([k]) => k);

function modelTypeOf(tags: string[]): CategoryAttributeModelType {
  if (tags.includes("hidden") || tags.includes("read_only")) return CategoryAttributeModelType.Hidden;
  if (tags.includes("allow_variations")) return CategoryAttributeModelType.Variation;
  if (tags.includes("variation_attribute")) return CategoryAttributeModelType.VariationData;
  return CategoryAttributeModelType.Item;
}

/**
 * Mercado Libre's attribute list in the spec's shape. Chinese names already given to the same attribute and values
 * (`previous`) are kept, so a re-sync does not lose what AckAttr translated.
 */
export function toAttributes(list: MeliAttribute[], previous: CategoryAttribute[] = []): CategoryAttribute[] {
  const before = new Map(previous.map((a) => [a.id, a]));
  return list.map((a) => {
    const tags = setTags(a.tags);
    const old = before.get(a.id);
    const oldValues = new Map((old?.values ?? []).map((v) => [v.id, v]));
    return {
      id: a.id,
      modelType: modelTypeOf(tags),
      isRequired: tags.includes("required"),
      name: a.name,
      alias: productFields[a.id] ?? null,
      zh: old && old.name === a.name ? old.zh : null,
      values: (a.values ?? []).map((v) => {
        const before = oldValues.get(v.id);
        return { id: v.id, name: v.name, zh: before && before.name === v.name ? before.zh : null };
      }),
      units: (a.allowed_units ?? []).map((u) => ({ id: u.id, name: u.name })),
      defaultUnit: a.default_unit ?? null,
      valueType: a.value_type,
      valueMaxLength: a.value_max_length ?? null,
      tags,
      hierarchy: a.hierarchy ?? null,
      relevance: a.relevance ?? null,
      groupId: a.attribute_group_id ?? null,
      groupName: typeof a.attribute_group_name === "string" ? a.attribute_group_name : null,
    };
  });
}

/** The attributes variations are made of: the category's variantKeys. */
export const variantKeysOf = (attributes: CategoryAttribute[]) =>
  attributes.filter((a) => a.modelType === CategoryAttributeModelType.Variation).map((a) => a.id);

export const hashOf = (value: unknown) => createHash("sha1").update(JSON.stringify(value)).digest("hex");

// ---------------------------------------------------------------------------------------------------------------
// The picker's tree.

export type NodeRow = {
  cateId: string;
  pId: string | null;
  name: string;
  fullName: string;
  zh: string | null;
  alias: string | null;
  isLeaf: boolean;
  listingAllowed: boolean;
  visible: boolean;
};

/**
 * Nodes for the picker from the site's rows in (level, sort) order. A category shows when it and every ancestor is
 * visible (enabled by the host, present on Mercado Libre); a leaf only when it can be listed in; a branch only when
 * something under it shows. Answers the roots and how many nodes there are.
 */
export function buildTree(rows: NodeRow[]): { roots: CategoryTreeNode[]; count: number } {
  const nodes = new Map<string, CategoryTreeNode>();
  const roots: CategoryTreeNode[] = [];
  for (const r of rows) {
    if (!r.visible || (r.isLeaf && !r.listingAllowed)) continue;
    const parent = r.pId === null ? null : nodes.get(r.pId);
    if (r.pId !== null && !parent) continue; // an ancestor is hidden
    const node: CategoryTreeNode = { id: r.cateId, name: r.name, fullName: r.fullName };
    if (r.zh) node.zh = r.zh;
    if (r.alias) node.alias = r.alias;
    if (r.isLeaf) node.isLeaf = true;
    else node.children = [];
    nodes.set(r.cateId, node);
    if (parent) parent.children!.push(node);
    else roots.push(node);
  }
  // Branches left without a choice under them are dropped, deepest first.
  let count = 0;
  const prune = (list: CategoryTreeNode[]): CategoryTreeNode[] =>
    list.filter((n) => {
      if (n.children) n.children = prune(n.children);
      const keep = n.isLeaf === true || (n.children?.length ?? 0) > 0;
      if (keep) count++;
      return keep;
    });
  const kept = prune(roots);
  return { roots: kept, count };
}
