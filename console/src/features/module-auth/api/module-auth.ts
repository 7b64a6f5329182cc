// The authorization centre's calls (spec §7 ModuleAuth): the applications made and received, the grants in force, a
// new code, apply / re-apply / audit / revoke, and the grantor's products through a grant. Every change sends one
// Idempotency-Key per submission (useSubmitKey), so a retry after a lost answer is answered by the first one.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type UseMutationOptions } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
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
import { useSubmitKey, withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { sharedKeys } from "../../../lib/query-keys.ts";

export type ApplysQuery = InputOf<typeof getApplysQuery>;
export type AuthsQuery = InputOf<typeof getAuthsQuery>;
export type AuthProductsQuery = InputOf<typeof getAuthProductsInput>;

const moduleAuthKeys = {
  all: ["module-auth"] as const,
  applys: (q: ApplysQuery) => [...moduleAuthKeys.all, "applys", q] as const,
  auths: (q: AuthsQuery) => [...moduleAuthKeys.all, "auths", q] as const,
  products: (q: AuthProductsQuery) => [...moduleAuthKeys.all, "products", q] as const,
};

const getApplysQueryOptions = (q: ApplysQuery) =>
  queryOptions({
    queryKey: moduleAuthKeys.applys(q),
    queryFn: ({ signal }) => api.moduleAuth.getApplys(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useApplys = (q: ApplysQuery) => useQuery(getApplysQueryOptions(q));

const getAuthsQueryOptions = (q: AuthsQuery) =>
  queryOptions({
    queryKey: moduleAuthKeys.auths(q),
    queryFn: ({ signal }) => api.moduleAuth.getAuths(q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useAuths = (q: AuthsQuery) => useQuery(getAuthsQueryOptions(q));

const getAuthProductsQueryOptions = (q: AuthProductsQuery) =>
  queryOptions({
    queryKey: moduleAuthKeys.products(q),
    queryFn: ({ signal }) => api.moduleAuth.getAuthProducts(q, { signal }),
    placeholderData: keepPreviousData,
  });

/** Nothing is asked while no grant is open. */
export const useAuthProducts = (q: AuthProductsQuery | null) =>
  useQuery({ ...getAuthProductsQueryOptions(q ?? { authId: "" }), enabled: !!q });

/** Each change is sent with its submission's Idempotency-Key (useSubmitKey). `{}` for a new code: useSubmitKey keys a
 *  submission by its JSON, which `undefined` has none of. */
export const generateAuthCode = (_: Record<string, never>, options?: CallOptions) => api.moduleAuth.generateAuthCode(options);
export const applyAuth = (v: ApplyAuthInput, options?: CallOptions) => api.moduleAuth.applyAuth(v, options);
export const reApplyAuth = (v: ReApplyAuthInput, options?: CallOptions) => api.moduleAuth.reApplyAuth(v, options);
export const auditAuth = (v: AuditAuthInput, options?: CallOptions) => api.moduleAuth.auditAuth(v, options);
export const revokeAuth = (v: RevokeAuthInput, options?: CallOptions) => api.moduleAuth.revokeAuth(v, options);
export const copyAuthProducts = (v: CopyAuthProductsInput, options?: CallOptions) => api.moduleAuth.copyAuthProducts(v, options);

/** A change of the centre: the lists (and the user's cached grants, read at the next login) follow. */
function useCentreMutation<V, R>(
  call: (v: V, options?: CallOptions) => Promise<R>,
  mutationConfig?: Omit<UseMutationOptions<R, Error, V>, "mutationFn">,
) {
  const queryClient = useQueryClient();
  const mutationFn = useSubmitKey(call);
  return useMutation(
    withCallerConfig({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: moduleAuthKeys.all }) }, mutationConfig),
  );
}

export const useGenerateAuthCode = ({ mutationConfig }: MutationHookOptions<typeof generateAuthCode> = {}) =>
  useCentreMutation(generateAuthCode, mutationConfig);
export const useApplyAuth = ({ mutationConfig }: MutationHookOptions<typeof applyAuth> = {}) =>
  useCentreMutation(applyAuth, mutationConfig);
export const useReApplyAuth = ({ mutationConfig }: MutationHookOptions<typeof reApplyAuth> = {}) =>
  useCentreMutation(reApplyAuth, mutationConfig);
export const useAuditAuth = ({ mutationConfig }: MutationHookOptions<typeof auditAuth> = {}) =>
  useCentreMutation(auditAuth, mutationConfig);
export const useRevokeAuth = ({ mutationConfig }: MutationHookOptions<typeof revokeAuth> = {}) =>
  useCentreMutation(revokeAuth, mutationConfig);

/** Copies into the caller's own products: the product queries (the shared products root) follow too. */
export function useCopyAuthProducts({ mutationConfig }: MutationHookOptions<typeof copyAuthProducts> = {}) {
  const queryClient = useQueryClient();
  const mutationFn = useSubmitKey(copyAuthProducts);
  return useMutation(
    withCallerConfig({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: sharedKeys.products }) }, mutationConfig),
  );
}
