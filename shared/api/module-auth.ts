// The authorization centre's calls (issue 19; spec §7 ModuleAuth: ApplyAuth, ReApplyAuth, AuditAuth, GetApplys,
// GetAuths, GenerateAuthCode; contract/module-auth.ts). RevokeAuth and the calls that use a grant (GetAuthProducts,
// GetAuthProductById, CopyAuthProducts) are ours (docs/decisions.md). The centre's calls are the main account's (spec
// §2: main account only); a grant is the tenant's, so any of its users may use one. Every call that changes data is
// idempotent (one Idempotency-Key per submission).
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
} from "../contract/module-auth.ts";
import { copyProductResult, productDetail, productPage } from "../contract/product.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

const group = "ModuleAuth";

export const moduleAuthCalls = {
  generateAuthCode: call({
    group,
    name: "GenerateAuthCode",
    method: "PUT",
    access: "main",
    idempotent: true,
    summary: "A one-time authorization code of the caller's tenant (XXXX-XXXX-XXXX-XXXX, valid 24 hours), shown once",
    result: authCodeResult,
  }),
  applyAuth: call({
    group,
    name: "ApplyAuth",
    method: "POST",
    access: "main",
    idempotent: true,
    summary: "Applies, with another tenant's code (consumed), for some of its modules (authContent) until expireTime",
    body: applyAuthInput,
    result: moduleAuth,
  }),
  reApplyAuth: call({
    group,
    name: "ReApplyAuth",
    method: "POST",
    access: "main",
    idempotent: true,
    summary: "Submits a rejected or expired application again (pending), with new content and expiry",
    body: reApplyAuthInput,
    result: moduleAuth,
  }),
  auditAuth: call({
    group,
    name: "AuditAuth",
    method: "POST",
    access: "main",
    idempotent: true,
    summary: "The grantor approves (auditStatus 2) or rejects (3, with a reason) a pending application made to it",
    body: auditAuthInput,
    result: moduleAuth,
  }),
  revokeAuth: call({
    group,
    name: "RevokeAuth",
    method: "POST",
    access: "main",
    idempotent: true,
    summary: "The grantor ends a grant in force before its expiry (ours: the spec names no call for it)",
    body: revokeAuthInput,
    result: moduleAuth,
  }),
  getApplys: call({
    group,
    name: "GetApplys",
    method: "GET",
    access: "main",
    summary: "Applications the caller made (Type 1) or received (Type 2), any status; AuditStatus, Search, paging",
    query: getApplysQuery,
    result: moduleAuthPage,
  }),
  getAuths: call({
    group,
    name: "GetAuths",
    method: "GET",
    access: "main",
    summary: "Grants in force the caller holds (Type 1) or gave (Type 2)",
    query: getAuthsQuery,
    result: moduleAuthPage,
  }),
  getAuthProducts: call({
    group,
    name: "GetAuthProducts",
    method: "POST",
    access: "user",
    summary: "The grantor's product list through a grant in force (authId) holding products; the product list's filters",
    body: getAuthProductsInput,
    result: productPage,
  }),
  getAuthProductById: call({
    group,
    name: "GetAuthProductById",
    method: "GET",
    access: "user",
    summary: "One of the grantor's products through a grant in force (authId) holding products",
    query: getAuthProductQuery,
    result: productDetail,
  }),
  copyAuthProducts: call({
    group,
    name: "CopyAuthProducts",
    method: "POST",
    access: "user",
    idempotent: true,
    summary: "Copies the grantor's products into the caller's own list through a grant holding products.copy",
    body: copyAuthProductsInput,
    result: copyProductResult,
  }),
};

export const createModuleAuthApi = (client: ApiClient) => bindCalls(client, moduleAuthCalls);
export type ModuleAuthApi = ReturnType<typeof createModuleAuthApi>;
