// Shipments: a shipment in the format the docs make mandatory (x-format-new: true), its status history, its dispatch
// deadline (SLA) and its labels.
// Docs: docs/15-sales-orders/envios.md ("Consultar envíos": GET /shipments/{id} with x-format-new: true; destination
// (hidden until the payment is confirmed), lead_time (cost, list_cost, shipping_method, estimated_delivery_time),
// logistic, declared_value; "Consultar historial": GET /shipments/{id}/history [{status, substatus, date}]; "Plazo
// máximo de despacho (SLA)": GET /shipments/{id}/sla {status, expected_date}, the place of the deprecated
// estimated_handling_limit); docs/13-shipping/mercadoenvios-modo-2.md ("Imprimir etiquetas": GET /shipment_labels?
// shipment_ids=a,b&response_type=pdf|zpl2). Global Selling's shipments (MERCADO-LIBRE.md "Orders, shipments,
// labels"): the same resources under /marketplace/shipments/{id}, and the label of one shipment at
// /marketplace/shipments/{id}/labels (only when ready_to_ship).
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";
import { mlId } from "../types.ts";

/** The header that asks for the shipment format envios.md calls mandatory. */
const FORMAT_NEW = { "x-format-new": "true" } as const;

const named = z.looseObject({ id: z.string().nullish(), name: z.string().nullish() }).nullish();
const dated = z.looseObject({ date: z.string().nullish() }).nullish();

/** GET /shipments/{id} with x-format-new: true (envios.md "Consultar envíos"): the fields we read. */
const meliShipment = z.looseObject({
  id: mlId,
  status: z.string(),
  substatus: z.string().nullish(),
  date_created: z.string().nullish(),
  last_updated: z.string().nullish(),
  tracking_number: z.string().nullish(),
  tracking_method: z.string().nullish(),
  /** The value of the goods the shipment carries (a pack's orders together). */
  declared_value: z.number().nullish(),
  logistic: z.looseObject({ mode: z.string().nullish(), type: z.string().nullish() }).nullish(),
  destination: z
    .looseObject({
      receiver_name: z.string().nullish(),
      receiver_phone: z.string().nullish(),
      shipping_address: z
        .looseObject({
          address_id: mlId.nullish(),
          address_line: z.string().nullish(),
          street_name: z.string().nullish(),
          street_number: z.string().nullish(),
          zip_code: z.string().nullish(),
          city: named,
          state: named,
          country: named,
          neighborhood: named,
        })
        .nullish(),
    })
    .nullish(),
  lead_time: z
    .looseObject({
      /** What the buyer pays for shipping. */
      cost: z.number().nullish(),
      /** The shipping's full price: what the seller pays is the rest. */
      list_cost: z.number().nullish(),
      currency_id: z.string().nullish(),
      shipping_method: z.looseObject({ name: z.string().nullish() }).nullish(),
      estimated_delivery_time: dated,
    })
    .nullish(),
});
export type MeliShipment = z.infer<typeof meliShipment>;

/** GET /shipments/{id}/history (envios.md "Consultar historial"). */
const shipmentHistory = z.array(z.looseObject({ status: z.string(), substatus: z.string().nullish(), date: z.string() }));
export type ShipmentHistory = z.infer<typeof shipmentHistory>;

/** GET /shipments/{id}/sla (envios.md "Plazo máximo de despacho (SLA)"). */
const shipmentSla = z.looseObject({ status: z.string().nullish(), expected_date: z.string().nullish() });
export type ShipmentSla = z.infer<typeof shipmentSla>;

/** Local shipments live at /shipments, a global seller's marketplace shipments at /marketplace/shipments. */
const base = (marketplace: boolean, id: string) => `${marketplace ? "/marketplace/shipments" : "/shipments"}/${encodeURIComponent(id)}`;

/** GET /shipments/{id} (or /marketplace/shipments/{id}) in the new format. */
export const getShipment = (s: MeliSession, id: string, marketplace: boolean, o: CallOptions = {}) =>
  s.send<MeliShipment>("GET", base(marketplace, id), { ...o, headers: { ...o.headers, ...FORMAT_NEW }, schema: meliShipment });

/** GET /shipments/{id}/history: each status (and substatus) the shipment went through, with its date. */
export const getShipmentHistory = (s: MeliSession, id: string, marketplace: boolean, o: CallOptions = {}) =>
  s.send<ShipmentHistory>("GET", `${base(marketplace, id)}/history`, {
    ...o,
    headers: { ...o.headers, ...FORMAT_NEW },
    schema: shipmentHistory,
  });

/** GET /shipments/{id}/items (envios.md "Ítems asociados a un envío"): each item with the order it belongs to. */
const shipmentItems = z.array(z.looseObject({ item_id: z.string(), quantity: z.number().nullish(), order_id: mlId.nullish() }));
export type ShipmentItems = z.infer<typeof shipmentItems>;

/** GET /shipments/{id}/items: the orders a shipment carries (the new format names none). */
export const getShipmentItems = (s: MeliSession, id: string, marketplace: boolean, o: CallOptions = {}) =>
  s.send<ShipmentItems>("GET", `${base(marketplace, id)}/items`, { ...o, headers: { ...o.headers, ...FORMAT_NEW }, schema: shipmentItems });

/** GET /shipments/{id}/sla: by when the seller must dispatch (not for cancelled or fulfillment shipments). */
export const getShipmentSla = (s: MeliSession, id: string, marketplace: boolean, o: CallOptions = {}) =>
  s.send<ShipmentSla>("GET", `${base(marketplace, id)}/sla`, { ...o, schema: shipmentSla });

/** The label formats /shipment_labels prints: a PDF, or ZPL II for thermal printers. */
export type LabelFormat = "pdf" | "zpl2";

/**
 * Shipments one /shipment_labels call takes at most: a caller with more batches them. The captured page stops before
 * saying; 50 is the figure integrators work with (docs/decisions.md "One PDF of every label (issue 32)").
 */
export const LABELS_PER_CALL = 50;

/**
 * GET /shipment_labels?shipment_ids=a,b&response_type=pdf|zpl2 (mercadoenvios-modo-2.md "Imprimir etiquetas"): the
 * labels of several shipments at once (at most LABELS_PER_CALL, every one ready_to_ship, else a 400 for the whole
 * call), as one file (a PDF, one page per shipment in the order asked, or the ZPL II file Mercado Libre sends zipped).
 * Printing moves each shipment's substatus from ready_to_print to printed.
 */
export const getShipmentLabels = (s: MeliSession, shipmentIds: string[], format: LabelFormat, o: CallOptions = {}) => {
  if (shipmentIds.length > LABELS_PER_CALL) throw new RangeError(`at most ${LABELS_PER_CALL} shipments per label call`);
  return s.send<Buffer>("GET", "/shipment_labels", {
    ...o,
    query: { shipment_ids: shipmentIds.join(","), response_type: format },
    binary: true,
  });
};

/** GET /marketplace/shipments/{id}/labels: a global selling shipment's label PDF. */
export const getMarketplaceShipmentLabel = (s: MeliSession, id: string, o: CallOptions = {}) =>
  s.send<Buffer>("GET", `${base(true, id)}/labels`, { ...o, binary: true });

/** When the history says the shipment first reached the status, or null. */
export const reachedAt = (history: ShipmentHistory, status: string): string | null =>
  history
    .filter((h) => h.status === status)
    .map((h) => h.date)
    .sort()[0] ?? null;
