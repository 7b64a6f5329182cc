// The profile screen's reads: the account summary (GetMyInfo) and the editable profile (my-profile, with the
// concurrency stamp its save sends back).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export const profileKeys = {
  all: ["profile"] as const,
  myInfo: () => [...profileKeys.all, "my-info"] as const,
  myProfile: () => [...profileKeys.all, "my-profile"] as const,
};

const getMyInfoQueryOptions = () =>
  queryOptions({ queryKey: profileKeys.myInfo(), queryFn: ({ signal }) => api.user.getMyInfo({ signal }) });

export const getMyProfileQueryOptions = () =>
  queryOptions({ queryKey: profileKeys.myProfile(), queryFn: ({ signal }) => api.account.getMyProfile({ signal }), staleTime: 0 });

export const useMyInfo = () => useQuery(getMyInfoQueryOptions());

export const useMyProfile = () => useQuery(getMyProfileQueryOptions());
