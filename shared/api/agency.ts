// Agency calls (issue 19; spec §7 Agency; contract/agency.ts): the tenants an agency recommended, its remark on each and
// its commissions; and the host's recommend set (Hosted SetRecommendTenant / GetRecommendInfo, ours).
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
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const agencyCalls = {
  getInviteRecords: call({ method: "GET", path: "/api/Agency/GetInviteRecords", query: getInviteRecordsQuery, result: inviteRecordPage }),
  editRemark: call({ method: "POST", path: "/api/Agency/EditRemark", body: editAgencyRemarkInput }),
  getAgencyTransactionRecord: call({
    method: "GET",
    path: "/api/Agency/GetAgencyTransactionRecord",
    query: getAgencyTransactionRecordQuery,
    result: agencyTransactionPage,
  }),
};

export const hostedAgencyCalls = {
  /** Host only. */
  setRecommendTenant: call({ method: "POST", path: "/api/Hosted/SetRecommendTenant", body: setRecommendInput, result: recommendInfo }),
  /** Host only. */
  getRecommendInfo: call({ method: "GET", path: "/api/Hosted/GetRecommendInfo", query: tenantUserInfoQuery, result: recommendInfo }),
};

export const createAgencyApi = (client: ApiClient) => bindCalls(client, agencyCalls);
export type AgencyApi = ReturnType<typeof createAgencyApi>;
export const createHostedAgencyApi = (client: ApiClient) => bindCalls(client, hostedAgencyCalls);
export type HostedAgencyApi = ReturnType<typeof createHostedAgencyApi>;
