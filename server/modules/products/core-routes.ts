// The product list, detail and editor calls (spec §7 Product).
import { z } from "zod";
import type { Registrar } from "../../http/calls.ts";
import { id } from "../../../shared/contract/common.ts";
import {
  copyProductInput,
  copyProductResult,
  createOrUpdateProductInput,
  getProductsByPageInput,
  productDetail,
  productPage,
  updateProductAttrInput,
  updateProductPriceInput,
} from "../../../shared/contract/product.ts";
import * as service from "./service.ts";

export function registerProductCore(r: Registrar) {
  const group = "Product";
  r.call({
    group,
    name: "GetProductsByPage",
    method: "POST",
    access: "user",
    summary: "Products: the tenant's for a main account, its own for a sub-account, a tenant's for the host (tenantId); newest first",
    body: getProductsByPageInput,
    result: productPage,
    handler: (ctx, { body }) => service.getProductsByPage(ctx, body),
  });
  r.call({
    group,
    name: "GetProductById",
    method: "GET",
    access: "user",
    query: z.object({ id }),
    result: productDetail,
    handler: (ctx, { query }) => service.getProductById(ctx, query.id),
  });
  r.call({
    group,
    name: "GetProductByIds",
    method: "POST",
    access: "user",
    body: z.array(id).max(1000),
    result: z.array(productDetail),
    handler: (ctx, { body }) => service.getProductByIds(ctx, body),
  });
  r.call({
    group,
    name: "CreateOrUpdateProduct",
    method: "POST",
    access: "user",
    summary: "Creates (no id) or edits a product; answers the saved product",
    body: createOrUpdateProductInput,
    result: productDetail,
    handler: (ctx, { body }) => service.createOrUpdateProduct(ctx, body),
  });
  r.call({
    group,
    name: "UpdateProductAttr",
    method: "POST",
    access: "user",
    body: updateProductAttrInput,
    result: productDetail,
    handler: (ctx, { body }) => service.updateProductAttr(ctx, body),
  });
  r.call({
    group,
    name: "UpdateProductPrice",
    method: "POST",
    access: "user",
    body: updateProductPriceInput,
    result: productDetail,
    handler: (ctx, { body }) => service.updateProductPrice(ctx, body),
  });
  r.call({
    group,
    name: "CopyProduct",
    method: "POST",
    access: "user",
    body: copyProductInput,
    result: copyProductResult,
    handler: (ctx, { body }) => service.copyProduct(ctx, body),
  });
}
