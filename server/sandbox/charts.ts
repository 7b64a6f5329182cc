// Size charts (MERCADO-LIBRE.md "Size charts"): a seller creates a chart for a domain and a gender
// (POST /catalog/charts), reads one (GET /catalog/charts/{id}) and searches its charts (POST /catalog/charts/search);
// an item names a chart and one of its rows through the attributes SIZE_GRID_ID / SIZE_GRID_ROW_ID. Charts live beside
// the store's state, one set per sandbox, and a reset of the sandbox keeps them (they are the seller's set-up).
import type { FastifyInstance } from "fastify";
import type { Category } from "./categories.ts";
import { badRequest, cause, forbidden, notFound, type Cause } from "./errors.ts";
import { caller, objectBody, params, route } from "./http.ts";
import { SITE_IDS } from "./sites.ts";
import type { AttributeValue, Store, User, Variation } from "./store.ts";

type ChartValue = { id?: string; name: string };
type ChartAttribute = { id: string; values: ChartValue[] };
export type Chart = {
  id: string;
  names: Record<string, string>;
  domain_id: string;
  site_id: string;
  type: "SPECIFIC" | "BRAND" | "STANDARD";
  seller_id: number;
  main_attribute_id: string;
  attributes: ChartAttribute[];
  rows: { id: string; attributes: ChartAttribute[] }[];
  date_created: string;
};

const charts = new WeakMap<Store, Map<string, Chart>>();
const chartsOf = (store: Store) => {
  let m = charts.get(store);
  if (!m) charts.set(store, (m = new Map()));
  return m;
};

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

function readAttributes(v: unknown, where: string): ChartAttribute[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw badRequest(`${where} must be a list`);
  return v.map((a) => {
    if (!isObj(a) || typeof a.id !== "string" || !Array.isArray(a.values)) throw badRequest(`${where}: each needs id and values`);
    const values = a.values.map((x) => {
      if (!isObj(x) || typeof x.name !== "string" || !x.name.trim()) throw badRequest(`${where}: each value needs a name`);
      return { ...(typeof x.id === "string" ? { id: x.id } : {}), name: x.name.trim() };
    });
    return { id: a.id, values };
  });
}

/** The chart from a POST /catalog/charts body, or a 400 naming what is wrong. */
function readChart(store: Store, seller: User, b: Record<string, unknown>): Chart {
  const site = typeof b.site_id === "string" ? b.site_id.toUpperCase() : "";
  if (!(SITE_IDS as readonly string[]).includes(site)) throw badRequest(`Invalid site_id: ${String(b.site_id)}`);
  if (typeof b.domain_id !== "string" || !b.domain_id.trim()) throw badRequest("domain_id is required");
  if (!isObj(b.names) || !Object.values(b.names).some((n) => typeof n === "string" && n.trim())) throw badRequest("names is required");
  const type = b.type === undefined ? "SPECIFIC" : b.type;
  if (type !== "SPECIFIC" && type !== "BRAND") throw badRequest("type must be SPECIFIC or BRAND");
  const main = isObj(b.main_attribute) && Array.isArray(b.main_attribute.attributes) ? b.main_attribute.attributes[0] : null;
  const mainId = isObj(main) && typeof main.id === "string" ? main.id : null;
  if (!mainId) throw badRequest("main_attribute.attributes[0].id is required");
  if (!Array.isArray(b.rows) || b.rows.length === 0) throw badRequest("rows must have at least one row");
  const id = String(500_000 + chartsOf(store).size * 7 + (seller.id % 7));
  const rows = b.rows.map((r, i) => {
    if (!isObj(r)) throw badRequest(`rows[${i}] must be an object`);
    const attributes = readAttributes(r.attributes, `rows[${i}].attributes`);
    if (!attributes.some((a) => a.id === mainId && a.values.length > 0)) throw badRequest(`rows[${i}] has no ${mainId} value`);
    return { id: `${id}:${i + 1}`, attributes };
  });
  return {
    id,
    names: Object.fromEntries(Object.entries(b.names).filter(([, n]) => typeof n === "string")) as Record<string, string>,
    domain_id: b.domain_id.trim(),
    site_id: site,
    type,
    seller_id: seller.id,
    main_attribute_id: mainId,
    attributes: readAttributes(b.attributes, "attributes"),
    rows,
    date_created: store.iso(),
  };
}

const chartJson = (c: Chart) => ({
  ...c,
  main_attribute: { attributes: [{ site_id: c.site_id, id: c.main_attribute_id }] },
});

