// Contract tests of the invoice endpoints: answers shaped as cargar-factura.md shows them (written by us from the page)
// go through the schema and the code that picks the document; the files come back as files.
import { describe, expect, it } from "vitest";
import { contractSession } from "../../../testing/meli-contract.ts";
import { getFiscalDocument, getMarketplaceOrderInvoice, invoicePackOf, listFiscalDocuments, preferredDocument } from "./invoices.ts";

// cargar-factura.md "Obtener IDs de las facturas": the seller's XML and PDF on a pack.
const listed = {
  pack_id: 2000000089077943,
  fiscal_documents: [
    {
      id: "415460047_4c942945-ae16-46f2-98fa-a772322c7e70",
      date: "2026-04-27T23:10:21Z",
      file_type: "application/xml",
      filename: "factura.xml",
    },
    {
      id: "415460047_a96d8dea-38cd-4402-938e-80a1c134fc5d",
      date: "2026-04-27T23:10:22Z",
      file_type: "application/pdf",
      filename: "factura.pdf",
    },
  ],
};

describe("a local sale's fiscal documents", () => {
  it("hang on the pack, or on the order when it has none; the PDF is the one shown, fetched as a file", async () => {
    expect(invoicePackOf({ meliOrderId: "2000003508419013", packId: null })).toBe("2000003508419013");
    expect(invoicePackOf({ meliOrderId: "2000003508419013", packId: "2000000089077943" })).toBe("2000000089077943");
    const pdf = Buffer.from("%PDF-1.4 factura");
    const s = contractSession({
      "GET /packs/2000000089077943/fiscal_documents": listed,
      "GET /packs/2000000089077943/fiscal_documents/415460047_a96d8dea-38cd-4402-938e-80a1c134fc5d": pdf,
    });
    const docs = await listFiscalDocuments(s, "2000000089077943");
    expect(docs.pack_id).toBe("2000000089077943");
    const doc = preferredDocument(docs.fiscal_documents)!;
    expect(doc).toMatchObject({ file_type: "application/pdf", filename: "factura.pdf" });
    expect(await getFiscalDocument(s, "2000000089077943", doc.id)).toBe(pdf);
    // Only an XML: that one; none: nothing.
    expect(preferredDocument([listed.fiscal_documents[0]])?.file_type).toBe("application/xml");
    expect(preferredDocument([])).toBeNull();
  });

  it("a list without fiscal_documents is refused", async () => {
    const s = contractSession({ "GET /packs/1/fiscal_documents": { pack_id: 1 } });
    await expect(listFiscalDocuments(s, "1")).rejects.toMatchObject({ kind: "bad-response" });
  });
});

describe("a marketplace order's invoice", () => {
  it("is a document, handed back as the file", async () => {
    const pdf = Buffer.from("%PDF-1.4 invoice");
    const s = contractSession({ "GET /marketplace/orders/2497671750/invoice": pdf });
    expect(await getMarketplaceOrderInvoice(s, "2497671750")).toBe(pdf);
    expect(s.calls[0]).toMatchObject({ method: "GET", path: "/marketplace/orders/2497671750/invoice" });
  });
});
