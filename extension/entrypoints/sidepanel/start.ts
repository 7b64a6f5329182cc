// What the panel asks the worker first, asked as soon as its script runs: the login state, and the tab it follows with
// that tab's state. The press that opens the panel waits on these round trips (bench/side-panel.ts); asked here they
// overlap React's start and first render instead of following them. Each answer is taken once, by the panel's first
// look; later looks ask again.
import { browser } from "wxt/browser";
import { sendMessage } from "../../lib/messaging.ts";
import type { Status, TabView } from "../../lib/protocol.ts";

const pinned = new URLSearchParams(location.search).get("tabId");
/** The tab named by ?tabId= (the panel opened as a page on one tab), not followed. */
export const pinnedTab = pinned ? Number(pinned) : null;

type Early<T> = { value: Promise<T> } | null;
const handled = <T>(value: Promise<T>) => {
  value.catch(() => undefined);
  return { value };
};

let status: Early<Status> = handled(sendMessage("getStatus"));
let tabView: (Early<TabView | null> & { tabId: number }) | null = null;

/** The tab the panel shows first: the pinned one, else the active tab of the panel's window. */
export const firstTab: Promise<{ id: number; windowId?: number } | null> = (
  pinnedTab !== null
    ? Promise.resolve({ id: pinnedTab })
    : browser.tabs.query({ active: true, currentWindow: true }).then(
        ([t]) => (t?.id !== undefined ? { id: t.id, windowId: t.windowId } : null),
        () => null,
      )
).then((t) => {
  if (t) tabView = { tabId: t.id, ...handled(sendMessage("panelTab", { tabId: t.id })) };
  return t;
});

/** The login state asked at start, the first time; then a new ask. */
export function askStatus(): Promise<Status> {
  const early = status;
  status = null;
  return early ? early.value : sendMessage("getStatus");
}

/** The tab's state asked at start when it is that tab, the first time; then a new ask. */
export function askTab(tabId: number): Promise<TabView | null> {
  const early = tabView;
  tabView = null;
  return early?.tabId === tabId ? early.value : sendMessage("panelTab", { tabId });
}
