// Invoices: on a local site the seller's own fiscal documents uploaded to the pack (the order id when the order has no
// pack); on global selling the invoice of a marketplace order, a document (a file), not JSON.
// Docs: docs/16-billing/cargar-factura.md ("Obtener IDs de las facturas": GET /packs/{pack_id}/fiscal_documents →
// {pack_id, fiscal_documents:[{id, date, file_type, filename}]}, 404 when none; "Obtener factura": GET /packs/{pack_id}/
// fiscal_documents/{id} answers the file; PDF or XML, ≤ 1 MB); Global Selling "Manage orders", "Invoice"
// (GET /marketplace/orders/{id}/invoice answers the invoice document).
import { z } from "zod";
import type { CallOptions, MeliSession } from "../client.ts";
import { mlId } from "../types.ts";

/** GET /packs/{pack_id}/fiscal_documents. */
const fiscalDocuments = z.looseObject({
  pack_id: mlId.optional(),
  fiscal_documents: z.array(
    z.looseObject({
      id: z.string().min(1),
      date: z.string().nullish(),
      /** application/pdf, application/xml or text/xml. */
      file_type: z.string().nullish(),
      filename: z.string().nullish(),
    }),
  ),
});
export type FiscalDocuments = z.infer<typeof fiscalDocuments>;
export type FiscalDocument = FiscalDocuments["fiscal_documents"][number];

/** The pack an order's fiscal documents hang on: its pack, or the order itself when it has none (cargar-factura.md). */
export const invoicePackOf = (order: { meliOrderId: string; packId: string | null }) => order.packId ?? order.meliOrderId;

/** GET /packs/{pack_id}/fiscal_documents: the ids of the fiscal documents the seller uploaded. */
export const listFiscalDocuments = (s: MeliSession, packId: string, o: CallOptions = {}) =>
  s.send<FiscalDocuments>("GET", `/packs/${encodeURIComponent(packId)}/fiscal_documents`, { ...o, schema: fiscalDocuments });

/** GET /packs/{pack_id}/fiscal_documents/{id}: the document itself. */
export const getFiscalDocument = (s: MeliSession, packId: string, documentId: string, o: CallOptions = {}) =>
  s.send<Buffer>("GET", `/packs/${encodeURIComponent(packId)}/fiscal_documents/${encodeURIComponent(documentId)}`, {
    ...o,
    binary: true,
  });

/** The document to show of a pack's: its PDF when there is one (the XML is its machine-readable twin). */
export const preferredDocument = (docs: FiscalDocument[]): FiscalDocument | null =>
  docs.find((d) => d.file_type === "application/pdf") ?? docs[0] ?? null;

/** GET /marketplace/orders/{id}/invoice: a global selling order's invoice document (404 until it is issued). */
export const getMarketplaceOrderInvoice = (s: MeliSession, orderId: string, o: CallOptions = {}) =>
  s.send<Buffer>("GET", `/marketplace/orders/${encodeURIComponent(orderId)}/invoice`, { ...o, binary: true });
