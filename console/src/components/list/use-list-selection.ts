// The rows chosen on a list: ids ticked row by row (kept across pages), or every row matching the filter. A new filter
// starts a new selection, so a bulk action never reaches rows the user no longer sees.
import { useState } from "react";
import type { DataTableSelection } from "#shared/ui/data-table.tsx";

export function useListSelection(filterKey: string) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [allMatching, setAllMatching] = useState(false);
  const [forFilter, setForFilter] = useState(filterKey);
  // Reset while rendering (not in an effect), so no frame shows the old selection under the new filter.
  if (forFilter !== filterKey) {
    setForFilter(filterKey);
    setSelected(new Set());
    setAllMatching(false);
  }

  const clear = () => {
    setSelected(new Set());
    setAllMatching(false);
  };
  /** Drops one row (e.g. after deleting it). */
  const deselect = (id: string) =>
    setSelected((s) => {
      if (!s.has(id)) return s;
      const next = new Set(s);
      next.delete(id);
      return next;
    });
  /** The table's checkboxes: every row shows as chosen while all matching rows are; unticking one goes back to
   *  choosing row by row. */
  const table = (rowIds: string[]): DataTableSelection => ({
    selected: allMatching ? new Set(rowIds) : selected,
    onChange: (next) => {
      setAllMatching(false);
      setSelected(next);
    },
  });
  /** How many rows a bulk action reaches. */
  const count = (total: number) => (allMatching ? total : selected.size);

  return { selected, allMatching, selectAllMatching: () => setAllMatching(true), clear, deselect, table, count, setSelected };
}