export function registerChartRoutes(f: FastifyInstance, store: Store) {
  const auth = route({ auth: "required" });

  f.post("/catalog/charts", auth, async (req, reply) => {
    const chart = readChart(store, caller(req), objectBody(req));
    chartsOf(store).set(chart.id, chart);
    return reply.code(201).send(chartJson(chart));
  });

  f.get("/catalog/charts/:id", auth, async (req) => {
    const chart = chartsOf(store).get(params(req).id);
    if (!chart) throw notFound(`Chart ${params(req).id} not found`);
    if (chart.type !== "STANDARD" && !store.ownIds(caller(req)).includes(chart.seller_id)) throw forbidden();
    return chartJson(chart);
  });

  // The seller's charts for a domain and site, optionally of one gender (attributes [{id:"GENDER", values:[{name}]}]).
  f.post("/catalog/charts/search", auth, async (req) => {
    const me = caller(req);
    const b = objectBody(req);
    if (typeof b.domain_id !== "string" || !b.domain_id.trim()) throw badRequest("domain_id is required");
    if (typeof b.site_id !== "string") throw badRequest("site_id is required");
    const sellerId = b.seller_id === undefined ? me.id : Number(b.seller_id);
    if (!store.ownIds(me).includes(sellerId)) throw forbidden();
    const wanted = readAttributes(b.attributes, "attributes");
    const domain = b.domain_id.trim();
    const found = [...chartsOf(store).values()].filter(
      (c) =>
        c.domain_id === domain &&
        c.site_id === String(b.site_id).toUpperCase() &&
        (c.type === "STANDARD" || store.ownIds(me).includes(c.seller_id)) &&
        wanted.every((w) => {
          const have = c.attributes.find((a) => a.id === w.id);
          return !have || w.values.some((v) => have.values.some((x) => x.name.toLowerCase() === v.name.toLowerCase()));
        }),
    );
    return { charts: found.map(chartJson), paging: { total: found.length, offset: 0, limit: found.length } };
  });
}

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .trim()
    .toLowerCase();
const valueOf = (attrs: AttributeValue[], id: string) => {
  const a = attrs.find((x) => x.id === id);
  return a ? (a.value_name ?? a.value_id) : null;
};

/**
 * An item of a category that asks for a size chart (SIZE_GRID_ID) names one of the seller's charts (or a standard one)
 * of the category's domain and site, and each variation (a plain item: the item) one of its rows (SIZE_GRID_ROW_ID)
 * whose size is the variation's. A missing SIZE_GRID_ID is the required-attribute rule's; the rest is checked here.
 */
export function checkSizeGrid(
  store: Store,
  seller: User,
  category: Category,
  attributes: AttributeValue[],
  variations: Variation[],
  c: { causes: Cause[] },
) {
  if (!category.attributes.some((a) => a.id === "SIZE_GRID_ID")) return;
  const gridId = valueOf(attributes, "SIZE_GRID_ID");
  if (!gridId) return;
  const chart = chartsOf(store).get(gridId);
  if (!chart || (chart.type !== "STANDARD" && !store.ownIds(seller).includes(chart.seller_id))) {
    c.causes.push(
      cause(
        3530,
        "item.attributes.size_grid.invalid",
        ["item.attributes"],
        `The size grid ${gridId} does not exist or is not the seller's.`,
      ),
    );
    return;
  }
  if (chart.domain_id !== category.domainId || chart.site_id !== category.site) {
    c.causes.push(
      cause(
        3531,
        "item.attributes.size_grid.domain_mismatch",
        ["item.attributes"],
        `The size grid ${gridId} is for domain ${chart.domain_id} (${chart.site_id}), not for category ${category.id}'s domain ${category.domainId}.`,
      ),
    );
    return;
  }
  const main = chart.main_attribute_id;
  const rowSizes = (row: Chart["rows"][number]) => (row.attributes.find((a) => a.id === main)?.values ?? []).map((v) => fold(v.name));
  // Each unit sold (a variation, or the item when it has none): its row must be the chart's, for its size.
  const units = variations.length
    ? variations.map((v, i) => ({ ref: `item.variations[${i}].attributes`, attrs: [...v.attribute_combinations, ...v.attributes] }))
    : [{ ref: "item.attributes", attrs: attributes }];
  for (const u of units) {
    const rowId = valueOf(u.attrs, "SIZE_GRID_ROW_ID");
    if (!rowId) {
      c.causes.push(
        cause(
          3532,
          "item.attributes.size_grid_row.missing",
          [u.ref],
          `The attribute SIZE_GRID_ROW_ID is required ${variations.length ? "in every variation" : "in the item"} for items with a size grid.`,
        ),
      );
      continue;
    }
    const row = chart.rows.find((r) => r.id === rowId);
    if (!row) {
      c.causes.push(
        cause(3533, "item.attributes.size_grid_row.invalid", [u.ref], `The row ${rowId} is not a row of the size grid ${gridId}.`),
      );
      continue;
    }
    const size = valueOf(u.attrs, main) ?? (variations.length ? valueOf(attributes, main) : null);
    if (size && !rowSizes(row).includes(fold(size))) {
      c.causes.push(
        cause(
          3534,
          "item.attributes.size_grid_row.mismatch",
          [u.ref],
          `The row ${rowId} of the size grid ${gridId} is for ${main} ${rowSizes(row).join("/")}, not ${size}.`,
        ),
      );
    }
  }
}
