// The authorization centre's URL state: /module-auth/auth (which list: grants held or applications received, a status
// filter on the received ones) and /module-auth/apply (the caller's applications, a status filter), each with paging.
import { z } from "zod";
import { AuthDirection } from "#shared/contract/module-auth.ts";
import { ModuleAuthStatus } from "#shared/contract/enums.ts";
import { ALL, choiceParam, pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";
import type { ApplysQuery, AuthsQuery } from "./api/module-auth.ts";

export const AUTH_PAGE_SIZES = [20, 50, 100];
const AUTH_TABS = ["held", "given"] as const;
export type AuthTab = (typeof AUTH_TABS)[number];
const statuses = Object.values(ModuleAuthStatus).map(String);

export const authListSchema = z.object({
  tab: z.enum(AUTH_TABS).catch("held"),
  q: textParam(64),
  status: choiceParam(statuses),
  page: pageParam(),
  size: pageSizeParam(AUTH_PAGE_SIZES, 20),
});
export type AuthListState = z.output<typeof authListSchema>;

export const applyListSchema = z.object({
  q: textParam(64),
  status: choiceParam(statuses),
  page: pageParam(),
  size: pageSizeParam(AUTH_PAGE_SIZES, 20),
});
export type ApplyListState = z.output<typeof applyListSchema>;

const pageOf = (s: { page: number; size: number }) => ({ SkipCount: (s.page - 1) * s.size, MaxResultCount: s.size });
const filters = (s: { q: string; status: string }) => ({
  ...(s.q.trim() ? { Search: s.q.trim() } : {}),
  ...(s.status !== ALL ? { AuditStatus: Number(s.status) } : {}),
});

/** The grants the company holds (tab held). */
export const toHeldQuery = (s: AuthListState): AuthsQuery => ({ Type: AuthDirection.Made, ...pageOf(s) });
/** The applications made to the company, any status (tab given). */
export const toReceivedQuery = (s: AuthListState): ApplysQuery => ({ Type: AuthDirection.Received, ...filters(s), ...pageOf(s) });
/** The company's own applications. */
export const toMadeQuery = (s: ApplyListState): ApplysQuery => ({ Type: AuthDirection.Made, ...filters(s), ...pageOf(s) });
