// The product centre's calls (spec §7 Product, ProductLabel), declared in shared/api/products.ts, product-labels.ts and
// product-export.ts: the list and editor, bulk edits and their undo, labels, weight prediction, export and translation.
// The work is done by the product service (service.ts and its parts).
import type { Registrar } from "../../http/calls.ts";
import { productExportCalls } from "#shared/api/product-export.ts";
import { productLabelCalls as labels } from "#shared/api/product-labels.ts";
import { productCalls as calls } from "#shared/api/products.ts";
import type { ProductService } from "./service.ts";

export function registerProducts(r: Registrar, { products }: { products: ProductService }) {
  r.handle(calls.getProductsByPage, { handler: (ctx, { body }) => products.getProductsByPage(ctx, body) });
  r.handle(calls.getProductById, { handler: (ctx, { query }) => products.getProductById(ctx, query.id) });
  r.handle(calls.getProductByIds, { handler: (ctx, { body }) => products.getProductByIds(ctx, body) });
  r.handle(calls.createOrUpdateProduct, { handler: (ctx, { body }) => products.createOrUpdateProduct(ctx, body) });
  r.handle(calls.updateProductAttr, { handler: (ctx, { body }) => products.updateProductAttr(ctx, body) });
  r.handle(calls.updateProductPrice, { handler: (ctx, { body }) => products.updateProductPrice(ctx, body) });
  r.handle(calls.copyProduct, { handler: (ctx, { body }) => products.copyProduct(ctx, body) });

  // Bulk edits: their statement may run longer, and a deadlock's victim is run again.
  r.handle(calls.batchUpdateProductSamePrice, {
    bulk: true,
    handler: (ctx, { body }) => products.batchUpdateProductSamePrice(ctx, body),
  });
  r.handle(calls.batchUpdateProductPrice, { bulk: true, handler: (ctx, { body }) => products.batchUpdateProductPrice(ctx, body) });
  r.handle(calls.batchUpdateProductWeight, {
    bulk: true,
    handler: (ctx, { body }) => products.batchUpdateProductWeight(ctx, body, "BatchUpdateProductWeight"),
  });
  r.handle(calls.webBatchUpdateProductWeight, {
    bulk: true,
    handler: (ctx, { body }) => products.batchUpdateProductWeight(ctx, body, "WebBatchUpdateProductWeight"),
  });
  r.handle(calls.batchUpdateProductStatus, { bulk: true, handler: (ctx, { body }) => products.batchUpdateProductStatus(ctx, body) });
  r.handle(calls.batchUpdateProductCategory, {
    bulk: true,
    handler: (ctx, { body }) => products.batchUpdateProductCategory(ctx, body),
  });
  r.handle(calls.replaceKeyword, { bulk: true, handler: (ctx, { body }) => products.replaceKeyword(ctx, body) });
  r.handle(calls.assignProduct, { bulk: true, handler: (ctx, { body }) => products.assignProduct(ctx, body) });
  r.handle(calls.deleteProducts, { bulk: true, handler: (ctx, { body }) => products.deleteProducts(ctx, body) });
  r.handle(calls.batchDeleteProducts, { bulk: true, handler: (ctx, { body }) => products.batchDeleteProducts(ctx, body) });
  r.handle(calls.countProducts, { handler: (ctx, { body }) => products.countProducts(ctx, body) });
  r.handle(calls.getLastProductEdit, { handler: (ctx) => products.getLastProductEdit(ctx) });
  r.handle(calls.undoProductEdit, { bulk: true, handler: (ctx, { body }) => products.undoProductEdit(ctx, body.id) });
  r.handle(calls.linkProductLabel, { bulk: true, handler: (ctx, { body }) => products.linkProductLabel(ctx, body) });
  r.handle(calls.cancelLinkProductLabel, { bulk: true, handler: (ctx, { body }) => products.cancelLinkProductLabel(ctx, body) });

  r.handle(productExportCalls.exportProduct, { handler: (ctx, { body }) => products.exportProduct(ctx, body) });
  // Streams the xlsx file itself (no JSON, no declared result).
  r.handle(productExportCalls.downloadExport, { handler: (ctx, { query }) => products.downloadExport(ctx, query.taskId) });

  r.handle(labels.getProductLabels, { handler: (ctx) => products.getProductLabels(ctx) });
  r.handle(labels.createOrUpdateProductLabel, {
    handler: async (ctx, { body }) => (await products.createOrUpdateProductLabels(ctx, [body]))[0],
  });
  r.handle(labels.createOrUpdateProductLabels, { handler: (ctx, { body }) => products.createOrUpdateProductLabels(ctx, body) });
  r.handle(labels.deleteProductLabel, { handler: (ctx, { query }) => products.deleteProductLabel(ctx, query.id) });
  r.handle(labels.createOrUpdateProductLabelGroup, {
    handler: (ctx, { body }) => products.createOrUpdateProductLabelGroup(ctx, body),
  });
  r.handle(labels.deleteProductLabelGroup, { handler: (ctx, { query }) => products.deleteProductLabelGroup(ctx, query.id) });

  r.handle(calls.predictWeightByTitle, { handler: (ctx, { body }) => products.predictWeightByTitle(ctx, body) });
  r.handle(calls.translateProduct, { handler: (ctx, { body }) => products.translateProduct(ctx, body) });
}
