// Saving the profile: the answer (with its new stamp) replaces the cached one, and the header's name follows.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { useUserStore } from "../../../stores/user.ts";
import { getMyProfileQueryOptions, profileKeys } from "./get-profile.ts";

export const updateMyProfile = (body: Parameters<typeof api.account.updateMyProfile>[0]) => api.account.updateMyProfile(body);

export function useUpdateMyProfile({ mutationConfig }: MutationHookOptions<typeof updateMyProfile> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig(
      {
        mutationFn: updateMyProfile,
        onSuccess: (saved) => {
          queryClient.setQueryData(getMyProfileQueryOptions().queryKey, saved);
          void queryClient.invalidateQueries({ queryKey: profileKeys.myInfo() });
          void api.user
            .getUserInfo()
            .then((info) => useUserStore.getState().setUserInfo(info))
            .catch(() => undefined);
        },
      },
      mutationConfig,
    ),
  );
}
