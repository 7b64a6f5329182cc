// A tenant on its own database (issue 31): where its data lives (GetDefaultConnectionString: shared, moving, active,
// returning, the connection string masked), moving it to its own PostgreSQL database (UpdateDefaultConnectionString)
// and back (DeleteDefaultConnectionString). Both moves answer a host task the page follows. The state is read under
// tenantKeys.all, so the task dialog's reload when the task ends refreshes it too.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CallOptions } from "#shared/api/client.ts";
import { api } from "../../../lib/feature-api.ts";
import { useSubmitKey } from "../../../lib/query-client.ts";
import { tenantKeys } from "./get-tenants.ts";

const databaseKey = (tenantId: string) => [...tenantKeys.all, "database", tenantId] as const;

const getTenantDatabaseQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: databaseKey(tenantId),
    queryFn: ({ signal }) => api.tenancy.getDefaultConnectionString({ id: tenantId }, { signal }),
    staleTime: 0,
  });

/** Read fresh each time the dialog opens. */
export const useTenantDatabase = (tenantId: string | null) =>
  useQuery({ ...getTenantDatabaseQueryOptions(tenantId ?? ""), enabled: !!tenantId });

type MoveInput = { tenantId: string; connectionString: string };

const moveToOwn = (v: MoveInput, options?: CallOptions) =>
  api.tenancy.updateDefaultConnectionString({ id: v.tenantId, defaultConnectionString: v.connectionString }, options);

function useInvalidate() {
  const queryClient = useQueryClient();
  return (tenantId: string) => void queryClient.invalidateQueries({ queryKey: databaseKey(tenantId) });
}

/** Silent: the dialog shows the server's refusal itself (PGlite, an unreachable or shared database, a failed migration).
 *  The same string submitted again after a lost answer reuses its Idempotency-Key. */
export function useMoveToOwnDatabase() {
  const invalidate = useInvalidate();
  const mutationFn = useSubmitKey(moveToOwn);
  return useMutation({ mutationFn, onSettled: (_r, _e, v) => invalidate(v.tenantId), meta: { silent: true } });
}

/** Silent, as useMoveToOwnDatabase. */
export function useMoveToSharedDatabase() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (tenantId: string) => api.tenancy.deleteDefaultConnectionString({ id: tenantId }),
    onSettled: (_r, _e, tenantId) => invalidate(tenantId),
    meta: { silent: true },
  });
}
