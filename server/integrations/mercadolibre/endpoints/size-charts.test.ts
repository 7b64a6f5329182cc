// Contract of the size-chart endpoints (docs/12-products/guias-de-talles.md, primeros-pasos-es.md,
// validacion-de-guia-de-talles.md): documented example answers, written from the pages, go through each endpoint's
// schema and the code that stores a chart (modules/size-charts/chart-data.ts storedChart); the bodies sent are the
// page's (domain without the site prefix, GENDER and BRAND filters, main_attribute, rows by value name).
import { describe, expect, it } from "vitest";
import { contractSession } from "../../../testing/meli-contract.ts";
import { storedChart } from "../../../modules/size-charts/chart-data.ts";
import { MeliApiError } from "../errors.ts";
import { addChartRow, chartDomainId, createChart, getChart, searchCharts } from "./size-charts.ts";

/** "Respuesta, creación de la guía de talles para dominios de footwear": main US size, SIZE computed per row. */
const footwear = {
  id: "463005",
  names: { MLM: "Guía de tenis de hombre" },
  domain_id: "SNEAKERS",
  site_id: "MLM",
  type: "SPECIFIC",
  seller_id: 1108966308,
  main_attribute_id: "M_US_SIZE",
  secondary_attribute_id: "MX_SIZE",
  attributes: [{ id: "GENDER", name: "Género", values: [{ id: "339666", name: "Hombre" }] }],
  rows: [
    {
      id: "463005:1",
      attributes: [
        { id: "SIZE", name: "Talla", values: [{ name: "8,5 US", struct: { number: 8.5, unit: "US" } }] },
        { id: "FOOT_LENGTH", name: "Largo del pie", values: [{ name: "26 cm", struct: { number: 26, unit: "cm" } }] },
        { id: "M_US_SIZE", name: "US-M", values: [{ name: "8,5 US" }] },
      ],
    },
    {
      id: "463005:2",
      attributes: [
        { id: "SIZE", name: "Talla", values: [{ name: "9 US" }] },
        { id: "M_US_SIZE", values: [{ name: "9 US" }] },
      ],
    },
  ],
};

describe("size chart endpoints", () => {
  it("search: the domain without its site prefix, the seller, GENDER and BRAND, paged", async () => {
    const s = contractSession({ "POST /catalog/charts/search": { charts: [footwear], paging: { offset: 0, limit: 50, total: 1 } } });
    const found = await searchCharts(s, {
      domainId: "MLM-SNEAKERS",
      siteId: "MLM",
      sellerId: "1108966308",
      gender: { id: "339666", name: "Hombre" },
      brand: "Acme",
      offset: 50,
    });
    expect(found.paging.total).toBe(1);
    expect(found.charts[0].rows.map((r) => r.id)).toEqual(["463005:1", "463005:2"]);
    expect(s.calls[0].query).toEqual({ offset: 50, limit: 50 });
    expect(s.calls[0].body).toEqual({
      domain_id: "SNEAKERS",
      site_id: "MLM",
      seller_id: 1108966308,
      attributes: [
        { id: "GENDER", values: [{ id: "339666", name: "Hombre" }] },
        { id: "BRAND", values: [{ name: "Acme" }] },
      ],
    });
    expect(chartDomainId("SNEAKERS")).toBe("SNEAKERS");
  });

  it("a stored chart labels each row with its SIZE, keeps our domain and the site's name", async () => {
    const chart = await getChart(contractSession({ "GET /catalog/charts/463005": footwear }), "463005");
    const row = storedChart("t", "g", 1, "MLM-SNEAKERS", chart);
    expect(row).toMatchObject({
      chartId: "463005",
      domainId: "MLM-SNEAKERS",
      name: "Guía de tenis de hombre",
      chartType: "SPECIFIC",
      gender: "Hombre",
      mainAttributeId: "M_US_SIZE",
      rows: [
        { id: "463005:1", label: "8,5 US" },
        { id: "463005:2", label: "9 US" },
      ],
    });
    // Numeric ids (as some answers carry them) read as strings.
    const numeric = await getChart(
      contractSession({ "GET /catalog/charts/7": { ...footwear, id: 7, rows: [{ id: 1, attributes: [] }] } }),
      "7",
    );
    expect([numeric.id, numeric.rows[0].id]).toEqual(["7", "1"]);
  });

  it("create: the page's body (names by site, main_attribute, GENDER, rows by value name)", async () => {
    const s = contractSession({ "POST /catalog/charts": footwear });
    const made = await createChart(s, {
      name: "Guía de tenis de hombre",
      domainId: "MLM-SNEAKERS",
      siteId: "MLM",
      gender: { id: "339666", name: "Hombre" },
      mainAttributeId: "M_US_SIZE",
      rows: [[{ id: "M_US_SIZE", values: ["8,5 US"] }], [{ id: "M_US_SIZE", values: ["9 US"] }]],
    });
    expect(made.id).toBe("463005");
    expect(s.calls[0].body).toEqual({
      names: { MLM: "Guía de tenis de hombre" },
      domain_id: "SNEAKERS",
      site_id: "MLM",
      main_attribute: { attributes: [{ site_id: "MLM", id: "M_US_SIZE" }] },
      attributes: [{ id: "GENDER", values: [{ id: "339666", name: "Hombre" }] }],
      rows: [
        { attributes: [{ id: "M_US_SIZE", values: [{ name: "8,5 US" }] }] },
        { attributes: [{ id: "M_US_SIZE", values: [{ name: "9 US" }] }] },
      ],
    });
  });

  it("add a row, and refuse an answer without the chart's domain, naming the field", async () => {
    const s = contractSession({
      "POST /catalog/charts/463005/rows": { id: "463005:3", attributes: [{ id: "SIZE", values: [{ name: "10 US" }] }] },
    });
    const row = await addChartRow(s, "463005", [{ id: "M_US_SIZE", values: ["10 US"] }]);
    expect(row.id).toBe("463005:3");
    expect(s.calls[0].body).toEqual({ attributes: [{ id: "M_US_SIZE", values: [{ name: "10 US" }] }] });
    const { domain_id: _drop, ...noDomain } = footwear;
    void _drop;
    const err = await getChart(contractSession({ "GET /catalog/charts/1": noDomain }), "1").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeliApiError);
    expect((err as MeliApiError).meli.message).toContain("domain_id");
  });
});
