// Contract tests of the shipment endpoints: answers shaped as envios.md and mercadoenvios-modo-2.md show them (written
// by us from those pages) go through the schemas and the orders module's reading of a shipment (orders/read.ts): the
// new format's destination, lead_time costs and dates, the history's shipping and delivery dates, the SLA's deadline;
// the x-format-new header on every shipment read; the labels of several shipments in one call, PDF or ZPL II.
import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import { contractSession } from "../../../testing/meli-contract.ts";
import { createOrderReads } from "../../../modules/orders/read.ts";
import type { MeliSession, SendOptions } from "../client.ts";
import { getMarketplaceShipmentLabel, getShipment, getShipmentItems, getShipmentLabels } from "./shipments.ts";

// envios.md "Consultar envíos" (x-format-new: true): a shipped drop_off shipment, its buyer's address and costs.
const shipment = {
  id: 43308302844,
  status: "shipped",
  substatus: null,
  date_created: "2026-05-20T10:08:30.000-04:00",
  last_updated: "2026-05-21T15:09:22.000-04:00",
  declared_value: 998,
  tracking_number: "MEL43308302844MX",
  tracking_method: "Mercado Envíos",
  logistic: { mode: "me2", type: "drop_off", direction: "forward" },
  origin: { type: "selling_address", sender_id: 206946886, shipping_address: { address_line: "XXXXXXX" } },
  destination: {
    comments: null,
    receiver_id: 123456789,
    receiver_name: "Juan Pérez",
    receiver_phone: null,
    shipping_address: {
      address_id: 1018374566,
      address_line: "Av. Insurgentes Sur 1602",
      street_name: "Av. Insurgentes Sur",
      street_number: "1602",
      zip_code: "03940",
      city: { id: "TUxNQ0JFTjM5MTA", name: "Benito Juárez" },
      state: { id: "MX-DIF", name: "Distrito Federal" },
      country: { id: "MX", name: "Mexico" },
      neighborhood: { id: null, name: "Crédito Constructor" },
      types: ["shipping"],
    },
    type: "buying_address",
  },
  lead_time: {
    option_id: 3628548109,
    shipping_method: { id: 501245, name: "Estándar a domicilio", type: "standard", deliver_to: "address" },
    currency_id: "MXN",
    cost: 0,
    list_cost: 93.5,
    cost_type: "free",
    estimated_delivery_time: { type: "known", date: "2026-05-25T00:00:00.000-04:00", unit: "hour", shipping: 48, handling: 24 },
    estimated_delivery_final: { date: "2026-05-30T00:00:00.000-04:00" },
  },
  tags: [],
};

// envios.md "Consultar historial": newest first.
const history = [
  { status: "shipped", substatus: null, date: "2026-05-21T15:09:22.000Z" },
  { status: "ready_to_ship", substatus: "printed", date: "2026-05-20T18:00:00.000Z" },
  { status: "handling", substatus: null, date: "2026-05-20T14:10:00.000Z" },
];

/** A contract session that also keeps each call's headers (the format header is part of the contract). */
function withHeaders(answers: Record<string, unknown>) {
  const inner = contractSession(answers);
  const headers: (Record<string, string> | undefined)[] = [];
  const session: MeliSession = {
    get: inner.get,
    send: <T>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, opts?: SendOptions<T>) => {
      headers.push(opts?.headers);
      return inner.send<T>(method, path, opts);
    },
  };
  return { session, calls: inner.calls, headers };
}

const quiet = { info: () => undefined } as unknown as FastifyBaseLogger;

