// Moved to server/db/tenants.ts (http/calls.ts finds the caller's tenant with it, and http imports no module); this
// re-export stays only until token/routes.ts imports it from there (issue 30: it was being converted at the time).
export { findTenant } from "../../db/tenants.ts";
