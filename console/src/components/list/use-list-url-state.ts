// A list screen's filters, sorting and paging kept in the URL's search params, read through a zod schema whose keys are
// the param names and whose fields fall back to their defaults (url-params.ts). Defaults are left out of the URL, so a
// plain visit keeps a clean address; changing anything but the page goes back to page 1 (the page follows the total
// when it shrinks: use-keep-page-in-range.ts).
import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import type { z } from "zod";

/** A list's URL schema: its filters plus `page` and `size` (and `sort` when it has orders). */
export type ListSchema = z.ZodObject<{ page: z.ZodType<number>; size: z.ZodType<number> }>;
export type ListState<S extends ListSchema> = z.output<S>;

type SetSearchParams = (change: (prev: URLSearchParams) => URLSearchParams) => void;
/** Where a list's search params live: the route's own (useReplaceSearchParams) or a cached tab's (useTabSearchParams). */
export type SearchParamsSource = readonly [URLSearchParams, SetSearchParams];

/** Keys that order or page the list rather than filter it. */
const NOT_FILTERS = new Set(["page", "size", "sort"]);

const keysOf = (schema: ListSchema) => Object.keys(schema.shape);
const asText = (value: unknown) => String(value ?? "").trim();

export function readListState<S extends ListSchema>(schema: S, params: URLSearchParams): ListState<S> {
  const raw: Record<string, string> = {};
  for (const key of keysOf(schema)) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  return schema.parse(raw);
}

export const defaultListState = <S extends ListSchema>(schema: S): ListState<S> => schema.parse({});

/** The state written onto a copy of the params (others are kept); each value goes through the schema first, so the URL
 *  holds exactly what reading it gives back, and a value equal to its default is left out. */
export function writeListState<S extends ListSchema>(schema: S, params: URLSearchParams, state: ListState<S>): URLSearchParams {
  const next = new URLSearchParams(params);
  const defaults = defaultListState(schema) as Record<string, unknown>;
  const shape = schema.shape as Record<string, z.ZodType>;
  for (const key of keysOf(schema)) {
    const value = asText(shape[key].parse(asText((state as Record<string, unknown>)[key])));
    if (value === "" || value === asText(defaults[key])) next.delete(key);
    else next.set(key, value);
  }
  return next;
}

/** A change merged into the state: any change that does not name the page goes back to page 1. */
export function changeListState<T extends { page: number }>(current: T, change: Partial<T>): T {
  const page = change.page ?? (Object.keys(change).length ? 1 : current.page);
  return { ...current, ...change, page };
}

/** The filters of a state: everything but paging and sorting. */
function filtersOf<S extends ListSchema>(schema: S, state: ListState<S>): Record<string, unknown> {
  return Object.fromEntries(keysOf(schema).flatMap((k) => (NOT_FILTERS.has(k) ? [] : [[k, (state as Record<string, unknown>)[k]]])));
}

/** Whether any filter differs from its default. */
export function hasListFilter<S extends ListSchema>(schema: S, state: ListState<S>): boolean {
  const defaults = filtersOf(schema, defaultListState(schema));
  return Object.entries(filtersOf(schema, state)).some(([k, v]) => asText(v) !== asText(defaults[k]));
}

/** The route's own search params; changes replace the history entry (filtering is not navigation). */
export function useReplaceSearchParams(): SearchParamsSource {
  const [params, setParams] = useSearchParams();
  const set = useCallback<SetSearchParams>((change) => setParams((prev) => change(prev), { replace: true }), [setParams]);
  return [params, set];
}

export function useListUrlState<S extends ListSchema>(schema: S, [params, setParams]: SearchParamsSource) {
  const state = useMemo(() => readListState(schema, params), [schema, params]);
  const update = useCallback(
    (change: Partial<ListState<S>>) =>
      setParams((prev) => writeListState(schema, prev, changeListState(readListState(schema, prev), change))),
    [schema, setParams],
  );
  /** Clears every filter and the order; keeps the page size. */
  const reset = useCallback(
    () => setParams((prev) => writeListState(schema, prev, { ...defaultListState(schema), size: readListState(schema, prev).size })),
    [schema, setParams],
  );
  const setPage = useCallback((page: number) => update({ page } as Partial<ListState<S>>), [update]);
  /** The table pager's change: a new page size starts again at page 1. */
  const onPageChange = useCallback(
    (page: number, size: number) => update((size === state.size ? { page } : { page: 1, size }) as Partial<ListState<S>>),
    [update, state.size],
  );
  const filterKey = JSON.stringify(filtersOf(schema, state));
  const filtered = hasListFilter(schema, state);
  /** ListToolbar's wiring (`<ListToolbar filters={…} {...listState.toolbar} />`): the values, a change, and the reset
   *  while a filter is set. */
  const toolbar = { state, onChange: update, onReset: reset, canReset: filtered };
  return { state, update, setPage, reset, onPageChange, filterKey, filtered, toolbar };
}
