// The tab bar's open pages (multi-tab layout). Not a spec store; reset with the others on logout.
import { create } from "zustand";

export type Tab = { path: string; title: string };

type TabsState = { tabs: Tab[] };
type TabsActions = { open(tab: Tab): void; close(path: string): string | null; closeOthers(path: string): void; reset(): void };

/** The workbench tab is always open and cannot be closed. */
export const PINNED_TAB: Tab = { path: "/dashboard/wrokbench", title: "工作台" };

export const useTabsStore = create<TabsState & TabsActions>()((set, get) => ({
  tabs: [PINNED_TAB],
  open: (tab) => set((s) => (s.tabs.some((t) => t.path === tab.path) ? s : { tabs: [...s.tabs, tab] })),
  /** Closes a tab and answers the path to show next (its left neighbour), or null when it was not open. */
  close: (path) => {
    if (path === PINNED_TAB.path) return null;
    const tabs = get().tabs;
    const i = tabs.findIndex((t) => t.path === path);
    if (i < 0) return null;
    const next = tabs.filter((t) => t.path !== path);
    set({ tabs: next });
    return (next[i - 1] ?? next[0] ?? PINNED_TAB).path;
  },
  closeOthers: (path) => set((s) => ({ tabs: s.tabs.filter((t) => t.path === PINNED_TAB.path || t.path === path) })),
  reset: () => set({ tabs: [PINNED_TAB] }),
}));
