// Shipments of the order stream, moving on with the clock from their order's payment: handling, ready_to_ship 2 hours
// later (its label can be printed then, not before), shipped a day after the payment, delivered (or, for a few,
// not_delivered) two days later; a cancelled order's shipment is cancelled (unless already shipped). Orders of a pack
// share one shipment.
// Docs: docs/15-sales-orders/envios.md: GET /shipments/{id} with x-format-new: true answers the new format
// (destination hidden until the payment is confirmed, lead_time with the costs and promises, logistic, no status
// history); without the header the older flat format (docs/13-shipping/mercadoenvios-modo-1.md's: status_history,
// shipping_option, receiver_address, order_cost); /shipments/{id}/history, /items, /sla. Labels:
// docs/13-shipping/mercadoenvios-modo-2.md (GET /shipment_labels?shipment_ids=a,b&response_type=pdf|zpl2, only for
// shipments ready to ship; printing moves the substatus from ready_to_print to printed; at most LABELS_PER_CALL ids a
// call, a figure the captured page does not reach: see docs/decisions.md "One PDF of every label"). Global selling: the same under /marketplace/shipments/{id}, and one shipment's label PDF
// at /marketplace/shipments/{id}/labels (MERCADO-LIBRE.md "Orders, shipments, labels").
import type { FastifyInstance, FastifyRequest } from "fastify";
import { badRequest, forbidden, notFound } from "./errors.ts";
import { caller, params, query, route } from "./http.ts";
import { pagesPdf, zipOne, zplLabels } from "./label-pdf.ts";
import { between, pick, unit } from "./random.ts";
import { roundPrice, SITES, type LocalSiteId } from "./sites.ts";
import type { Order, Store } from "./store.ts";

const HOUR = 3_600_000;
/** After the payment: ready to ship (label), shipped, delivered. */
export const READY_AFTER_MS = 2 * HOUR;
const SHIPPED_AFTER_MS = 24 * HOUR;
const DELIVERED_AFTER_MS = 72 * HOUR;
/** The seller must hand the parcel over within this after the payment (the shipment's SLA). */
const HANDLING_LIMIT_MS = 24 * HOUR;
const ESTIMATED_DELIVERY_MS = 5 * 24 * HOUR;

type ShipmentStatus = "pending" | "handling" | "ready_to_ship" | "shipped" | "delivered" | "not_delivered" | "cancelled";
type Step = { at: number; status: ShipmentStatus; substatus: string | null };
type ShipmentState = { status: ShipmentStatus; substatus: string | null; updated: number; paidAt: number | null; steps: Step[] };

/** The shipment's status at `now` and the steps it went through, from its order's payment and cancellation. */
export function shipmentAt(store: Store, order: Order, now: number): ShipmentState {
  const paid = order.timeline.find((s) => s.status === "paid")?.at ?? null;
  const cancelled = order.timeline.find((s) => s.status === "cancelled" || s.status === "invalid")?.at ?? null;
  const lost = unit(store.seed, "not-delivered", order.shippingId) < 0.03;
  const steps: Step[] = [{ at: order.createdAt, status: "pending", substatus: null }];
  if (paid !== null) {
    steps.push({ at: paid, status: "handling", substatus: null });
    steps.push({ at: paid + READY_AFTER_MS, status: "ready_to_ship", substatus: "ready_to_print" });
    steps.push({ at: paid + SHIPPED_AFTER_MS, status: "shipped", substatus: null });
    steps.push({
      at: paid + DELIVERED_AFTER_MS,
      status: lost ? "not_delivered" : "delivered",
      substatus: lost ? "returning_to_sender" : null,
    });
  }
  const live =
    cancelled === null
      ? steps
      : [...steps.filter((s) => s.at < cancelled), { at: cancelled, status: "cancelled" as const, substatus: null }];
  // A parcel already shipped is not cancelled with its order.
  const effective = cancelled !== null && paid !== null && cancelled >= paid + SHIPPED_AFTER_MS ? steps : live;
  const reached = effective.filter((s, i) => i === 0 || s.at <= now);
  const current = reached[reached.length - 1];
  // Printing the label moves a ready shipment from ready_to_print to printed (envios.md's examples show both).
  const printed = order.labelPrintedAt ?? null;
  if (current.status === "ready_to_ship" && printed !== null && printed <= now) {
    return { status: current.status, substatus: "printed", updated: Math.max(current.at, printed), paidAt: paid, steps: reached };
  }
  return { status: current.status, substatus: current.substatus, updated: current.at, paidAt: paid, steps: reached };
}

