// Size charts as Mercado Libre documents them (docs/12-products/guias-de-talles.md, primeros-pasos-es.md,
// validacion-de-guia-de-talles.md): a seller creates a SPECIFIC chart for a fashion domain (domain_id without the site
// prefix: "T_SHIRTS", not "MLM-T_SHIRTS") and a GENDER of that domain (POST /catalog/charts), adds rows
// (POST /catalog/charts/{id}/rows), reads one (GET /catalog/charts/{id}) and searches charts by domain, site and seller
// with the GENDER and BRAND filters the search requires (POST /catalog/charts/search?offset=&limit=). Each row gets the
// id "{chart}:{n}" and a SIZE computed from the main attribute. Charts live beside the store's state, one set per
// sandbox, and a reset keeps them (they are the seller's set-up). The item rules (SIZE_GRID_ID / SIZE_GRID_ROW_ID) are
// in chart-rules.ts.
import type { FastifyInstance } from "fastify";
import type { Category } from "./categories.ts";
import { badRequest, forbidden, MeliError, notFound } from "./errors.ts";
import { caller, intQuery, objectBody, params, query, route } from "./http.ts";
import { isLocalSite } from "./sites.ts";
import type { Store, User } from "./store.ts";
import { chartsOf, fold, type Chart, type ChartAttribute, type ChartRow, type ChartValue } from "./chart-rules.ts";

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
function readAttributes(v: unknown, where: string): ChartAttribute[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw badRequest(`${where} must be a list`);
  return v.map((a) => {
    if (!isObj(a) || typeof a.id !== "string" || !Array.isArray(a.values)) throw badRequest(`${where}: each needs id and values`);
    const values = a.values.map((x) => {
      const name = isObj(x) && typeof x.name === "string" ? x.name.trim() : "";
      const id = isObj(x) && typeof x.id === "string" ? x.id : undefined;
      if (!name && !id) throw badRequest(`${where}: each value needs a name or an id`);
      return { ...(id ? { id } : {}), name };
    });
    return { id: a.id, values };
  });
}

/** The site's leaves of a fashion domain (the chart's domain, without the site prefix) that ask for a size chart. */
const domainLeaves = (store: Store, site: string, domain: string): Category[] =>
  isLocalSite(site)
    ? store.trees[site].all.filter((c) => c.leaf && c.domainId === `${site}-${domain}` && c.attributes.some((a) => a.id === "SIZE_GRID_ID"))
    : [];

/** The domain's GENDER value a chart's gender names (by id or name), or null. */
function genderOf(leaves: Category[], wanted: ChartValue) {
  const values = leaves[0]?.attributes.find((a) => a.id === "GENDER")?.values ?? [];
  return values.find((v) => v.id === wanted.id || (!!wanted.name && fold(v.name) === fold(wanted.name))) ?? null;
}

const techSpecsNotFound = (site: string, domain: string, gender: string) =>
  new MeliError(
    404,
    "chart_tech_specs_not_found",
    `Chart technical specification not found for SITE:${site}-DOMAIN:${domain}-GENDER:${gender}`,
  );

/** One chart validation error, in the shape the page shows ({error, message, status, errors[{code, message, cell}]}). */
function rowError(code: string, message: string, attributeId: string, main: string, value: string) {
  const cell = { attribute_id: attributeId, row: { id: null, main_attribute: { id: main, value } } };
  return new MeliError(400, "chart_validation_error", "Chart validation errors found", [], { errors: [{ code, message, cell }] });
}

/** A row from a body: the main attribute's value, and SIZE computed from it (as the page's answers show). */
function readRow(r: unknown, where: string, main: string, taken: string[]): Omit<ChartRow, "id"> {
  if (!isObj(r)) throw badRequest(`${where} must be an object`);
  const attributes = readAttributes(r.attributes, `${where}.attributes`).filter((a) => a.id !== "SIZE" || main === "SIZE");
  const value = attributes.find((a) => a.id === main)?.values[0]?.name ?? "";
  if (!value)
    throw rowError("required_row_attribute_not_found", `Required attribute ${main} was not found in row ${main} .`, main, main, "");
  if (taken.some((t) => fold(t) === fold(value)))
    throw rowError(
      "duplicated_measure_value",
      `Duplicated measure in attribute ${main} was found in row ${main} ${value} .`,
      main,
      main,
      value,
    );
  taken.push(value);
  return { attributes: main === "SIZE" ? attributes : [{ id: "SIZE", name: "Talle", values: [{ name: value }] }, ...attributes] };
}

