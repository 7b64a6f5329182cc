// Agency calls (spec §7 Agency) and the host's recommend set (spec §3 Recommend set; the spec names no call for it:
// Hosted SetRecommendTenant and GetRecommendInfo are ours, docs/decisions.md). The agency's calls are main-account only:
// commission is the company's income, like a withdrawal.
import type { Registrar } from "../../http/calls.ts";
import {
  agencyTransactionPage,
  editAgencyRemarkInput,
  getAgencyTransactionRecordQuery,
  getInviteRecordsQuery,
  inviteRecordPage,
  recommendInfo,
  setRecommendInput,
} from "#shared/contract/agency.ts";
import { tenantUserInfoQuery } from "#shared/contract/hosted.ts";
import type { AgencyService } from "./service.ts";

export function registerAgency(r: Registrar, { agency }: { agency: AgencyService }) {
  r.call({
    group: "Agency",
    name: "GetInviteRecords",
    method: "GET",
    access: "main",
    summary: "The tenants the caller's tenant recommended (Search: name or remark; IsActive), with the commission each earned it (yuan)",
    query: getInviteRecordsQuery,
    result: inviteRecordPage,
    handler: (ctx, { query }) => agency.getInviteRecords(ctx, query),
  });
  r.call({
    group: "Agency",
    name: "EditRemark",
    method: "POST",
    access: "main",
    summary: "Sets the agency's remark on one of its recommended tenants (id: the tenant; empty clears it)",
    body: editAgencyRemarkInput,
    handler: (ctx, { body }) => agency.editRemark(ctx, body),
  });
  r.call({
    group: "Agency",
    name: "GetAgencyTransactionRecord",
    method: "GET",
    access: "main",
    summary: "The agency's commission entries (Search: tenant name or remark; StartDate, EndDate; Type), newest first, amounts in yuan",
    query: getAgencyTransactionRecordQuery,
    result: agencyTransactionPage,
    handler: (ctx, { query }) => agency.getAgencyTransactionRecord(ctx, query),
  });
  r.call({
    group: "Hosted",
    name: "SetRecommendTenant",
    method: "POST",
    access: "host",
    summary: "Records that recommandTenantId (an agency) recommended tenantId (null clears it); type 1 earns commission, 2 does not",
    body: setRecommendInput,
    result: recommendInfo,
    handler: (ctx, { body }) => agency.setRecommend(ctx, body),
  });
  r.call({
    group: "Hosted",
    name: "GetRecommendInfo",
    method: "GET",
    access: "host",
    summary: "One tenant's recommender (agency) and the recommendation's type",
    query: tenantUserInfoQuery,
    result: recommendInfo,
    handler: (ctx, { query }) => agency.getRecommendInfo(ctx, query.TenantId),
  });
}
