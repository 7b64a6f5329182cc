// The host's sandbox page: what the built-in sandbox holds (GetSandbox), read again every few seconds so orders that
// appear by themselves show.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";

export const sandboxKeys = { all: ["meli-sandbox"] as const };

const getSandboxQueryOptions = () =>
  queryOptions({ queryKey: sandboxKeys.all, queryFn: ({ signal }) => api.meliSandbox.getSandbox({ signal }), refetchInterval: 5000 });

export const useSandbox = () => useQuery(getSandboxQueryOptions());
