// Product labels and label groups (spec §7 ProductLabel). LinkProductLabel and CancelLinkProductLabel, which put
// labels on products, are bulk edits and live with the product calls (products.ts).
import { z } from "zod";
import { countResult } from "../contract/collect.ts";
import {
  createOrUpdateProductLabelGroupInput,
  createOrUpdateProductLabelInput,
  createOrUpdateProductLabelsInput,
  productLabel,
  productLabelGroup,
  productLabelIdQuery,
  productLabelList,
} from "../contract/product-label.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const productLabelCalls = {
  /** Every label (with the caller's product count) and every group with its labels. */
  getProductLabels: call({ method: "GET", path: "/api/ProductLabel/GetProductLabels", result: productLabelList }),
  createOrUpdateProductLabel: call({
    method: "POST",
    path: "/api/ProductLabel/CreateOrUpdateProductLabel",
    idempotent: true,
    body: createOrUpdateProductLabelInput,
    result: productLabel,
  }),
  createOrUpdateProductLabels: call({
    method: "POST",
    path: "/api/ProductLabel/CreateOrUpdateProductLabels",
    idempotent: true,
    body: createOrUpdateProductLabelsInput,
    result: z.array(productLabel),
  }),
  /** Answers how many products lost the label. */
  deleteProductLabel: call({
    method: "DELETE",
    path: "/api/ProductLabel/DeleteProductLabel",
    query: productLabelIdQuery,
    result: countResult,
  }),
  createOrUpdateProductLabelGroup: call({
    method: "POST",
    path: "/api/ProductLabel/CreateOrUpdateProductLabelGroup",
    idempotent: true,
    body: createOrUpdateProductLabelGroupInput,
    result: productLabelGroup,
  }),
  /** Answers how many labels became ungrouped. */
  deleteProductLabelGroup: call({
    method: "DELETE",
    path: "/api/ProductLabel/DeleteProductLabelGroup",
    query: productLabelIdQuery,
    result: countResult,
  }),
};

export const createProductLabelApi = (client: ApiClient) => bindCalls(client, productLabelCalls);
export type ProductLabelApi = ReturnType<typeof createProductLabelApi>;
