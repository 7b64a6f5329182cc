// The product centre's calls (spec §7 Product, ProductLabel): the list and editor, bulk edits and their undo, labels,
// weight prediction, export and translation. The work is done by the product service (service.ts and its parts).
import { z } from "zod";
import type { CallContext, Registrar } from "../../http/calls.ts";
import { id } from "#shared/contract/common.ts";
import { countResult } from "#shared/contract/collect.ts";
import {
  assignProductInput,
  batchDeleteProductsInput,
  batchUpdateProductCategoryInput,
  batchUpdateProductPriceInput,
  batchUpdateProductSamePriceInput,
  batchUpdateProductStatusInput,
  batchUpdateProductWeightInput,
  bulkEditResult,
  cancelLinkProductLabelInput,
  copyProductInput,
  copyProductResult,
  countProductsResult,
  createOrUpdateProductInput,
  deleteProductsInput,
  getProductsByPageInput,
  linkProductLabelInput,
  predictWeightByTitleInput,
  predictWeightByTitleResult,
  productDetail,
  productEditInfo,
  productFilter,
  productPage,
  replaceKeywordInput,
  translateProductInput,
  translateProductResult,
  undoProductEditInput,
  undoProductEditResult,
  updateProductAttrInput,
  updateProductPriceInput,
  type BulkEditResult,
} from "#shared/contract/product.ts";
import {
  createOrUpdateProductLabelGroupInput,
  createOrUpdateProductLabelInput,
  createOrUpdateProductLabelsInput,
  productLabel,
  productLabelGroup,
  productLabelIdQuery,
  productLabelList,
} from "#shared/contract/product-label.ts";
import { downloadExportQuery, exportProductInput, exportProductResult } from "#shared/contract/product-export.ts";
import type { ProductService } from "./service.ts";

