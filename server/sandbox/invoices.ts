// Invoices. On a local site the seller issues its own and uploads it to the sale's pack (the order id when the order
// has no pack): docs/16-billing/cargar-factura.md (POST /packs/{id}/fiscal_documents, multipart field
// fiscal_document, a PDF and/or an XML of ≤ 1 MB, one of each type; GET the list {pack_id, fiscal_documents:[{id,
// date, file_type, filename}]} (404 when none), GET one (the file), DELETE all; the error bodies as the page lists
// them). On global selling Mercado Libre issues the invoice of a paid marketplace order, and
// GET /marketplace/orders/{id}/invoice answers it as a document, not JSON (Global Selling "Manage orders", "Invoice").
import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { MeliError, forbidden, notFound } from "./errors.ts";
import { caller, params, route } from "./http.ts";
import { textPdf } from "./label-pdf.ts";
import { marketplaceOrderJson, statusAt } from "./orders.ts";
import type { FiscalDocument, Order, Store } from "./store.ts";

const MAX_BYTES = 1024 * 1024;
const TYPES = ["application/pdf", "application/xml", "text/xml"];
/** XML is one type however it is named. */
const kindOf = (type: string) => (type === "application/pdf" ? "pdf" : "xml");

const refusal = (status: number, error: string, message: string) => new MeliError(status, error, message);
const denied = () => refusal(403, "forbidden", "Access Denied, you are not authorized.");

/** The caller's orders the pack id names: the pack's, or the order itself when it has no pack. */
function packOrders(store: Store, req: FastifyRequest, packId: string): Order[] {
  if (!/^\d+$/.test(packId)) throw denied();
  const id = Number(packId);
  const now = store.now();
  const orders = [...store.state.orders.values()].filter(
    (o) => o.createdAt <= now && (o.packId === id || (o.id === id && (o.packId ?? null) === null)),
  );
  if (!orders.length || !store.ownIds(caller(req)).includes(orders[0].sellerId)) throw denied();
  return orders;
}

export function registerInvoiceRoutes(f: FastifyInstance, store: Store) {
  const auth = route({ auth: "required" });
  const keyOf = (req: FastifyRequest, packId: string) => {
    const [order] = packOrders(store, req, packId);
    return `${order.sellerId}:${packId}`;
  };

  f.post("/packs/:packId/fiscal_documents", auth, async (req) => {
    const key = keyOf(req, params(req).packId);
    if (!req.isMultipart()) throw refusal(400, "bad_request", "File cannot be empty");
    const files: { name: string; type: string; data: Buffer }[] = [];
    for await (const part of req.parts({ limits: { fileSize: MAX_BYTES, files: 3 } })) {
      if (part.type !== "file" || part.fieldname !== "fiscal_document") continue;
      let data: Buffer;
      try {
        data = await part.toBuffer();
      } catch {
        throw refusal(400, "bad_request", "File Not allowed, exceeds maximum size");
      }
      files.push({ name: part.filename ?? "", type: part.mimetype, data });
    }
    if (!files.length || files.some((x) => !x.data.length)) throw refusal(400, "bad_request", "File cannot be empty");
    if (files.length > 2) throw refusal(400, "bad_request", "Files Not allowed, you can upload only two files, one of each type");
    for (const x of files) {
      if (!x.name) throw refusal(400, "bad_request", "Filename cannot be empty");
      if (!TYPES.includes(x.type)) throw refusal(400, "bad_request", `File type: ${x.type} is not allowed`);
    }
    if (files.length === 2 && kindOf(files[0].type) === kindOf(files[1].type)) {
      throw refusal(409, "conflict", `Files Not allowed, you can upload only one file of type: ${files[0].type}`);
    }
    const [sellerId, packId] = key.split(":");
    const existing = store.state.fiscalDocuments.get(key) ?? [];
    if (existing.length + files.length > 2) {
      throw refusal(
        409,
        "conflict",
        `File Not allowed, the max amount of files already exist for the pack: ${packId} and seller: ${sellerId}`,
      );
    }
    for (const x of files) {
      if (existing.some((d) => kindOf(d.fileType) === kindOf(x.type))) {
        throw refusal(
          409,
          "conflict",
          `File Not allowed, a file already exists for the pack: ${packId} and seller: ${sellerId} of the type: ${x.type}`,
        );
      }
    }
    const added: FiscalDocument[] = files.map((x) => ({
      id: `${sellerId}_${randomUUID()}`,
      date: store.iso(),
      fileType: x.type,
      filename: x.name,
      base64: x.data.toString("base64"),
    }));
    store.state.fiscalDocuments.set(key, [...existing, ...added]);
    return { ids: added.map((d) => d.id) };
  });

  f.get("/packs/:packId/fiscal_documents", auth, async (req) => {
    const { packId } = params(req);
    const docs = store.state.fiscalDocuments.get(keyOf(req, packId)) ?? [];
    if (!docs.length) throw notFound(`The pack_fiscal_document with pack_id: ${packId} does not exist`);
    return {
      pack_id: Number(packId),
      fiscal_documents: docs.map((d) => ({ id: d.id, date: d.date, file_type: d.fileType, filename: d.filename })),
    };
  });

  f.get("/packs/:packId/fiscal_documents/:documentId", auth, async (req, reply) => {
    const { packId, documentId } = params(req);
    const doc = (store.state.fiscalDocuments.get(keyOf(req, packId)) ?? []).find((d) => d.id === documentId);
    if (!doc) throw refusal(400, "bad_request", `The fiscal_document with id: ${documentId} does not exist`);
    return reply.type(doc.fileType).send(Buffer.from(doc.base64, "base64"));
  });

  f.delete("/packs/:packId/fiscal_documents", auth, async (req) => {
    const { packId } = params(req);
    const key = keyOf(req, packId);
    const docs = store.state.fiscalDocuments.get(key) ?? [];
    if (!docs.length) throw notFound(`The pack_fiscal_document with pack_id: ${packId} does not exist`);
    store.state.fiscalDocuments.delete(key);
    return docs.length === 1
      ? { message: `The fiscal_document with "id" : ${docs[0].id} was deleted` }
      : { message: `The fiscal_documents with "ids" : ${docs.map((d) => d.id).join(", ")} were deleted` };
  });

  // A marketplace order's invoice, issued once the order is paid: a PDF document.
  f.get("/marketplace/orders/:id/invoice", auth, async (req, reply) => {
    const order = store.state.orders.get(Number(params(req).id));
    if (!order || order.createdAt > store.now()) throw notFound("Order not found");
    if (!store.ownIds(caller(req)).includes(order.sellerId)) throw forbidden();
    const s = statusAt(order, store.now());
    if (s.paidAt === null) throw notFound(`Invoice for order ${order.id} not found`);
    const json = marketplaceOrderJson(store, order);
    const pdf = textPdf([
      "Invoice",
      `Order ${order.id}  ${json.context.site}  ${store.iso(s.paidAt).slice(0, 10)}`,
      `Buyer ${order.buyer.nickname}`,
      ...json.order_items.map((l) => `${l.quantity} x ${l.item.id} ${l.item.title}  USD ${l.unit_price.toFixed(2)}`),
      `Total USD ${json.total_amount.toFixed(2)}`,
    ]);
    return reply.type("application/pdf").header("content-disposition", `inline; filename="invoice-${order.id}.pdf"`).send(pdf);
  });
}
