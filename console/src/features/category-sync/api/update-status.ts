// Enabling or disabling categories for the sellers' picker (UpdateAllCategoryStatus): one category with its subtree, or
// every category of a site, which the server takes only with an explicit `all: true` (issue 29) and the page confirms
// first (allStatusConfirm).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ConfirmOptions } from "#shared/ui/confirm.tsx";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { categorySyncKeys } from "./get-sync-status.ts";

export type CategoryStatusChange = { site: number; enable: boolean } & ({ cateId: string } | { all: true });

/** The request of a change: the category's id, or `all: true` for the whole site (never an empty id list). */
export const statusBody = (change: CategoryStatusChange) =>
  "cateId" in change ? { enable: change.enable, cateIds: [change.cateId] } : { enable: change.enable, all: true };

export const updateCategoryStatus = (change: CategoryStatusChange) =>
  api.meliCategory.updateAllCategoryStatus({ site: change.site }, statusBody(change));

/** What the host confirms before the whole site's categories change. */
export function allStatusConfirm(siteName: string, enable: boolean): ConfirmOptions {
  return enable
    ? {
        title: `确认启用${siteName}的全部类目吗？`,
        description: "卖家刊登时可以选择该站点的所有类目。",
        confirmText: "全部启用",
        tone: "warning",
      }
    : {
        title: `确认停用${siteName}的全部类目吗？`,
        description: "停用后卖家刊登时无法选择该站点的任何类目（已有商品和刊登不受影响），需要时可再全部启用。",
        confirmText: "全部停用",
        tone: "danger",
      };
}

export function useUpdateCategoryStatus({ mutationConfig }: MutationHookOptions<typeof updateCategoryStatus> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      {
        mutationFn: updateCategoryStatus,
        onSuccess: () => queryClient.invalidateQueries({ queryKey: categorySyncKeys.all }),
      },
      mutationConfig,
    ),
  );
}
