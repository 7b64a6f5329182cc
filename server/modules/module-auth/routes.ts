// The authorization centre's calls (spec §7 ModuleAuth: ApplyAuth, ReApplyAuth, AuditAuth, GetApplys, GetAuths,
// GenerateAuthCode). RevokeAuth and the calls that use a grant (GetAuthProducts, GetAuthProductById, CopyAuthProducts)
// are ours (docs/decisions.md). The centre's calls are the main account's (spec §2: main account only); a grant is
// the tenant's, so any of its users may use one.
import type { Registrar } from "../../http/calls.ts";
import {
  applyAuthInput,
  auditAuthInput,
  authCodeResult,
  copyAuthProductsInput,
  getApplysQuery,
  getAuthProductQuery,
  getAuthProductsInput,
  getAuthsQuery,
  moduleAuth,
  moduleAuthPage,
  reApplyAuthInput,
  revokeAuthInput,
} from "#shared/contract/module-auth.ts";
import { copyProductResult, productDetail, productPage } from "#shared/contract/product.ts";
import type { ModuleAuthService } from "./service.ts";

export function registerModuleAuth(r: Registrar, { moduleAuth: auth }: { moduleAuth: ModuleAuthService }) {
  const group = "ModuleAuth";
  r.call({
    group,
    name: "GenerateAuthCode",
    method: "PUT",
    access: "main",
    idempotent: true,
    summary: "A one-time authorization code of the caller's tenant (XXXX-XXXX-XXXX-XXXX, valid 24 hours), shown once",
    result: authCodeResult,
    handler: (ctx) => auth.generateAuthCode(ctx),
  });
  r.call({
    group,
    name: "ApplyAuth",
    method: "POST",
    access: "main",
    idempotent: true,
    summary: "Applies, with another tenant's code (consumed), for some of its modules (authContent) until expireTime",
    body: applyAuthInput,
    result: moduleAuth,
    handler: (ctx, { body }) => auth.applyAuth(ctx, body),
  });
  r.call({
    group,
    name: "ReApplyAuth",
    method: "POST",
    access: "main",
    idempotent: true,
    summary: "Submits a rejected or expired application again (pending), with new content and expiry",
    body: reApplyAuthInput,
    result: moduleAuth,
    handler: (ctx, { body }) => auth.reApplyAuth(ctx, body),
  });
  r.call({
    group,
    name: "AuditAuth",
    method: "POST",
    access: "main",
    idempotent: true,
    summary: "The grantor approves (auditStatus 2) or rejects (3, with a reason) a pending application made to it",
    body: auditAuthInput,
    result: moduleAuth,
    handler: (ctx, { body }) => auth.auditAuth(ctx, body),
  });
  r.call({
    group,
    name: "RevokeAuth",
    method: "POST",
    access: "main",
    idempotent: true,
    summary: "The grantor ends a grant in force before its expiry (ours: the spec names no call for it)",
    body: revokeAuthInput,
    result: moduleAuth,
    handler: (ctx, { body }) => auth.revokeAuth(ctx, body),
  });
  r.call({
    group,
    name: "GetApplys",
    method: "GET",
    access: "main",
    summary: "Applications the caller made (Type 1) or received (Type 2), any status; AuditStatus, Search, paging",
    query: getApplysQuery,
    result: moduleAuthPage,
    handler: (ctx, { query }) => auth.getApplys(ctx, query),
  });
  r.call({
    group,
    name: "GetAuths",
    method: "GET",
    access: "main",
    summary: "Grants in force the caller holds (Type 1) or gave (Type 2)",
    query: getAuthsQuery,
    result: moduleAuthPage,
    handler: (ctx, { query }) => auth.getAuths(ctx, query),
  });
  r.call({
    group,
    name: "GetAuthProducts",
    method: "POST",
    access: "user",
    summary: "The grantor's product list through a grant in force (authId) holding products; the product list's filters",
    body: getAuthProductsInput,
    result: productPage,
    handler: (ctx, { body }) => auth.getAuthProducts(ctx, body),
  });
  r.call({
    group,
    name: "GetAuthProductById",
    method: "GET",
    access: "user",
    summary: "One of the grantor's products through a grant in force (authId) holding products",
    query: getAuthProductQuery,
    result: productDetail,
    handler: (ctx, { query }) => auth.getAuthProductById(ctx, query),
  });
  r.call({
    group,
    name: "CopyAuthProducts",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Copies the grantor's products into the caller's own list through a grant holding products.copy",
    body: copyAuthProductsInput,
    result: copyProductResult,
    handler: (ctx, { body }) => auth.copyAuthProducts(ctx, body),
  });
}
