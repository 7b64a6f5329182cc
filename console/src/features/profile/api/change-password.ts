// The caller's own password change (ChangePwd: the current password and the new one).
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

export const changePassword = (body: Parameters<typeof api.user.changePwd>[0]) => api.user.changePwd(body);

export const useChangePassword = ({ mutationConfig }: MutationHookOptions<typeof changePassword> = {}) =>
  useMutation(withCallerConfig({ mutationFn: changePassword }, mutationConfig));
