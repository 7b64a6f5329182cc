// react-query for all server state. Errors go through the one response handler; a query or mutation with
// `meta: { silent: true }` shows its errors itself. 4xx answers are not retried (the answer will not change).
// The features' api/ files build their hooks on the types and the merge below (bulletproof-react's lib/react-query).
import { MutationCache, QueryCache, QueryClient, type UseMutationOptions } from "@tanstack/react-query";
import { useCallback, useRef } from "react";
import { newIdempotencyKey } from "#shared/api/client.ts";
import { ApiError } from "#shared/api/errors.ts";
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

/** A 409: the row changed since it was read (stale concurrency stamp). The global handler leaves it to the screen. */
export const isConflict = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 409;

/** The function a mutation hook runs: one call of the API (or a few), taking the mutation's variables. */
type MutationCall = (variables: never) => Promise<unknown>;
type VariablesOf<Call extends MutationCall> = Parameters<Call> extends [] ? void : Parameters<Call>[0];

/** What the caller of a mutation hook may pass (`useDeleteCurrency({ mutationConfig })`): every option but the call. */
type MutationConfig<Call extends MutationCall> = Omit<
  UseMutationOptions<Awaited<ReturnType<Call>>, Error, VariablesOf<Call>>,
  "mutationFn"
>;

/** The argument of a mutation hook: the caller's options, if any. */
export type MutationHookOptions<Call extends MutationCall> = { mutationConfig?: MutationConfig<Call> };

type Callback<A extends unknown[]> = ((...args: A) => unknown) | undefined;

/** Runs the hook's callback, then the caller's: the cache is up to date before the caller reacts. */
function both<A extends unknown[]>(own: Callback<A>, caller: Callback<A>): Callback<A> {
  if (!own || !caller) return own ?? caller;
  return async (...args: A) => {
    await own(...args);
    return caller(...args);
  };
}

/** A mutation hook's own options and its caller's mutationConfig as one: the caller's settings win, except that both
 *  callbacks run (the hook's first). */
export function withCallerConfig<TData, TVariables>(
  own: UseMutationOptions<TData, Error, TVariables>,
  caller: Omit<UseMutationOptions<TData, Error, TVariables>, "mutationFn"> = {},
): UseMutationOptions<TData, Error, TVariables> {
  return {
    ...own,
    ...caller,
    mutationFn: own.mutationFn,
    onSuccess: both(own.onSuccess, caller.onSuccess),
    onError: both(own.onError, caller.onError),
    onSettled: both(own.onSettled, caller.onSettled),
  };
}

/**
 * The mutation function of a dialog whose call takes an Idempotency-Key: one key per submitted content. Submitting the
 * same thing again after a failure (the answer lost, the server unreachable) reuses the key, so the server answers the
 * first result instead of applying the edit twice (a price ×1.1 stays ×1.1). Success, or other content, starts a new key.
 */
export function useSubmitKey<V, R>(call: (variables: V, options: { idempotencyKey: string }) => Promise<R>): (variables: V) => Promise<R> {
  const pending = useRef<{ content: string; key: string } | null>(null);
  return useCallback(
    async (variables: V) => {
      // JSON.stringify(undefined) is undefined, which would match "no pending submit": a call without input is "".
      const content = JSON.stringify(variables) ?? "";
      const submit = pending.current?.content === content ? pending.current : { content, key: newIdempotencyKey() };
      pending.current = submit;
      const result = await call(variables, { idempotencyKey: submit.key });
      if (pending.current === submit) pending.current = null;
      return result;
    },
    [call],
  );
}