describe("a shipment in the new format", () => {
  it("is asked for with x-format-new and read for its address, costs, dates and tracking", async () => {
    const s = withHeaders({ "GET /shipments/43308302844": shipment, "GET /shipments/43308302844/history": history });
    const facts = await createOrderReads(quiet).readShipment(s.session, false, "43308302844");
    expect(s.calls.map((c) => c.path)).toEqual(["/shipments/43308302844", "/shipments/43308302844/history"]);
    for (const h of s.headers) expect(h).toMatchObject({ "x-format-new": "true" });
    expect(facts).toMatchObject({
      id: "43308302844",
      status: "shipped",
      trackingNumber: "MEL43308302844MX",
      logisticsName: "Estándar a domicilio",
      listCost: 93.5,
      buyerCost: 0,
      goodsValue: 998,
      estimatedDelivery: "2026-05-25T00:00:00.000-04:00",
      shippedAt: "2026-05-21T15:09:22.000Z",
      deliveredAt: null,
      // Shipped: no dispatch deadline is read any more.
      handlingLimit: null,
    });
    expect(facts!.address).toMatchObject({
      name: "Juan Pérez",
      street: "Av. Insurgentes Sur 1602",
      city: "Benito Juárez",
      state: "Distrito Federal",
      postalCode: "03940",
      country: "Mexico",
      region: "Crédito Constructor",
    });
  });

  it("while it waits to be dispatched, its deadline comes from the SLA; before the payment it has no address", async () => {
    const waiting = { ...shipment, status: "handling", destination: { ...shipment.destination, shipping_address: null } };
    const s = withHeaders({
      "GET /marketplace/shipments/9": { ...waiting, id: 9 },
      "GET /marketplace/shipments/9/sla": { status: "on_time", service: null, expected_date: "2026-05-21T23:59:59-03:00" },
    });
    const facts = await createOrderReads(quiet).readShipment(s.session, true, "9");
    expect(s.calls.map((c) => c.path)).toEqual(["/marketplace/shipments/9", "/marketplace/shipments/9/sla"]);
    expect(facts).toMatchObject({ status: "handling", handlingLimit: "2026-05-21T23:59:59-03:00", shippedAt: null, address: null });
  });

  it("an answer without a status is refused, naming the field", async () => {
    const s = contractSession({ "GET /shipments/1": { ...shipment, status: undefined } });
    await expect(getShipment(s, "1", false)).rejects.toMatchObject({
      kind: "bad-response",
      meli: { message: expect.stringContaining("status") },
    });
  });
});

describe("a shipment's items", () => {
  it('name the orders the shipment carries (envios.md "Ítems asociados a un envío")', async () => {
    const s = withHeaders({
      "GET /shipments/43308302844/items": [
        {
          item_id: "MLM12345678",
          description: "Audífonos",
          quantity: 1,
          variation_id: 0,
          order_id: 2000003508419013,
          sender_id: 206946886,
        },
        { item_id: "MLM12345679", description: "Funda", quantity: 2, variation_id: 0, order_id: 2000003508419014, sender_id: 206946886 },
      ],
    });
    const items = await getShipmentItems(s.session, "43308302844", false);
    expect(items.map((i) => i.order_id)).toEqual(["2000003508419013", "2000003508419014"]);
    expect(s.headers[0]).toMatchObject({ "x-format-new": "true" });
  });
});

describe("labels", () => {
  it("asks for several shipments' labels at once, as a PDF or ZPL II, and hands the file back as is", async () => {
    const pdf = Buffer.from("%PDF-1.4 two labels");
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
    const s = contractSession({ "GET /shipment_labels": pdf, "GET /marketplace/shipments/7/labels": pdf });
    expect(await getShipmentLabels(s, ["43308302844", "43308302845"], "pdf")).toBe(pdf);
    expect(s.calls[0].query).toEqual({ shipment_ids: "43308302844,43308302845", response_type: "pdf" });
    const z = contractSession({ "GET /shipment_labels": zip });
    expect(await getShipmentLabels(z, ["43308302844"], "zpl2")).toBe(zip);
    expect(z.calls[0].query).toEqual({ shipment_ids: "43308302844", response_type: "zpl2" });
    expect(await getMarketplaceShipmentLabel(s, "7")).toBe(pdf);
  });
});
