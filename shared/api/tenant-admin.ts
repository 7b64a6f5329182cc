// The host's maintenance of tenants (spec §7 Hosted, issue 31): deleted products, clearing, caches, indexes and the
// per-tenant statistics. Every call is host-only; the long ones answer a task at once (the task centre and the event
// stream show its progress) and take an Idempotency-Key, so a retried request does not start a second task.
import { z } from "zod";
import {
  adminTaskStarted,
  clearMeliStatQuery,
  clearTenantInfoQuery,
  createTenantMongoIndexQuery,
  createTenantMongoIndexResult,
  getStatLogStaticsInput,
  getTenantStatisticsInfoQuery,
  removeAllDelProductQuery,
  removeDistResult,
  removeTenantCacheQuery,
  removeTenantCacheResult,
  returnDelProductQuery,
  tenantCount,
  tenantStatisticsInfo,
} from "../contract/tenant-admin.ts";
import { call } from "./define.ts";

const group = "Hosted";

export const tenantAdminCalls = {
  returnDelProduct: call({
    group,
    name: "ReturnDelProduct",
    method: "PUT",
    access: "host",
    idempotent: true,
    summary: "Restores the tenant's products deleted in [startTime, endTime) (of one owner with userId), as a task",
    query: returnDelProductQuery,
    result: adminTaskStarted,
  }),
  removeAllDelProduct: call({
    group,
    name: "RemoveAllDelProduct",
    method: "DELETE",
    access: "host",
    idempotent: true,
    summary: "Deletes the tenant's deleted products for good (their listings and order lines keep no link to them), as a task",
    query: removeAllDelProductQuery,
    result: adminTaskStarted,
  }),
  clearMeliStat: call({
    group,
    name: "ClearMeliStat",
    method: "DELETE",
    access: "host",
    idempotent: true,
    summary: "Clears the tenant's Mercado Libre call log (MeliStatLog), all of it or before BeforeTime, as a task",
    query: clearMeliStatQuery,
    result: adminTaskStarted,
  }),
  clearTenantInfo: call({
    group,
    name: "ClearTenantInfo",
    method: "DELETE",
    access: "host",
    idempotent: true,
    summary:
      "Clears the tenant's data (products, collections, shops, listings, orders, tasks…; its accounts and money records stay), confirmed by its name typed in confirmTenantName, as a task",
    query: clearTenantInfoQuery,
    result: adminTaskStarted,
  }),
  removeTenantCache: call({
    group,
    name: "RemoveTenantCache",
    method: "POST",
    access: "host",
    summary: "Clears a server-side cache (the tenant's shop tokens, fees, picture sizes, down picture hosts) and says what was cleared",
    query: removeTenantCacheQuery,
    result: removeTenantCacheResult,
  }),
  removeDist: call({
    group,
    name: "RemoveDist",
    method: "GET",
    access: "host",
    summary: "Drops the shared rate buckets with nothing in force and releases expired token refresh leases",
    result: removeDistResult,
  }),
  createTenantMongoIndex: call({
    group,
    name: "CreateTenantMongoIndex",
    method: "PUT",
    access: "host",
    summary:
      "Checks the big tables' indexes (creates the missing, rebuilds the invalid), refreshes their planner statistics, and corrects the tenant's kept counters",
    query: createTenantMongoIndexQuery,
    result: createTenantMongoIndexResult,
  }),
  getStatLogStatics: call({
    group,
    name: "GetStatLogStatics",
    method: "POST",
    access: "host",
    summary: "Mercado Libre calls per tenant over a period (status 1: answered 2xx, 2: the others), most first",
    body: getStatLogStaticsInput,
    result: z.array(tenantCount),
  }),
  getTenantStatisticsInfo: call({
    group,
    name: "GetTenantStatisticsInfo",
    method: "GET",
    access: "host",
    summary:
      "Per tenant: products collected, listings published and shops publishing over a period (UTC days), a point per day, and each user's figures for one tenant",
    query: getTenantStatisticsInfoQuery,
    result: tenantStatisticsInfo,
  }),
};
