// The side panel's openers in the worker: the keyboard shortcut (the manifest's `commands` entry) and the call that
// opens the panel on a tab, shared with the collect button's press (messages.ts). The popup's 打开商品侧边栏 opens it
// from its own page (popup/app.tsx). Chrome opens a side panel only inside a user gesture's event: a command is one,
// so the handler opens before any await.
import { browser } from "wxt/browser";

/** The keyboard shortcut's command (wxt.config.ts manifest `commands`, Alt+Shift+E). */
export const OPEN_PANEL_COMMAND = "open-side-panel";

export type PanelTab = { id: number; windowId?: number };

/** Opens the side panel on the tab. Must be called synchronously from a user gesture's event (Chrome's rule). */
export function openSidePanel(tab: PanelTab): Promise<boolean> {
  return browser.sidePanel.open({ tabId: tab.id, ...(tab.windowId !== undefined ? { windowId: tab.windowId } : {}) }).then(
    () => true,
    () => false,
  );
}

/**
 * The commands listener: the shortcut opens the panel on the tab it was pressed in (Chrome passes the active tab);
 * other commands, and a press with no tab (a browser page without one), do nothing.
 */
export function panelCommandHandler(open: (tab: PanelTab) => Promise<boolean>) {
  return (command: string, tab?: { id?: number; windowId?: number }) => {
    if (command !== OPEN_PANEL_COMMAND || tab?.id === undefined || tab.id < 0) return;
    void open({ id: tab.id, windowId: tab.windowId });
  };
}
