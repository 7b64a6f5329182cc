// Creating, editing, enabling and resetting the password of sub-accounts; every change reloads the sub-account
// queries. A 409 on a stale edit is the dialog's to explain (the global handler leaves it).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateSubUserInput, UpdateUserInput } from "#shared/contract/users.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { subUserKeys } from "./get-sub-users.ts";

export const createSubUser = (body: CreateSubUserInput) => api.user.createSubUser(body);
export const updateSubUser = (body: UpdateUserInput) => api.user.updateUser(body);
export const setSubUserEnabled = (v: { userId: string; enable: boolean }) => api.user.enabled(v);

/** ResetPwd needs a single-use token from GetResetPwdToken first; both run as one action. */
export async function resetSubUserPassword(v: { userId: string; newPwd: string }): Promise<void> {
  const { token } = await api.user.getResetPwdToken({ userId: v.userId });
  await api.user.resetPwd({ token, newPwd: v.newPwd });
}

function useInvalidateSubUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: subUserKeys.all });
}

export function useCreateSubUser({ mutationConfig }: MutationHookOptions<typeof createSubUser> = {}) {
  const invalidate = useInvalidateSubUsers();
  return useMutation(withCallerConfig({ mutationFn: createSubUser, onSuccess: () => invalidate() }, mutationConfig));
}

export function useUpdateSubUser({ mutationConfig }: MutationHookOptions<typeof updateSubUser> = {}) {
  const invalidate = useInvalidateSubUsers();
  // Reloaded after a 409 too: the list shows what is there now.
  return useMutation(withCallerConfig({ mutationFn: updateSubUser, onSettled: () => invalidate() }, mutationConfig));
}

export function useSetSubUserEnabled({ mutationConfig }: MutationHookOptions<typeof setSubUserEnabled> = {}) {
  const invalidate = useInvalidateSubUsers();
  return useMutation(withCallerConfig({ mutationFn: setSubUserEnabled, onSettled: () => invalidate() }, mutationConfig));
}

export const useResetSubUserPassword = ({ mutationConfig }: MutationHookOptions<typeof resetSubUserPassword> = {}) =>
  useMutation(withCallerConfig({ mutationFn: resetSubUserPassword }, mutationConfig));
