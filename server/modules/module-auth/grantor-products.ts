// The grantor's products through a grant (withGrant): read as the product list reads them (GetAuthProducts,
// GetAuthProductById), or copied into the caller's own products (CopyAuthProducts).
import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import { products } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { notFound } from "../../http/errors.ts";
import { ModuleAuthContent, ProductStatus } from "#shared/contract/enums.ts";
import type { copyAuthProductsInput, getAuthProductQuery, getAuthProductsInput } from "#shared/contract/module-auth.ts";
import type { ProductDetail, ProductListItem, ProductPage } from "#shared/contract/product.ts";
import type { ProductService } from "../products/index.ts";
import { withGrant } from "./grant.ts";

/** The list items without B's people and labels: a grant opens products, not who at B made them. */
function stripOwner<T extends ProductListItem>(p: T): T {
  return { ...p, owner: null, labelId: null, labelName: null };
}

/** What the authorization centre uses of the product service: the grantor's products read as the product list does. */
export type ModuleAuthDeps = { products: Pick<ProductService, "getProductsByPage" | "getProductById" | "checkProductLimit"> };

export function createGrantorProducts({ products: productService }: ModuleAuthDeps) {
  /** GetAuthProducts (ours): the grantor's live products, the product list's filters and order. */
  async function getAuthProducts(ctx: CallContext, body: z.output<typeof getAuthProductsInput>): Promise<ProductPage> {
    const { authId, ...filter } = body;
    const answer = await withGrant(ctx, authId, ModuleAuthContent.Products, (c) => productService.getProductsByPage(c, filter));
    const page = JSON.parse(answer.json) as ProductPage;
    return { ...page, items: page.items.map(stripOwner) };
  }

  /** GetAuthProductById (ours): one of the grantor's live products. */
  async function getAuthProductById(ctx: CallContext, q: z.output<typeof getAuthProductQuery>): Promise<ProductDetail> {
    return stripOwner(await withGrant(ctx, q.authId, ModuleAuthContent.Products, (c) => productService.getProductById(c, q.id)));
  }

  /**
   * CopyAuthProducts (ours; needs products.copy, which needs products): the grantor's products read in its scope, then written in the caller's as new unedited
   * products of the caller (within its productCount limit), without B's label or collection link.
   */
  async function copyAuthProducts(ctx: CallContext, body: z.output<typeof copyAuthProductsInput>) {
    const u = ctx.user!;
    const unique = [...new Set(body.productIds)];
    const rows = await withGrant(ctx, body.authId, ModuleAuthContent.ProductsCopy, (c) =>
      c.tx
        .select()
        .from(products)
        .where(and(eq(products.tenantId, c.tenantId), eq(products.isDeleted, false), inArray(products.id, unique))),
    );
    if (!rows.length) throw notFound("商品不存在");
    await productService.checkProductLimit(ctx.tx, u.tenantId, u.id, rows.length);
    const order = new Map(unique.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    const now = new Date();
    const copies = rows.map((p) => ({
      ...p,
      tenantId: u.tenantId,
      id: randomUUID(),
      userId: u.id,
      sourceCollectionId: null,
      labelId: null,
      status: ProductStatus.Unedited,
      isDeleted: false,
      deleterId: null,
      deletionTime: null,
      creationTime: now,
      creatorId: u.id,
      lastModificationTime: null,
      lastModifierId: null,
      concurrencyStamp: randomUUID(),
    }));
    await ctx.tx.insert(products).values(copies);
    return { count: copies.length, productIds: copies.map((c) => c.id) };
  }

  return { getAuthProducts, getAuthProductById, copyAuthProducts };
}
