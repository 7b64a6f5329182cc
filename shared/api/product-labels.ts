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
import { call } from "./define.ts";

const group = "ProductLabel";

export const productLabelCalls = {
  /** Every label (with the caller's product count) and every group with its labels. */
  getProductLabels: call({
    group,
    name: "GetProductLabels",
    method: "GET",
    access: "user",
    summary: "The tenant's labels (each with how many of the caller's products carry it) and label groups with their labels",
    result: productLabelList,
  }),
  createOrUpdateProductLabel: call({
    group,
    name: "CreateOrUpdateProductLabel",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Creates a label or, with id, edits it (main account); names are unique in the tenant",
    body: createOrUpdateProductLabelInput,
    result: productLabel,
  }),
  createOrUpdateProductLabels: call({
    group,
    name: "CreateOrUpdateProductLabels",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Creates and edits several labels at once, all or nothing (main account)",
    body: createOrUpdateProductLabelsInput,
    result: z.array(productLabel),
  }),
  /** Answers how many products lost the label. */
  deleteProductLabel: call({
    group,
    name: "DeleteProductLabel",
    method: "DELETE",
    access: "user",
    summary: "Deletes a label and takes it off every product carrying it (main account); answers how many products",
    query: productLabelIdQuery,
    result: countResult,
  }),
  createOrUpdateProductLabelGroup: call({
    group,
    name: "CreateOrUpdateProductLabelGroup",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Creates a label group or, with id, renames / re-sorts it (main account)",
    body: createOrUpdateProductLabelGroupInput,
    result: productLabelGroup,
  }),
  /** Answers how many labels became ungrouped. */
  deleteProductLabelGroup: call({
    group,
    name: "DeleteProductLabelGroup",
    method: "DELETE",
    access: "user",
    summary: "Deletes a label group; its labels become ungrouped (main account); answers how many",
    query: productLabelIdQuery,
    result: countResult,
  }),
};
