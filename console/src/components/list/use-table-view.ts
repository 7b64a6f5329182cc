// A list's view (row density, hidden columns, column order) remembered per user in this browser's local storage,
// under `table-view:<user id>:<table>`: a seller's choice follows them across reloads and stays theirs on a shared
// computer.
import { useState } from "react";
import { tableViewSchema, type TableView } from "#shared/ui/data-table-view.tsx";
import { useUserStore } from "../../stores/user.ts";

export const tableViewKey = (userId: string, tableId: string) => `table-view:${userId}:${tableId}`;

function readView(key: string, defaults: TableView): TableView {
  try {
    const raw = localStorage.getItem(key);
    return raw ? tableViewSchema.parse(JSON.parse(raw)) : defaults;
  } catch {
    return defaults;
  }
}

export function useTableView(tableId: string, defaults: TableView): [TableView, (view: TableView) => void] {
  const userId = useUserStore((s) => s.userInfo?.id ?? "");
  const key = tableViewKey(userId, tableId);
  const [stored, setStored] = useState(() => ({ key, view: readView(key, defaults) }));
  // Another user logged in on the same page: read theirs.
  const view = stored.key === key ? stored.view : readView(key, defaults);
  const setView = (next: TableView) => {
    localStorage.setItem(key, JSON.stringify(next));
    setStored({ key, view: next });
  };
  return [view, setView];
}
