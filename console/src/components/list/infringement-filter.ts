// The infringement picker of the collection and product lists: a toolbar facet over the `infr` param
// (url-params.ts infringementParam): whether a title holds an infringement word.
import type { ListFilter } from "./list-toolbar.tsx";

export function infringementFilter(testId: string, className?: string): ListFilter {
  return {
    kind: "facet",
    key: "infr",
    label: "侵权词",
    all: "侵权词：全部",
    options: [
      { value: "yes", label: "含侵权词" },
      { value: "no", label: "不含侵权词" },
    ],
    className,
    testId,
  };
}