export function registerProducts(r: Registrar, { products }: { products: ProductService }) {
  const group = "Product";
  r.call({
    group,
    name: "GetProductsByPage",
    method: "POST",
    access: "user",
    summary: "Products: the tenant's for a main account, its own for a sub-account, a tenant's for the host (tenantId); newest first",
    body: getProductsByPageInput,
    result: productPage,
    handler: (ctx, { body }) => products.getProductsByPage(ctx, body),
  });
  r.call({
    group,
    name: "GetProductById",
    method: "GET",
    access: "user",
    query: z.object({ id }),
    result: productDetail,
    handler: (ctx, { query }) => products.getProductById(ctx, query.id),
  });
  r.call({
    group,
    name: "GetProductByIds",
    method: "POST",
    access: "user",
    body: z.array(id).max(1000),
    result: z.array(productDetail),
    handler: (ctx, { body }) => products.getProductByIds(ctx, body),
  });
  r.call({
    group,
    name: "CreateOrUpdateProduct",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Creates (no id) or edits a product; answers the saved product",
    body: createOrUpdateProductInput,
    result: productDetail,
    handler: (ctx, { body }) => products.createOrUpdateProduct(ctx, body),
  });
  r.call({
    group,
    name: "UpdateProductAttr",
    method: "POST",
    access: "user",
    body: updateProductAttrInput,
    result: productDetail,
    handler: (ctx, { body }) => products.updateProductAttr(ctx, body),
  });
  r.call({
    group,
    name: "UpdateProductPrice",
    method: "POST",
    access: "user",
    body: updateProductPriceInput,
    result: productDetail,
    handler: (ctx, { body }) => products.updateProductPrice(ctx, body),
  });
  r.call({
    group,
    name: "CopyProduct",
    method: "POST",
    access: "user",
    idempotent: true,
    body: copyProductInput,
    result: copyProductResult,
    handler: (ctx, { body }) => products.copyProduct(ctx, body),
  });

  const bulk = <B extends z.ZodType>(
    name: string,
    summary: string,
    body: B,
    run: (ctx: CallContext, body: z.output<B>) => Promise<BulkEditResult>,
    access: "user" | "main" = "user",
  ) =>
    r.call({
      group,
      name,
      method: "POST",
      access,
      idempotent: true,
      bulk: true,
      summary,
      body,
      result: bulkEditResult,
      handler: (ctx, input) => run(ctx, input.body),
    });

  bulk(
    "BatchUpdateProductSamePrice",
    "Sets one price on the selected products and their variants: fixPrice × rate, ending on tinyPrice",
    batchUpdateProductSamePriceInput,
    products.batchUpdateProductSamePrice,
  );
  bulk(
    "BatchUpdateProductPrice",
    "Changes each selected product's price and variant prices to old × rate + price (at least 0), ending on tinyPrice",
    batchUpdateProductPriceInput,
    products.batchUpdateProductPrice,
  );
  for (const name of ["BatchUpdateProductWeight", "WebBatchUpdateProductWeight"] as const) {
    bulk(
      name,
      "Sets the weight (or a random weight per product) and/or the size of the selected products",
      batchUpdateProductWeightInput,
      (ctx, body) => products.batchUpdateProductWeight(ctx, body, name),
    );
  }
  bulk(
    "BatchUpdateProductStatus",
    "Sets the status of the selected products",
    batchUpdateProductStatusInput,
    products.batchUpdateProductStatus,
  );
  bulk(
    "BatchUpdateProductCategory",
    "Sets the category of the selected products",
    batchUpdateProductCategoryInput,
    products.batchUpdateProductCategory,
  );
  bulk(
    "ReplaceKeyword",
    "Replaces a keyword in the titles and/or descriptions of the selected products",
    replaceKeywordInput,
    products.replaceKeyword,
  );
  bulk(
    "AssignProduct",
    "Gives the selected products to a user of the tenant (main account)",
    assignProductInput,
    products.assignProduct,
    "main",
  );
  bulk("DeleteProducts", "Deletes the products (soft; undone by UndoProductEdit)", deleteProductsInput, products.deleteProducts);
  bulk(
    "BatchDeleteProducts",
    "Deletes the selected products (soft; undone by UndoProductEdit)",
    batchDeleteProductsInput,
    products.batchDeleteProducts,
  );
  r.call({
    group,
    name: "CountProducts",
    method: "POST",
    access: "user",
    summary: "How many of the caller's products the filter matches (exact)",
    body: productFilter,
    result: countProductsResult,
    handler: (ctx, { body }) => products.countProducts(ctx, body),
  });
  r.call({
    group,
    name: "GetLastProductEdit",
    method: "GET",
    access: "user",
    summary: "The caller's latest bulk edit and whether it can still be undone; null when none",
    result: productEditInfo.nullable(),
    handler: (ctx) => products.getLastProductEdit(ctx),
  });
  r.call({
    group,
    name: "UndoProductEdit",
    method: "POST",
    access: "user",
    bulk: true,
    summary: "Undoes the caller's latest bulk edit (within 24 hours): every row it touched gets its previous values back",
    body: undoProductEditInput,
    result: undoProductEditResult,
    handler: (ctx, { body }) => products.undoProductEdit(ctx, body.id),
  });
  r.call({
    group: "ProductLabel",
    name: "LinkProductLabel",
    method: "POST",
    access: "user",
    idempotent: true,
    bulk: true,
    summary: "Puts the label on the selected products",
    body: linkProductLabelInput,
    result: bulkEditResult,
    handler: (ctx, { body }) => products.linkProductLabel(ctx, body),
  });
  r.call({
    group: "ProductLabel",
    name: "CancelLinkProductLabel",
    method: "POST",
    access: "user",
    idempotent: true,
    bulk: true,
    summary: "Takes the label (or any label) off the selected products",
    body: cancelLinkProductLabelInput,
    result: bulkEditResult,
    handler: (ctx, { body }) => products.cancelLinkProductLabel(ctx, body),
  });

  r.call({
    group: "Product",
    name: "ExportProduct",
    method: "POST",
    access: "user",
    idempotent: true,
    summary:
      "Export the selected products (ids or filter) to xlsx as a background task; answers {taskId}: poll the task centre, then DownloadExport",
    body: exportProductInput,
    result: exportProductResult,
    handler: (ctx, { body }) => products.exportProduct(ctx, body),
  });
  r.call({
    group: "Product",
    name: "DownloadExport",
    method: "GET",
    access: "user",
    summary: "The finished export's xlsx file (the task's creator only), for 7 days",
    query: downloadExportQuery,
    handler: (ctx, { query }) => products.downloadExport(ctx, query.taskId),
  });
  r.call({
    group: "ProductLabel",
    name: "GetProductLabels",
    method: "GET",
    access: "user",
    summary: "The tenant's labels (each with how many of the caller's products carry it) and label groups with their labels",
    result: productLabelList,
    handler: (ctx) => products.getProductLabels(ctx),
  });
  r.call({
    group: "ProductLabel",
    name: "CreateOrUpdateProductLabel",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Creates a label or, with id, edits it (main account); names are unique in the tenant",
    body: createOrUpdateProductLabelInput,
    result: productLabel,
    handler: async (ctx, { body }) => (await products.createOrUpdateProductLabels(ctx, [body]))[0],
  });
  r.call({
    group: "ProductLabel",
    name: "CreateOrUpdateProductLabels",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Creates and edits several labels at once, all or nothing (main account)",
    body: createOrUpdateProductLabelsInput,
    result: z.array(productLabel),
    handler: (ctx, { body }) => products.createOrUpdateProductLabels(ctx, body),
  });
  r.call({
    group: "ProductLabel",
    name: "DeleteProductLabel",
    method: "DELETE",
    access: "user",
    summary: "Deletes a label and takes it off every product carrying it (main account); answers how many products",
    query: productLabelIdQuery,
    result: countResult,
    handler: (ctx, { query }) => products.deleteProductLabel(ctx, query.id),
  });
  r.call({
    group: "ProductLabel",
    name: "CreateOrUpdateProductLabelGroup",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Creates a label group or, with id, renames / re-sorts it (main account)",
    body: createOrUpdateProductLabelGroupInput,
    result: productLabelGroup,
    handler: (ctx, { body }) => products.createOrUpdateProductLabelGroup(ctx, body),
  });
  r.call({
    group: "ProductLabel",
    name: "DeleteProductLabelGroup",
    method: "DELETE",
    access: "user",
    summary: "Deletes a label group; its labels become ungrouped (main account); answers how many",
    query: productLabelIdQuery,
    result: countResult,
    handler: (ctx, { query }) => products.deleteProductLabelGroup(ctx, query.id),
  });

  r.call({
    group: "Product",
    name: "PredictWightByTitle",
    method: "POST",
    access: "user",
    summary: "Predicts a weight in grams from the caller's products with similar titles and a known weight",
    body: predictWeightByTitleInput,
    result: predictWeightByTitleResult,
    handler: (ctx, { body }) => products.predictWeightByTitle(ctx, body),
  });
  r.call({
    group: "Product",
    name: "TranslateProduct",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Translates the selected products' titles (and descriptions) into es, pt or en as a job with a task record; undoable",
    body: translateProductInput,
    result: translateProductResult,
    handler: (ctx, { body }) => products.translateProduct(ctx, body),
  });
}
