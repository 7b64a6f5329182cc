// Reading orders and their shipments from Mercado Libre (endpoints/orders.ts, endpoints/shipments.ts) into what the
// store keeps. A shipment is read in the new format (x-format-new); its dates of shipping and delivery come from its
// history, its dispatch deadline from its SLA, each read only while it matters. Never inside a transaction.
import type { FastifyBaseLogger } from "fastify";
import type { MeliSession } from "../../integrations/mercadolibre/client.ts";
import { getMarketplaceOrder, getOrder, type MeliOrder } from "../../integrations/mercadolibre/endpoints/orders.ts";
import {
  getShipment,
  getShipmentHistory,
  getShipmentItems,
  getShipmentSla,
  reachedAt,
  type MeliShipment,
} from "../../integrations/mercadolibre/endpoints/shipments.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { OrderStatus } from "#shared/contract/enums.ts";

export type { MeliOrder } from "../../integrations/mercadolibre/endpoints/orders.ts";

/** What the store keeps of a shipment. */
export type ShipmentFacts = {
  id: string;
  status: string;
  substatus: string | null;
  lastUpdated: string | null;
  trackingNumber: string | null;
  logisticsName: string | null;
  /** The shipping's full price and the buyer's share (the seller pays the rest), in the site's currency. */
  listCost: number | null;
  buyerCost: number | null;
  /** The value of the goods it carries (a pack's orders together). */
  goodsValue: number | null;
  estimatedDelivery: string | null;
  /** By when the seller must dispatch (its SLA), while that is still ahead. */
  handlingLimit: string | null;
  shippedAt: string | null;
  deliveredAt: string | null;
  address: ReturnType<typeof addressOf>;
};

const str = (v: unknown) => (v === null || v === undefined || v === "" ? null : String(v));

/** Mercado Libre's order and shipment statuses as one OrderStatus. */
export function orderStatusOf(meliStatus: string | undefined, shipmentStatus: string | null | undefined): OrderStatus {
  if (meliStatus === "cancelled" || meliStatus === "invalid") return OrderStatus.Cancelled;
  if (meliStatus !== "paid") return OrderStatus.Unpaid;
  switch (shipmentStatus) {
    case "ready_to_ship":
      return OrderStatus.ReadyToShip;
    case "shipped":
      return OrderStatus.Shipped;
    case "delivered":
      return OrderStatus.Delivered;
    case "not_delivered":
      return OrderStatus.NotDelivered;
    case "cancelled":
      return OrderStatus.Cancelled;
    default:
      return OrderStatus.Paid;
  }
}

/** The buyer's address where the new format keeps it (destination; hidden until the payment is confirmed). */
function addressOf(s: MeliShipment) {
  const d = s.destination;
  const a = d?.shipping_address;
  if (!a) return null;
  const line = a.address_line ?? ([a.street_name, a.street_number].filter(Boolean).join(" ") || null);
  return {
    id: str(a.address_id),
    name: d?.receiver_name ?? null,
    email: null,
    phone: d?.receiver_phone ?? null,
    moblle: d?.receiver_phone ?? null,
    country: a.country?.name ?? a.country?.id ?? null,
    state: a.state?.name ?? null,
    city: a.city?.name ?? null,
    region: a.neighborhood?.name ?? null,
    postalCode: a.zip_code ?? null,
    company: null,
    street: line,
    address: [line, a.neighborhood?.name, a.city?.name, a.state?.name, a.zip_code, a.country?.name].filter(Boolean).join(", ") || null,
  };
}

const SHIPPED = ["shipped", "delivered", "not_delivered"];
const DISPATCH_PENDING = ["pending", "handling", "ready_to_ship"];

export function createOrderReads(log: FastifyBaseLogger) {
  /** A 4xx other than 429 leaves the thing out (logged); anything retryable goes up to the job. */
  async function unlessRefused<T>(read: () => Promise<T>, what: Record<string, unknown>): Promise<T | null> {
    try {
      return await read();
    } catch (err) {
      // A shop whose authorization is gone is the caller's failure (重新授权), not one thing left out.
      if (!(err instanceof MeliApiError) || err.retryable || err.kind === "reauthorize") throw err;
      log.info({ ...what, status: err.status }, "Mercado Libre refused a read");
      return null;
    }
  }

  /** The shipment and what its history and SLA add (null when it cannot be read: the order is stored without it). */
  async function readShipment(shop: MeliSession, marketplace: boolean, shipmentId: string | null): Promise<ShipmentFacts | null> {
    if (!shipmentId) return null;
    const s = await unlessRefused(() => getShipment(shop, shipmentId, marketplace), { shipmentId });
    if (!s) return null;
    const history = SHIPPED.includes(s.status)
      ? ((await unlessRefused(() => getShipmentHistory(shop, shipmentId, marketplace), { shipmentId, read: "history" })) ?? [])
      : [];
    const sla = DISPATCH_PENDING.includes(s.status)
      ? await unlessRefused(() => getShipmentSla(shop, shipmentId, marketplace), { shipmentId, read: "sla" })
      : null;
    return {
      id: s.id,
      status: s.status,
      substatus: s.substatus ?? null,
      lastUpdated: s.last_updated ?? null,
      trackingNumber: s.tracking_number ?? null,
      logisticsName: s.lead_time?.shipping_method?.name ?? s.tracking_method ?? null,
      listCost: s.lead_time?.list_cost ?? null,
      buyerCost: s.lead_time?.cost ?? null,
      goodsValue: s.declared_value ?? null,
      estimatedDelivery: s.lead_time?.estimated_delivery_time?.date ?? null,
      handlingLimit: sla?.expected_date ?? null,
      shippedAt: reachedAt(history, "shipped"),
      deliveredAt: reachedAt(history, "delivered"),
      address: addressOf(s),
    };
  }

  /** The shipments of a page of orders, one read per shipment (a pack's orders share one), five at a time. */
  async function readShipments(shop: MeliSession, marketplace: boolean, list: MeliOrder[]): Promise<Map<string, ShipmentFacts | null>> {
    const ids = [...new Set(list.map((o) => str(o.shipping?.id)).filter((x): x is string => !!x))];
    const out = new Map<string, ShipmentFacts | null>();
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < ids.length; i = next++) out.set(ids[i], await readShipment(shop, marketplace, ids[i]));
    };
    await Promise.all(Array.from({ length: Math.min(5, ids.length) }, worker));
    return out;
  }

  /** Orders by Mercado Libre id (marketplace orders for a global seller), in order; those refused are left out. */
  async function readOrders(shop: MeliSession, marketplace: boolean, ids: string[]): Promise<MeliOrder[]> {
    const read: MeliOrder[] = [];
    for (const id of [...new Set(ids)]) {
      const order = await unlessRefused(() => (marketplace ? getMarketplaceOrder(shop, id) : getOrder(shop, id)), { orderId: id });
      if (order) read.push(order);
    }
    return read;
  }

  /** The items a shipment carries, with their orders (none when it cannot be read). */
  async function readShipmentItems(shop: MeliSession, marketplace: boolean, shipmentId: string) {
    return (await unlessRefused(() => getShipmentItems(shop, shipmentId, marketplace), { shipmentId, read: "items" })) ?? [];
  }

  return { readShipment, readShipments, readOrders, readShipmentItems };
}

export type OrderReads = ReturnType<typeof createOrderReads>;
