// Agency calls and the host's recommend set, declared in shared/api/agency.ts.
import type { Registrar } from "../../http/calls.ts";
import { agencyCalls as calls, hostedAgencyCalls as hostedCalls } from "#shared/api/agency.ts";
import type { AgencyService } from "./service.ts";

export function registerAgency(r: Registrar, { agency }: { agency: AgencyService }) {
  r.handle(calls.getInviteRecords, { handler: (ctx, { query }) => agency.getInviteRecords(ctx, query) });
  r.handle(calls.editRemark, { handler: (ctx, { body }) => agency.editRemark(ctx, body) });
  r.handle(calls.getAgencyTransactionRecord, { handler: (ctx, { query }) => agency.getAgencyTransactionRecord(ctx, query) });
  r.handle(hostedCalls.setRecommendTenant, { handler: (ctx, { body }) => agency.setRecommend(ctx, body) });
  r.handle(hostedCalls.getRecommendInfo, { handler: (ctx, { query }) => agency.getRecommendInfo(ctx, query.TenantId) });
}
