// The authorization centre's calls (spec §7 ModuleAuth): the applications made and received, the grants in force, a
// new code, apply / re-apply / audit / revoke, and the grantor's products through a grant. Every change sends one
// Idempotency-Key per submission (useSubmitKey), so a retry after a lost answer is answered by the first one.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InputOf } from "#shared/api/define.ts";
import type {
  ApplyAuthInput,
  AuditAuthInput,
  CopyAuthProductsInput,
  getApplysQuery,
  getAuthProductsInput,
  getAuthsQuery,
  ReApplyAuthInput,
  RevokeAuthInput,
} from "#shared/contract/module-auth.ts";
import { api } from "../../../lib/feature-api.ts";
import { useSubmitKey } from "../../../lib/query-client.ts";

export type ApplysQuery = InputOf<typeof getApplysQuery>;
export type AuthsQuery = InputOf<typeof getAuthsQuery>;
export type AuthProductsQuery = InputOf<typeof getAuthProductsInput>;

export const moduleAuthKeys = {
  all: ["module-auth"] as const,
  applys: (q: ApplysQuery) => [...moduleAuthKeys.all, "applys", q] as const,
  auths: (q: AuthsQuery) => [...moduleAuthKeys.all, "auths", q] as const,
  products: (q: AuthProductsQuery) => [...moduleAuthKeys.all, "products", q] as const,
};

export const useApplys = (q: ApplysQuery) =>
  useQuery({
    queryKey: moduleAuthKeys.applys(q),
    queryFn: ({ signal }) => api.moduleAuth.getApplys(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useAuths = (q: AuthsQuery) =>
  useQuery({
    queryKey: moduleAuthKeys.auths(q),
    queryFn: ({ signal }) => api.moduleAuth.getAuths(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useAuthProducts = (q: AuthProductsQuery | null) =>
  useQuery({
    queryKey: moduleAuthKeys.products(q ?? { authId: "" }),
    queryFn: ({ signal }) => api.moduleAuth.getAuthProducts(q!, { signal }),
    enabled: !!q,
    placeholderData: keepPreviousData,
  });

/** A change of the centre: the lists (and the user's cached grants, read at the next login) follow. */
function useCentreMutation<V, R>(call: (v: V, o: { idempotencyKey: string }) => Promise<R>) {
  const queryClient = useQueryClient();
  const run = useSubmitKey(call);
  return useMutation({ mutationFn: run, onSettled: () => queryClient.invalidateQueries({ queryKey: moduleAuthKeys.all }) });
}

/** Takes `{}` (useSubmitKey keys a submission by its JSON, which `undefined` has none of). */
export const useGenerateAuthCode = () => useCentreMutation((_: Record<string, never>, o) => api.moduleAuth.generateAuthCode(o));
export const useApplyAuth = () => useCentreMutation((v: ApplyAuthInput, o) => api.moduleAuth.applyAuth(v, o));
export const useReApplyAuth = () => useCentreMutation((v: ReApplyAuthInput, o) => api.moduleAuth.reApplyAuth(v, o));
export const useAuditAuth = () => useCentreMutation((v: AuditAuthInput, o) => api.moduleAuth.auditAuth(v, o));
export const useRevokeAuth = () => useCentreMutation((v: RevokeAuthInput, o) => api.moduleAuth.revokeAuth(v, o));

/** Copies into the caller's own products: the product list's queries (key "products") follow too. */
export function useCopyAuthProducts() {
  const queryClient = useQueryClient();
  const run = useSubmitKey((v: CopyAuthProductsInput, o: { idempotencyKey: string }) => api.moduleAuth.copyAuthProducts(v, o));
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === "products" }),
  });
}
