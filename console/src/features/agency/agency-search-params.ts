// /finance/agency/list's URL state: which list (recommended tenants or commissions), its search, filters and paging.
import { z } from "zod";
import { ALL, choiceParam, dateParam, pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";
import { localDayRange } from "../../lib/format.ts";
import type { AgencyTransactionsQuery, InviteRecordsQuery } from "./api/agency.ts";

export const AGENCY_PAGE_SIZES = [20, 50, 100];
const AGENCY_TABS = ["invites", "commissions"] as const;
export type AgencyTab = (typeof AGENCY_TABS)[number];

export const agencyListSchema = z.object({
  tab: z.enum(AGENCY_TABS).catch("invites"),
  q: textParam(64),
  /** Recommended tenants: enabled or disabled. */
  active: choiceParam(["true", "false"]),
  from: dateParam(),
  to: dateParam(),
  page: pageParam(),
  size: pageSizeParam(AGENCY_PAGE_SIZES, 20),
});
export type AgencyListState = z.output<typeof agencyListSchema>;

const pageOf = (s: { page: number; size: number }) => ({ SkipCount: (s.page - 1) * s.size, MaxResultCount: s.size });
const search = (s: AgencyListState) => (s.q.trim() ? { Search: s.q.trim() } : {});

export const toInvitesQuery = (s: AgencyListState): InviteRecordsQuery => ({
  ...search(s),
  ...(s.active !== ALL ? { IsActive: s.active === "true" } : {}),
  ...pageOf(s),
});

export function toTransactionsQuery(s: AgencyListState): AgencyTransactionsQuery {
  const { from, to } = localDayRange(s.from, s.to);
  return { ...search(s), ...(from ? { StartDate: from } : {}), ...(to ? { EndDate: to } : {}), ...pageOf(s) };
}
