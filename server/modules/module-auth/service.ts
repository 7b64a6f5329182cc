// The authorization centre (spec §7 ModuleAuth; issue 19). Tenant B (the grantor) generates a one-time code; tenant A
// (the applicant) applies with it for some of B's modules until a date; B approves or rejects (the data is B's, so B
// decides, not the host), may revoke a grant in force, and A may re-apply after a rejection or an expiry.
//
// Rows: module_auths belongs to A (tenant_id) and is reached by B through a second row-level policy on auth_tenant_id
// (migration 0019), so every query names its side explicitly: tenant_id = caller for A's work, auth_tenant_id =
// caller for B's.
//
// The parts: codes and A's applications (applications.ts), B's review (review.ts), either side's lists (lists.ts), and
// the grantor's products read or copied through a grant in force (grantor-products.ts, over grant.ts's withGrant).
import { applyAuth, generateAuthCode, reApplyAuth } from "./applications.ts";
import { createGrantorProducts, type ModuleAuthDeps } from "./grantor-products.ts";
import { getApplys, getAuths } from "./lists.ts";
import { auditAuth, revokeAuth } from "./review.ts";

export function createModuleAuthService(deps: ModuleAuthDeps) {
  const { getAuthProducts, getAuthProductById, copyAuthProducts } = createGrantorProducts(deps);
  return {
    generateAuthCode,
    applyAuth,
    reApplyAuth,
    auditAuth,
    revokeAuth,
    getApplys,
    getAuths,
    getAuthProducts,
    getAuthProductById,
    copyAuthProducts,
  };
}

export type ModuleAuthService = ReturnType<typeof createModuleAuthService>;
