// react-query for all server state. Errors go through the one response handler; a query or mutation with
// `meta: { silent: true }` shows its errors itself. 4xx answers are not retried (the answer will not change).
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError } from "@shared/api/errors.ts";
import { handleServerError } from "./response-handler.ts";

const retry = (count: number, error: unknown) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => void (query.meta?.silent ? null : handleServerError(error)) }),
  mutationCache: new MutationCache({
    onError: (error, _v, _c, mutation) => void (mutation.meta?.silent ? null : handleServerError(error)),
  }),
  defaultOptions: {
    queries: { retry, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
