// Server state of the profile screen: the account summary (GetMyInfo), the editable profile (my-profile, with its
// concurrency stamp) and the password change.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "@shared/api/errors.ts";
import type { Profile } from "@shared/contract/account.ts";
import { api } from "../../lib/api.ts";
import { useUserStore } from "../../stores/user.ts";

type UpdateProfileBody = Parameters<typeof api.account.updateMyProfile>[0];
type ChangePwdBody = Parameters<typeof api.user.changePwd>[0];

export const profileKeys = {
  all: ["profile"] as const,
  myInfo: () => [...profileKeys.all, "my-info"] as const,
  myProfile: () => [...profileKeys.all, "my-profile"] as const,
};

/** A 409: the profile changed since it was read (stale concurrency stamp). */
export const isConflict = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 409;

export function useMyInfo() {
  return useQuery({ queryKey: profileKeys.myInfo(), queryFn: () => api.user.getMyInfo() });
}

export function useMyProfile() {
  return useQuery({ queryKey: profileKeys.myProfile(), queryFn: () => api.account.getMyProfile(), staleTime: 0 });
}

/** Saves the profile; the answer (with its new stamp) replaces the cached one, and the header's name follows. */
export function useUpdateMyProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileBody) => api.account.updateMyProfile(body),
    onSuccess: (saved: Profile) => {
      queryClient.setQueryData(profileKeys.myProfile(), saved);
      void queryClient.invalidateQueries({ queryKey: profileKeys.myInfo() });
      void api.user
        .getUserInfo()
        .then((info) => useUserStore.getState().setUserInfo(info))
        .catch(() => undefined);
    },
  });
}

export function useChangePassword() {
  return useMutation({ mutationFn: (body: ChangePwdBody) => api.user.changePwd(body) });
}
