// Size charts (guías de talles). Docs: docs/12-products/guias-de-talles.md (POST /catalog/charts, GET
// /catalog/charts/{id}, POST /catalog/charts/{id}/rows; items name a chart with SIZE_GRID_ID and a row with
// SIZE_GRID_ROW_ID), docs/12-products/primeros-pasos-es.md (POST /catalog/charts/search?offset=&limit=),
// docs/12-products/validacion-de-guia-de-talles.md ("utiliza como mínimo los campos de género y marca para encontrar una
// guía de talles": the search's GENDER and BRAND filters; creation errors). A chart's domain_id has no site prefix
// ("T_SHIRTS"), where a category's domain has one ("MLM-T_SHIRTS").
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";

const chartValue = z.looseObject({ id: z.union([z.string(), z.number()]).nullish(), name: z.string().nullish() });
const chartAttribute = z.looseObject({ id: z.string(), name: z.string().nullish(), values: z.array(chartValue).default([]) });
const chartRow = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  attributes: z.array(chartAttribute).default([]),
});

/** A chart as GET /catalog/charts/{id}, the creation and the search answer it. */
const meliChart = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  names: z.record(z.string(), z.string()).default({}),
  domain_id: z.string(),
  site_id: z.string(),
  type: z.string().nullish(),
  seller_id: z.number().nullish(),
  main_attribute_id: z.string().nullish(),
  main_attribute: z.looseObject({ attributes: z.array(z.looseObject({ id: z.string() })).nullish() }).nullish(),
  attributes: z.array(chartAttribute).default([]),
  rows: z.array(chartRow).default([]),
});
export type MeliChart = z.infer<typeof meliChart>;

const chartSearchAnswer = z.looseObject({
  charts: z.array(meliChart),
  paging: z.looseObject({ total: z.number().int().min(0), offset: z.number().int().nullish(), limit: z.number().int().nullish() }),
});

/** A category's domain ("MLM-T_SHIRTS") as a chart names it ("T_SHIRTS"). */
export const chartDomainId = (domain: string) => domain.replace(/^[A-Z]{3}-/, "");

/** The chart's main attribute (main_attribute_id, or the main_attribute sent at creation). */
export const mainAttributeOf = (c: MeliChart) => c.main_attribute_id ?? c.main_attribute?.attributes?.[0]?.id ?? null;

/** A value as the page sends it: by id when known, else by name. */
export type ChartValueRef = { id?: string | null; name: string };
const valueBody = (v: ChartValueRef) => (v.id ? { id: v.id, name: v.name } : { name: v.name });

export type ChartSearch = {
  /** A category's domain (its site prefix is dropped) or a chart's. */
  domainId: string;
  siteId: string;
  sellerId: string;
  gender: ChartValueRef;
  brand: string;
  offset?: number;
  limit?: number;
};

/** The charts a seller can use for a domain, a gender and a brand (its own SPECIFIC ones and the shared ones). */
export const searchCharts = (s: MeliSession, q: ChartSearch, o: CallOptions = {}) =>
  s.send("POST", "/catalog/charts/search", {
    ...o,
    query: { offset: q.offset ?? 0, limit: q.limit ?? 50 },
    body: {
      domain_id: chartDomainId(q.domainId),
      site_id: q.siteId,
      seller_id: Number(q.sellerId),
      attributes: [
        { id: "GENDER", values: [valueBody(q.gender)] },
        { id: "BRAND", values: [{ name: q.brand }] },
      ],
    },
    // A search changes nothing: safe to send again after a lost answer.
    retryUnsure: true,
    schema: chartSearchAnswer,
  });

export type NewChart = {
  name: string;
  domainId: string;
  siteId: string;
  gender: ChartValueRef;
  brand?: string | null;
  /** The column shown as the size (SIZE, or a main_attribute_candidate of the chart's data sheet). */
  mainAttributeId: string;
  /** Each row's attributes: at least the main attribute's value. */
  rows: { id: string; values: string[] }[][];
};

/** A SPECIFIC chart of the seller's. */
export const createChart = (s: MeliSession, c: NewChart, o: CallOptions = {}) =>
  s.send("POST", "/catalog/charts", {
    ...o,
    body: {
      names: { [c.siteId]: c.name },
      domain_id: chartDomainId(c.domainId),
      site_id: c.siteId,
      main_attribute: { attributes: [{ site_id: c.siteId, id: c.mainAttributeId }] },
      attributes: [{ id: "GENDER", values: [valueBody(c.gender)] }, ...(c.brand ? [{ id: "BRAND", values: [{ name: c.brand }] }] : [])],
      rows: c.rows.map((attrs) => ({ attributes: attrs.map((a) => ({ id: a.id, values: a.values.map((name) => ({ name })) })) })),
    },
    schema: meliChart,
  });

export const getChart = (s: MeliSession, chartId: string, o: CallOptions = {}) =>
  s.send("GET", `/catalog/charts/${encodeURIComponent(chartId)}`, { ...o, schema: meliChart });

/** One more row of a SPECIFIC chart (rows are never removed; its main value must be new). */
export const addChartRow = (s: MeliSession, chartId: string, attrs: { id: string; values: string[] }[], o: CallOptions = {}) =>
  s.send("POST", `/catalog/charts/${encodeURIComponent(chartId)}/rows`, {
    ...o,
    body: { attributes: attrs.map((a) => ({ id: a.id, values: a.values.map((name) => ({ name })) })) },
    schema: chartRow,
  });