/** The chart from a POST /catalog/charts body, or Mercado Libre's error for what is wrong with it. */
function readChart(store: Store, seller: User, b: Record<string, unknown>): Chart {
  const site = typeof b.site_id === "string" ? b.site_id.toUpperCase() : "";
  if (!isLocalSite(site)) throw badRequest(`Invalid site_id: ${String(b.site_id)}`);
  const domain = typeof b.domain_id === "string" ? b.domain_id.trim() : "";
  if (!domain) throw badRequest("domain_id is required");
  if (!isObj(b.names) || !Object.values(b.names).some((n) => typeof n === "string" && n.trim())) throw badRequest("names is required");
  const type = b.type === undefined ? "SPECIFIC" : b.type;
  if (type !== "SPECIFIC") throw badRequest("Only SPECIFIC charts can be created by a seller");
  const attributes = readAttributes(b.attributes, "attributes");
  const wanted = attributes.find((a) => a.id === "GENDER")?.values[0] ?? { name: "" };
  const leaves = domainLeaves(store, site, domain);
  const gender = genderOf(leaves, wanted);
  if (!gender) throw techSpecsNotFound(site, domain, wanted.name || wanted.id || "");
  const main = isObj(b.main_attribute) && Array.isArray(b.main_attribute.attributes) ? b.main_attribute.attributes[0] : null;
  const mainId = isObj(main) && typeof main.id === "string" ? main.id : null;
  if (!mainId) throw new MeliError(400, "main_attribute_missing_error", `Main attribute for site ${site} is missing.`);
  if (!Array.isArray(b.rows) || b.rows.length === 0) throw badRequest("rows must have at least one row");
  const id = String(500_000 + chartsOf(store).size * 7 + (seller.id % 7));
  const taken: string[] = [];
  const rows = b.rows.map((r, i) => ({ id: `${id}:${i + 1}`, ...readRow(r, `rows[${i}]`, mainId, taken) }));
  return {
    id,
    names: Object.fromEntries(Object.entries(b.names).filter(([, n]) => typeof n === "string")) as Record<string, string>,
    domain_id: domain,
    site_id: site,
    type,
    seller_id: seller.id,
    main_attribute_id: mainId,
    attributes: attributes.map((a) =>
      a.id === "GENDER" ? { id: "GENDER", name: "Género", values: [{ id: gender.id, name: gender.name }] } : a,
    ),
    rows,
    date_created: store.iso(),
  };
}

const chartJson = (c: Chart) => ({
  ...c,
  main_attribute: { attributes: [{ site_id: c.site_id, id: c.main_attribute_id }] },
});

/** Whether a chart has the filter's value for an attribute (a chart without the attribute holds for any). */
const holds = (c: Chart, filter: ChartAttribute) => {
  const have = c.attributes.find((a) => a.id === filter.id);
  return (
    !have || filter.values.some((v) => have.values.some((x) => (!!v.id && x.id === v.id) || (!!v.name && fold(x.name) === fold(v.name))))
  );
};

export function registerChartRoutes(f: FastifyInstance, store: Store) {
  const auth = route({ auth: "required" });
  const visible = (c: Chart, me: User) => c.type !== "SPECIFIC" || store.ownIds(me).includes(c.seller_id);
  const ownChart = (req: Parameters<typeof caller>[0]) => {
    const chart = chartsOf(store).get(params(req).id);
    if (!chart) throw notFound(`Chart ${params(req).id} not found`);
    if (!visible(chart, caller(req))) throw forbidden();
    return chart;
  };

  f.post("/catalog/charts", auth, async (req, reply) => {
    const chart = readChart(store, caller(req), objectBody(req));
    chartsOf(store).set(chart.id, chart);
    return reply.code(201).send(chartJson(chart));
  });

  f.get("/catalog/charts/:id", auth, async (req) => chartJson(ownChart(req)));

  // A new row of a SPECIFIC chart: its main attribute's value, not one the chart has (rows are never removed).
  f.post("/catalog/charts/:id/rows", auth, async (req, reply) => {
    const chart = ownChart(req);
    if (chart.type !== "SPECIFIC") throw forbidden();
    const main = chart.main_attribute_id;
    const taken = chart.rows.map((r) => r.attributes.find((a) => a.id === main)?.values[0]?.name ?? "");
    const row = { id: `${chart.id}:${chart.rows.length + 1}`, ...readRow(objectBody(req), "row", main, taken) };
    chart.rows.push(row);
    return reply.code(201).send(row);
  });

  // Charts of a domain and site: the seller's own (SPECIFIC) and the shared ones, of the GENDER and BRAND asked.
  f.post("/catalog/charts/search", auth, async (req) => {
    const me = caller(req);
    const b = objectBody(req);
    const q = query(req);
    const offset = intQuery(q.offset, "offset", 0, 0, 10_000);
    const limit = intQuery(q.limit, "limit", 50, 1, 100);
    if (typeof b.domain_id !== "string" || !b.domain_id.trim()) throw badRequest("domain_id is required");
    if (typeof b.site_id !== "string" || !b.site_id.trim()) throw badRequest("site_id is required");
    if (b.seller_id === undefined) throw badRequest("seller_id is required");
    const sellerId = Number(b.seller_id);
    if (!store.ownIds(me).includes(sellerId)) throw forbidden();
    const filters = readAttributes(b.attributes, "attributes");
    for (const required of ["GENDER", "BRAND"])
      if (!filters.some((a) => a.id === required && a.values.length))
        throw badRequest(`The attribute ${required} is required to search charts`);
    const type = b.type === undefined ? null : String(b.type);
    const domain = b.domain_id.trim();
    const site = b.site_id.toUpperCase();
    const found = [...chartsOf(store).values()].filter(
      (c) =>
        c.domain_id === domain &&
        c.site_id === site &&
        (type === null || c.type === type) &&
        (c.type !== "SPECIFIC" || c.seller_id === sellerId) &&
        filters.every((w) => holds(c, w)),
    );
    return { charts: found.slice(offset, offset + limit).map(chartJson), paging: { total: found.length, offset, limit } };
  });
}

export { checkSizeGrid } from "./chart-rules.ts";
