// Server state of the sub-account screen: query keys per entity and the react-query hooks over api.user / api.tasks.
// Errors are shown by the query client's global handler; only a 409 (stale edit) is left to the screen.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "@shared/api/errors.ts";
import { TaskType } from "@shared/contract/enums.ts";
import type { CreateSubUserInput, UpdateUserInput } from "@shared/contract/users.ts";
import { api } from "../../lib/api.ts";
import { TASK_POLL_MS, isTaskFinished, taskState } from "./task-status.ts";

export type SubUserListQuery = { Search?: string; IsActive?: boolean; SkipCount: number; MaxResultCount: number };
export type SubUserStatsQuery = { StartDate?: string; EndDate?: string };

export const subUserKeys = {
  all: ["sub-users"] as const,
  lists: () => [...subUserKeys.all, "list"] as const,
  list: (q: SubUserListQuery) => [...subUserKeys.lists(), q] as const,
  details: () => [...subUserKeys.all, "detail"] as const,
  detail: (id: string) => [...subUserKeys.details(), id] as const,
  stats: (q: SubUserStatsQuery) => [...subUserKeys.all, "stats", q] as const,
};

export const clearTaskKeys = {
  all: ["tasks", "clear-sub-account-info"] as const,
  detail: (taskId: string) => [...clearTaskKeys.all, taskId] as const,
};

export const isConflict = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 409;

export function useSubUsers(q: SubUserListQuery) {
  return useQuery({
    queryKey: subUserKeys.list(q),
    queryFn: () => api.user.getSubUsers(q),
    placeholderData: keepPreviousData,
  });
}

/** One sub-account, fresh from the server (the edit dialog needs the current concurrency stamp). */
export function useSubUser(id: string | null) {
  return useQuery({
    queryKey: subUserKeys.detail(id ?? ""),
    queryFn: () => api.user.getSubUserById({ id: id! }),
    enabled: !!id,
    staleTime: 0,
  });
}

export function useSubUserStats(q: SubUserStatsQuery) {
  return useQuery({
    queryKey: subUserKeys.stats(q),
    queryFn: () => api.user.getSubUserStaticInfo(q),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateSubUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: subUserKeys.all });
}

export function useCreateSubUser() {
  const invalidate = useInvalidateSubUsers();
  return useMutation({
    mutationFn: (body: CreateSubUserInput) => api.user.createSubUser(body),
    onSuccess: () => invalidate(),
  });
}

export function useUpdateSubUser() {
  const invalidate = useInvalidateSubUsers();
  return useMutation({
    mutationFn: (body: UpdateUserInput) => api.user.updateUser(body),
    // A 409 is the dialog's to explain (the global handler leaves it); the list is reloaded either way.
    onSettled: () => invalidate(),
  });
}

export function useSetSubUserEnabled() {
  const invalidate = useInvalidateSubUsers();
  return useMutation({
    mutationFn: (v: { userId: string; enable: boolean }) => api.user.enabled(v),
    onSettled: () => invalidate(),
  });
}

/** ResetPwd needs a single-use token from GetResetPwdToken first; both run as one action. */
export function useResetSubUserPassword() {
  return useMutation({
    mutationFn: async (v: { userId: string; newPwd: string }) => {
      const { token } = await api.user.getResetPwdToken({ userId: v.userId });
      await api.user.resetPwd({ token, newPwd: v.newPwd });
    },
  });
}

export function useClearSubUserInfo() {
  return useMutation({
    mutationFn: (id: string) => api.user.clearSubAccountInfo({ id }),
  });
}

/** Polls the task centre for one ClearSubAccountInfo task until it has finished. */
export function useClearTask(taskId: string) {
  return useQuery({
    queryKey: clearTaskKeys.detail(taskId),
    queryFn: async () => {
      const page = await api.tasks.getTaskInfoByPage({
        TaskType: TaskType.ClearSubAccountInfo,
        Sorting: "creationTime desc",
        SkipCount: 0,
        MaxResultCount: 50,
      });
      return page.items.find((t) => t.id === taskId) ?? null;
    },
    staleTime: 0,
    refetchInterval: (query) => (isTaskFinished(taskState(query.state.data?.taskStatus)) ? false : TASK_POLL_MS),
  });
}