/** What the seller pays to ship: the full (list) cost, the buyer's share (0 with free shipping from the site's threshold). */
export function shippingCosts(orders: Order[]) {
  const site = SITES[orders[0].siteId];
  const units = orders.reduce((s, o) => s + o.lines.reduce((a, l) => a + l.quantity, 0), 0);
  const total = orders.reduce((s, o) => s + o.lines.reduce((a, l) => a + l.unitPrice * l.quantity, 0), 0);
  const listCost = roundPrice(site.id, site.perUsd * (4 + 1.5 * (units - 1)));
  const free = total >= site.fixedFeeUnder;
  return { listCost, buyerCost: free ? 0 : listCost, goods: total };
}

const STREETS = ["Av. Insurgentes Sur", "Calle Reforma", "Rua Augusta", "Av. Providencia", "Carrera 7", "Calle Juárez"];
const CITIES: Record<LocalSiteId, [string, string][]> = {
  MLM: [
    ["Ciudad de México", "CDMX"],
    ["Guadalajara", "Jalisco"],
    ["Monterrey", "Nuevo León"],
  ],
  MLB: [
    ["São Paulo", "SP"],
    ["Rio de Janeiro", "RJ"],
    ["Belo Horizonte", "MG"],
  ],
  MLC: [
    ["Santiago", "Región Metropolitana"],
    ["Valparaíso", "Valparaíso"],
  ],
  MCO: [
    ["Bogotá", "Bogotá D.C."],
    ["Medellín", "Antioquia"],
  ],
};

/** The orders sharing a shipment (its pack's, or one order), as they stand at the clock. */
export function shipmentOrders(store: Store, shippingId: number): Order[] {
  const now = store.now();
  return [...store.state.orders.values()].filter((o) => o.shippingId === shippingId && o.createdAt <= now).sort((a, b) => a.id - b.id);
}

function addressOf(store: Store, order: Order) {
  const [city, state] = pick(CITIES[order.siteId], store.seed, "city", order.buyer.id);
  const street = pick(STREETS, store.seed, "street", order.buyer.id);
  const number = between(1, 2999, store.seed, "number", order.buyer.id);
  const zip = String(between(10000, 99999, store.seed, "zip", order.buyer.id));
  return { id: 1_000_000_000 + (order.buyer.id % 1_000_000_000), street, number: String(number), zip, city, state };
}

const trackingOf = (order: Order, s: ShipmentState) =>
  s.steps.some((x) => x.status === "ready_to_ship") && s.status !== "cancelled"
    ? `MEL${order.shippingId}${order.siteId.slice(0, 2)}`
    : null;

/** GET /shipments/{id} without x-format-new: the older flat format. */
function legacyShipmentJson(store: Store, orders: Order[]) {
  const order = orders[0];
  const s = shipmentAt(store, order, store.now());
  const { listCost, buyerCost, goods } = shippingCosts(orders);
  const a = addressOf(store, order);
  const at = (status: ShipmentStatus) => {
    const step = s.steps.find((x) => x.status === status);
    return step ? store.iso(step.at) : null;
  };
  return {
    id: order.shippingId,
    mode: "me2",
    logistic_type: "drop_off",
    status: s.status,
    substatus: s.substatus,
    order_id: order.id,
    sender_id: order.sellerId,
    receiver_id: order.buyer.id,
    site_id: order.siteId,
    date_created: store.iso(order.createdAt),
    last_updated: store.iso(s.updated),
    tracking_number: trackingOf(order, s),
    tracking_method: "Mercado Envíos",
    status_history: {
      date_handling: at("handling"),
      date_ready_to_ship: at("ready_to_ship"),
      date_shipped: at("shipped"),
      date_delivered: at("delivered"),
      date_not_delivered: at("not_delivered"),
      date_cancelled: at("cancelled"),
    },
    shipping_option: { id: 501245, name: "Estándar a domicilio", currency_id: order.currency, list_cost: listCost, cost: buyerCost },
    base_cost: listCost,
    order_cost: goods,
    receiver_address: {
      id: a.id,
      address_line: `${a.street} ${a.number}`,
      street_name: a.street,
      street_number: a.number,
      zip_code: a.zip,
      city: { name: a.city },
      state: { name: a.state },
      country: { id: SITES[order.siteId].countryId, name: SITES[order.siteId].name },
    },
  };
}

