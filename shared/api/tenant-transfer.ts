// Moving and copying between tenants (spec §7 Hosted and Product; issue 31): the host picks a tenant's shop groups and
// moves them, or copies products, collections, labels and words to another tenant. Every call is host-only; the long
// ones answer a task (task centre, live progress) at once.
import {
  copyGroupsToTenantQuery,
  copyToTenantQuery,
  migrateAccountInput,
  migrateFromProductQuery,
  migrateToProductBody,
  migrateWordQuery,
  migrateWordResult,
  removeMeliAccountInput,
  tenantMeliAccountInfo,
  tenantMeliAccountInfoInput,
  transferTaskResult,
} from "../contract/tenant-transfer.ts";
import { call } from "./define.ts";

const group = "Hosted";
const access = "host";

export const hostedTransferCalls = {
  getTenantMeliAccountInfo: call({
    group,
    name: "GetTenantMeliAccountInfo",
    method: "POST",
    access,
    summary: "A tenant's shop groups with their shops and what would move with them, and its users",
    body: tenantMeliAccountInfoInput,
    result: tenantMeliAccountInfo,
  }),
  migrateAccount: call({
    group,
    name: "MigrateAccount",
    method: "POST",
    access,
    idempotent: true,
    summary: "Moves shop groups with their shops, listings and orders to another tenant, their products copied or moved (a task)",
    body: migrateAccountInput,
    result: transferTaskResult,
  }),
  removeMeliAccount: call({
    group,
    name: "RemoveMeliAccount",
    method: "POST",
    access,
    idempotent: true,
    summary: "Removes shop groups from a tenant with their shops and listings; orders and products stay (a task)",
    body: removeMeliAccountInput,
    result: transferTaskResult,
  }),
  copyProductsToTenant: call({
    group,
    name: "CopyProductsToTenant",
    method: "GET",
    access,
    idempotent: true,
    summary: "Copies (or moves, isDeleteSrc) a tenant's live products with their labels to another tenant (a task)",
    query: copyToTenantQuery,
    result: transferTaskResult,
  }),
  copyCollectsToTenant: call({
    group,
    name: "CopyCollectsToTenant",
    method: "GET",
    access,
    idempotent: true,
    summary: "Copies (or moves, isDeleteSrc) a tenant's collected products to another tenant (a task)",
    query: copyToTenantQuery,
    result: transferTaskResult,
  }),
  copyGroupsToTenant: call({
    group,
    name: "CopyGroupsToTenant",
    method: "GET",
    access,
    idempotent: true,
    summary: "Copies a tenant's product label groups and labels to another tenant, merged by name (a task)",
    query: copyGroupsToTenantQuery,
    result: transferTaskResult,
  }),
  migrateWord: call({
    group,
    name: "MigrateWord",
    method: "PUT",
    access,
    summary: "Adds a tenant's infringement words to another tenant's (words it has already are kept once)",
    query: migrateWordQuery,
    result: migrateWordResult,
  }),
};

export const productTransferCalls = {
  migrateToProduct: call({
    group: "Product",
    name: "MigrateToProduct",
    method: "POST",
    access,
    idempotent: true,
    summary: "Copies (or moves) chosen products of one tenant to another tenant's products (a task)",
    body: migrateToProductBody,
    result: transferTaskResult,
  }),
  migrateFromProduct: call({
    group: "Product",
    name: "MigrateFromProduct",
    method: "POST",
    access,
    idempotent: true,
    summary: "Copies chosen products of one tenant into each of several tenants (a task)",
    query: migrateFromProductQuery,
    result: transferTaskResult,
  }),
};
