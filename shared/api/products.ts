// Product centre calls (spec §7 Product): the list, the detail and editor, every bulk edit with its undo, and the
// screening against infringement words.
import { z } from "zod";
import { id } from "../contract/common.ts";
import { productScreeningInput, productScreeningResult } from "../contract/infringement.ts";
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
} from "../contract/product.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

const bulk = <B extends z.ZodType>(name: string, body: B) =>
  call({ method: "POST", path: `/api/Product/${name}`, body, result: bulkEditResult, idempotent: true });

export const productCalls = {
  getProductsByPage: call({ method: "POST", path: "/api/Product/GetProductsByPage", body: getProductsByPageInput, result: productPage }),
  countProducts: call({ method: "POST", path: "/api/Product/CountProducts", body: productFilter, result: countProductsResult }),
  getProductById: call({ method: "GET", path: "/api/Product/GetProductById", query: z.object({ id }), result: productDetail }),
  getProductByIds: call({
    method: "POST",
    path: "/api/Product/GetProductByIds",
    body: z.array(id).max(1000),
    result: z.array(productDetail),
  }),
  createOrUpdateProduct: call({
    method: "POST",
    path: "/api/Product/CreateOrUpdateProduct",
    idempotent: true,
    body: createOrUpdateProductInput,
    result: productDetail,
  }),
  updateProductAttr: call({ method: "POST", path: "/api/Product/UpdateProductAttr", body: updateProductAttrInput, result: productDetail }),
  updateProductPrice: call({
    method: "POST",
    path: "/api/Product/UpdateProductPrice",
    body: updateProductPriceInput,
    result: productDetail,
  }),
  copyProduct: call({
    idempotent: true,
    method: "POST",
    path: "/api/Product/CopyProduct",
    body: copyProductInput,
    result: copyProductResult,
  }),
  deleteProducts: bulk("DeleteProducts", deleteProductsInput),
  batchDeleteProducts: bulk("BatchDeleteProducts", batchDeleteProductsInput),
  assignProduct: bulk("AssignProduct", assignProductInput),
  batchUpdateProductSamePrice: bulk("BatchUpdateProductSamePrice", batchUpdateProductSamePriceInput),
  batchUpdateProductPrice: bulk("BatchUpdateProductPrice", batchUpdateProductPriceInput),
  batchUpdateProductWeight: bulk("BatchUpdateProductWeight", batchUpdateProductWeightInput),
  webBatchUpdateProductWeight: bulk("WebBatchUpdateProductWeight", batchUpdateProductWeightInput),
  batchUpdateProductStatus: bulk("BatchUpdateProductStatus", batchUpdateProductStatusInput),
  batchUpdateProductCategory: bulk("BatchUpdateProductCategory", batchUpdateProductCategoryInput),
  replaceKeyword: bulk("ReplaceKeyword", replaceKeywordInput),
  translateProduct: call({
    method: "POST",
    path: "/api/Product/TranslateProduct",
    idempotent: true,
    body: translateProductInput,
    result: translateProductResult,
  }),
  getLastProductEdit: call({ method: "GET", path: "/api/Product/GetLastProductEdit", result: productEditInfo.nullable() }),
  undoProductEdit: call({
    method: "POST",
    path: "/api/Product/UndoProductEdit",
    body: undoProductEditInput,
    result: undoProductEditResult,
  }),
  predictWeightByTitle: call({
    method: "POST",
    path: "/api/Product/PredictWightByTitle",
    body: predictWeightByTitleInput,
    result: predictWeightByTitleResult,
  }),
  /** Labels on and off are bulk edits too (with undo), under the ProductLabel group as the spec has them. */
  linkProductLabel: call({
    method: "POST",
    path: "/api/ProductLabel/LinkProductLabel",
    idempotent: true,
    body: linkProductLabelInput,
    result: bulkEditResult,
  }),
  cancelLinkProductLabel: call({
    method: "POST",
    path: "/api/ProductLabel/CancelLinkProductLabel",
    idempotent: true,
    body: cancelLinkProductLabelInput,
    result: bulkEditResult,
  }),
  screeningforInfringement: call({
    method: "POST",
    path: "/api/Product/ScreeningforInfringement",
    body: productScreeningInput,
    result: productScreeningResult,
  }),
};

export const createProductApi = (client: ApiClient) => bindCalls(client, productCalls);
export type ProductApi = ReturnType<typeof createProductApi>;
