// 清除数据 (ClearSubAccountInfo): a background task that deletes a sub-account's data; the screen follows it in the
// task centre until it has finished (lib/task-queries.ts).
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";

export const clearSubUserInfo = (id: string) => api.user.clearSubAccountInfo({ id });

export const useClearSubUserInfo = ({ mutationConfig }: MutationHookOptions<typeof clearSubUserInfo> = {}) =>
  useMutation(withCallerConfig({ mutationFn: clearSubUserInfo }, mutationConfig));
