// What the screens before login may know of the host's settings (GetPublicSettings, anonymous): whether a new company
// may sign itself up. Through sessionApi, as the login route loads no other area's calls.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { sessionApi } from "../../../lib/api.ts";
import { sharedKeys } from "../../../lib/query-keys.ts";

/** Under the console's shared settings root: a change on 系统配置 refreshes it too. */
export const publicSettingsKeys = {
  all: sharedKeys.settings,
  public: () => [...publicSettingsKeys.all, "public"] as const,
};

const getPublicSettingsQueryOptions = () =>
  queryOptions({
    queryKey: publicSettingsKeys.public(),
    queryFn: ({ signal }) => sessionApi.settings.getPublicSettings({ signal }),
    staleTime: 0,
    // Unanswered, the login screen just offers no 注册 link; the register screen says so itself.
    meta: { silent: true },
  });

export const usePublicSettings = () => useQuery(getPublicSettingsQueryOptions());
