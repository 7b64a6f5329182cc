// The order picker of the lists: the list's orders (a `sort` value and its Chinese name each) as a toolbar facet over
// the `sort` param, which has no "all" (some order always applies).
import type { ListFilter } from "./list-toolbar.tsx";

export function sortFilter(sorts: Record<string, string>, testId: string): ListFilter {
  return {
    kind: "facet",
    key: "sort",
    label: "排序",
    options: Object.entries(sorts).map(([value, label]) => ({ value, label })),
    className: "w-36",
    testId,
  };
}
