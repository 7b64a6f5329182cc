// The label picker of the lists: the product labels (with how many products carry each) as a toolbar facet over the
// `label` param.
import type { ListFilter } from "./list-toolbar.tsx";

export type LabelOption = { id: string; name: string; count: number };

/** Labels still loading show only the "all" choice. */
export function labelFilter(labels: LabelOption[] | undefined, view: { label: string; all: string; testId: string }): ListFilter {
  return { kind: "facet", key: "label", ...view, options: (labels ?? []).map((l) => ({ value: l.id, label: `${l.name}（${l.count}）` })) };
}
