// Moving and copying between tenants (issue 31): a tenant's shop groups (GetTenantMeliAccountInfo) moved with
// MigrateAccount or removed with RemoveMeliAccount, its products, collections, label groups and infringement words
// copied to another tenant, and chosen products copied to one tenant (MigrateToProduct) or several (MigrateFromProduct).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { tenantKeys } from "./get-tenants.ts";

const transferKeys = {
  shopGroups: (tenantId: string) => ["hosted", "tenant-shop-groups", tenantId] as const,
};

/** Read fresh each time the migrate dialog opens (what moves with a group changes). */
const getTenantShopGroupsQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: transferKeys.shopGroups(tenantId),
    queryFn: () => api.hostedTransfer.getTenantMeliAccountInfo({ tenantId }),
    staleTime: 0,
  });

export const useTenantShopGroups = (tenantId: string | null) =>
  useQuery({ ...getTenantShopGroupsQueryOptions(tenantId ?? ""), enabled: !!tenantId });

type MigrateAccountBody = Parameters<typeof api.hostedTransfer.migrateAccount>[0];
type RemoveShopsBody = Parameters<typeof api.hostedTransfer.removeMeliAccount>[0];

/** What a copy takes: the two tenants, and for products and collections whether the source keeps its own. */
export type CopyKind = "products" | "collects" | "groups" | "words";
type CopyInput = { kind: CopyKind; srcTenantId: string; destTenantId: string; isDeleteSrc: boolean };

/** Answers a task to follow, or (words, done at once) how many were added and skipped. */
async function copyToTenant(v: CopyInput) {
  const pair = { srcTenantId: v.srcTenantId, destTenantId: v.destTenantId };
  switch (v.kind) {
    case "products":
      return { task: await api.hostedTransfer.copyProductsToTenant({ ...pair, isDeleteSrc: v.isDeleteSrc }) };
    case "collects":
      return { task: await api.hostedTransfer.copyCollectsToTenant({ ...pair, isDeleteSrc: v.isDeleteSrc }) };
    case "groups":
      return { task: await api.hostedTransfer.copyGroupsToTenant(pair) };
    case "words":
      return { words: await api.hostedTransfer.migrateWord(pair) };
  }
}

function useInvalidateAfter() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: tenantKeys.all });
}

/** Moves shop groups (a task). */
export function useMigrateAccount() {
  const invalidate = useInvalidateAfter();
  return useMutation({ mutationFn: (body: MigrateAccountBody) => api.hostedTransfer.migrateAccount(body), onSuccess: invalidate });
}

export function useCopyToTenant() {
  const invalidate = useInvalidateAfter();
  return useMutation({ mutationFn: copyToTenant, onSuccess: invalidate });
}

/** Removes shop groups with their shops and listings (a task). */
export function useRemoveMeliAccount() {
  const invalidate = useInvalidateAfter();
  return useMutation({ mutationFn: (body: RemoveShopsBody) => api.hostedTransfer.removeMeliAccount(body), onSuccess: invalidate });
}

/** Chosen products of one tenant: to one destination MigrateToProduct (which can also move them), to several MigrateFromProduct. */
type ProductsInput = {
  srcTenantId: string;
  destTenantIds: string[];
  productIds: string[];
  destUserId: string | null;
  isDeleteSrc: boolean;
};

function transferProducts(v: ProductsInput) {
  if (v.destTenantIds.length === 1)
    return api.productTransfer.migrateToProduct({
      srcTenantId: v.srcTenantId,
      destTenantId: v.destTenantIds[0],
      productIds: v.productIds,
      destUserId: v.destUserId,
      isDeleteSrc: v.isDeleteSrc,
    });
  return api.productTransfer.migrateFromProduct({ SrcTenantId: v.srcTenantId, TenantIds: v.destTenantIds, ProductIds: v.productIds });
}

export function useTransferProducts() {
  const invalidate = useInvalidateAfter();
  return useMutation({ mutationFn: transferProducts, onSuccess: invalidate });
}