/** GET /shipments/{id} with x-format-new: true (envios.md "Consultar envíos"). */
function shipmentJson(store: Store, orders: Order[]) {
  const order = orders[0];
  const s = shipmentAt(store, order, store.now());
  const { listCost, buyerCost, goods } = shippingCosts(orders);
  const a = addressOf(store, order);
  const site = SITES[order.siteId];
  return {
    id: order.shippingId,
    status: s.status,
    substatus: s.substatus,
    date_created: store.iso(order.createdAt),
    last_updated: store.iso(s.updated),
    tracking_number: trackingOf(order, s),
    tracking_method: "Mercado Envíos",
    declared_value: goods,
    items_types: ["new"],
    logistic: { mode: "me2", type: "drop_off", direction: "forward" },
    source: { site_id: order.siteId, market_place: "MELI", customer_id: null, application_id: null },
    origin: { type: "selling_address", sender_id: order.sellerId, shipping_address: null },
    // The buyer's address is hidden until the payment is confirmed; receiver_phone is only for ME1.
    destination: {
      type: "buying_address",
      receiver_id: order.buyer.id,
      receiver_name: `Comprador ${order.buyer.nickname}`,
      receiver_phone: null,
      comments: null,
      shipping_address:
        s.paidAt === null
          ? null
          : {
              address_id: a.id,
              address_line: `${a.street} ${a.number}`,
              street_name: a.street,
              street_number: a.number,
              zip_code: a.zip,
              city: { id: null, name: a.city },
              state: { id: null, name: a.state },
              country: { id: site.countryId, name: site.name },
              neighborhood: { id: null, name: "Centro" },
              municipality: { id: null, name: null },
              types: ["shipping"],
              delivery_preference: "residential",
            },
    },
    lead_time: {
      option_id: order.shippingId % 1_000_000_000,
      shipping_method: { id: 501245, name: "Estándar a domicilio", type: "standard", deliver_to: "address" },
      currency_id: order.currency,
      cost: buyerCost,
      list_cost: listCost,
      cost_type: buyerCost === 0 ? "free" : "charged",
      estimated_delivery_time: {
        type: "known",
        date: s.paidAt === null ? null : store.iso(s.paidAt + ESTIMATED_DELIVERY_MS),
        unit: "hour",
      },
      estimated_delivery_final: { date: s.paidAt === null ? null : store.iso(s.paidAt + ESTIMATED_DELIVERY_MS + 5 * 24 * HOUR) },
      buffering: { date: null },
    },
    tags: [],
    dimensions: { height: 10, width: 15, length: 20, weight: 500 },
  };
}

/** Shipments one /shipment_labels call prints at most; more is a 400 (the caller batches). */
const LABELS_PER_CALL = 50;

/** The shipments' labels (all must be ready to ship): one page (or ZPL label) per shipment, in the order asked. */
function labelPages(store: Store, shipments: Order[][]): string[][] {
  const pages = shipments.map((orders) => {
    const ship = shipmentJson(store, orders);
    if (ship.status !== "ready_to_ship") {
      throw badRequest(`Shipment ${ship.id} is not ready to ship (status ${ship.status})`, "not_ready_to_ship");
    }
    const a = ship.destination.shipping_address!;
    return [
      "Mercado Envios",
      `Envio ${ship.id}  Venta ${orders.map((o) => o.id).join(", ")}`,
      `Rastreo ${ship.tracking_number}`,
      `Para: ${ship.destination.receiver_name}`,
      `${a.address_line}, ${a.neighborhood.name}`,
      `${a.city.name}, ${a.state.name} ${a.zip_code}`,
      ...orders.flatMap((o) => o.lines.map((l) => `${l.quantity} x ${l.itemId} ${l.title}`)),
    ];
  });
  // Printed: the shipments' substatus reads `printed` from now on (a reprint keeps the first time).
  const now = store.now();
  for (const o of shipments.flat()) o.labelPrintedAt ??= now;
  store.changed();
  return pages;
}

