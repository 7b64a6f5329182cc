// Agency calls (issue 19; spec §7 Agency; contract/agency.ts): the tenants an agency recommended, its remark on each and
// its commissions; and the host's recommend set (spec §3 Recommend set; the spec names no call for it: Hosted
// SetRecommendTenant and GetRecommendInfo are ours, docs/decisions.md). The agency's calls are main-account only:
// commission is the company's income, like a withdrawal.
import {
  agencyTransactionPage,
  editAgencyRemarkInput,
  getAgencyTransactionRecordQuery,
  getInviteRecordsQuery,
  inviteRecordPage,
  recommendInfo,
  setRecommendInput,
} from "../contract/agency.ts";
import { tenantUserInfoQuery } from "../contract/hosted.ts";
import { call } from "./define.ts";

const group = "Agency";
const hostedGroup = "Hosted";

export const agencyCalls = {
  getInviteRecords: call({
    group,
    name: "GetInviteRecords",
    method: "GET",
    access: "main",
    summary: "The tenants the caller's tenant recommended (Search: name or remark; IsActive), with the commission each earned it (yuan)",
    query: getInviteRecordsQuery,
    result: inviteRecordPage,
  }),
  editRemark: call({
    group,
    name: "EditRemark",
    method: "POST",
    access: "main",
    summary: "Sets the agency's remark on one of its recommended tenants (id: the tenant; empty clears it)",
    body: editAgencyRemarkInput,
  }),
  getAgencyTransactionRecord: call({
    group,
    name: "GetAgencyTransactionRecord",
    method: "GET",
    access: "main",
    summary: "The agency's commission entries (Search: tenant name or remark; StartDate, EndDate; Type), newest first, amounts in yuan",
    query: getAgencyTransactionRecordQuery,
    result: agencyTransactionPage,
  }),
};

export const hostedAgencyCalls = {
  setRecommendTenant: call({
    group: hostedGroup,
    name: "SetRecommendTenant",
    method: "POST",
    access: "host",
    summary: "Records that recommandTenantId (an agency) recommended tenantId (null clears it); type 1 earns commission, 2 does not",
    body: setRecommendInput,
    result: recommendInfo,
  }),
  getRecommendInfo: call({
    group: hostedGroup,
    name: "GetRecommendInfo",
    method: "GET",
    access: "host",
    summary: "One tenant's recommender (agency) and the recommendation's type",
    query: tenantUserInfoQuery,
    result: recommendInfo,
  }),
};
