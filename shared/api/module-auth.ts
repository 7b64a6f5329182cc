// The authorization centre's calls (issue 19; spec §7 ModuleAuth; contract/module-auth.ts). Every call that changes
// data is idempotent (one Idempotency-Key per submission). RevokeAuth and the calls that use a grant are ours.
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

const P = "/api/ModuleAuth";

export const moduleAuthCalls = {
  generateAuthCode: call({ method: "PUT", path: `${P}/GenerateAuthCode`, idempotent: true, result: authCodeResult }),
  applyAuth: call({ method: "POST", path: `${P}/ApplyAuth`, idempotent: true, body: applyAuthInput, result: moduleAuth }),
  reApplyAuth: call({ method: "POST", path: `${P}/ReApplyAuth`, idempotent: true, body: reApplyAuthInput, result: moduleAuth }),
  auditAuth: call({ method: "POST", path: `${P}/AuditAuth`, idempotent: true, body: auditAuthInput, result: moduleAuth }),
  revokeAuth: call({ method: "POST", path: `${P}/RevokeAuth`, idempotent: true, body: revokeAuthInput, result: moduleAuth }),
  getApplys: call({ method: "GET", path: `${P}/GetApplys`, query: getApplysQuery, result: moduleAuthPage }),
  getAuths: call({ method: "GET", path: `${P}/GetAuths`, query: getAuthsQuery, result: moduleAuthPage }),
  getAuthProducts: call({ method: "POST", path: `${P}/GetAuthProducts`, body: getAuthProductsInput, result: productPage }),
  getAuthProductById: call({ method: "GET", path: `${P}/GetAuthProductById`, query: getAuthProductQuery, result: productDetail }),
  copyAuthProducts: call({
    method: "POST",
    path: `${P}/CopyAuthProducts`,
    idempotent: true,
    body: copyAuthProductsInput,
    result: copyProductResult,
  }),
};

export const createModuleAuthApi = (client: ApiClient) => bindCalls(client, moduleAuthCalls);
export type ModuleAuthApi = ReturnType<typeof createModuleAuthApi>;