/** x-format-new: true asks for the new format (header names are case-insensitive). */
const formatNew = (req: FastifyRequest) => String(req.headers["x-format-new"] ?? "").toLowerCase() === "true";

export function registerShipmentRoutes(f: FastifyInstance, store: Store) {
  const auth = route({ auth: "required" });

  /** The caller's shipment (its orders), or 404 / 403 as the real API. */
  const ownShipment = (req: FastifyRequest, id: unknown) => {
    const orders = /^\d+$/.test(String(id)) ? shipmentOrders(store, Number(id)) : [];
    if (!orders.length) throw notFound(`Shipment not found`);
    if (!store.ownIds(caller(req)).includes(orders[0].sellerId)) throw forbidden();
    return orders;
  };

  for (const prefix of ["/shipments", "/marketplace/shipments"]) {
    f.get(`${prefix}/:id`, auth, async (req) => {
      const orders = ownShipment(req, params(req).id);
      return formatNew(req) ? shipmentJson(store, orders) : legacyShipmentJson(store, orders);
    });
    // envios.md "Consultar historial": each status reached, newest first.
    f.get(`${prefix}/:id/history`, auth, async (req) => {
      const [order] = ownShipment(req, params(req).id);
      return shipmentAt(store, order, store.now())
        .steps.map((s) => ({ status: s.status, substatus: s.substatus, date: store.iso(s.at) }))
        .reverse();
    });
    // envios.md "Ítems asociados a un envío": each order's lines, with the order.
    f.get(`${prefix}/:id/items`, auth, async (req) =>
      ownShipment(req, params(req).id).flatMap((o) =>
        o.lines.map((l) => ({
          item_id: l.itemId,
          description: l.title,
          quantity: l.quantity,
          variation_id: l.variationId,
          dimensions: { height: 10, width: 15, length: 20, weight: 500 },
          order_id: o.id,
          sender_id: o.sellerId,
        })),
      ),
    );
    // envios.md "Plazo máximo de despacho (SLA)": not for cancelled shipments.
    f.get(`${prefix}/:id/sla`, auth, async (req) => {
      const [order] = ownShipment(req, params(req).id);
      const s = shipmentAt(store, order, store.now());
      if (s.status === "cancelled" || s.paidAt === null) throw notFound("failed to retrieve data");
      const expected = s.paidAt + HANDLING_LIMIT_MS;
      const dispatched = s.steps.find((x) => x.status === "shipped")?.at;
      const status = (dispatched ?? store.now()) > expected ? "delayed" : "on_time";
      return { status, service: null, expected_date: store.iso(expected), last_updated: store.iso(s.updated) };
    });
  }

  f.get("/marketplace/shipments/:id/labels", auth, async (req, reply) =>
    reply.type("application/pdf").send(pagesPdf(labelPages(store, [ownShipment(req, params(req).id)]))),
  );

  // mercadoenvios-modo-2.md "Imprimir etiquetas": several shipments at once; a PDF, or ZPL II (zipped).
  f.get("/shipment_labels", auth, async (req, reply) => {
    const q = query(req);
    if (!q.shipment_ids) throw badRequest("The shipment_ids param is required");
    const format = q.response_type ?? "pdf";
    if (format !== "pdf" && format !== "zpl2") throw badRequest(`Invalid response_type: ${format}`);
    const ids = [
      ...new Set(
        q.shipment_ids
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    ];
    if (ids.length > LABELS_PER_CALL) {
      throw badRequest(`At most ${LABELS_PER_CALL} shipment_ids per request (${ids.length} given)`, "too_many_shipments");
    }
    const pages = labelPages(
      store,
      ids.map((id) => ownShipment(req, id)),
    );
    if (format === "pdf") return reply.type("application/pdf").send(pagesPdf(pages));
    return reply
      .type("application/zip")
      .header("content-disposition", 'attachment; filename="Etiquetas.zip"')
      .send(zipOne("Etiqueta de envio.txt", Buffer.from(zplLabels(pages), "utf8")));
  });
}
