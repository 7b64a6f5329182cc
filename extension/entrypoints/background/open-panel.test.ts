// The keyboard shortcut's opener. Headless Chromium cannot press an extension's shortcut (Chrome handles `commands` in
// the browser's own key handling, which CDP's key events never reach), so the handler is tested here, with the
// manifest entry it answers to; the collect button's and the popup's openers run in e2e/side-panel.test.ts.
import "../../testing/fake-browser.ts";
import { describe, expect, it } from "vitest";
import config from "../../../wxt.config.ts";
import { OPEN_PANEL_COMMAND, panelCommandHandler, type PanelTab } from "./open-panel.ts";

function recorder() {
  const opened: PanelTab[] = [];
  const handler = panelCommandHandler(async (tab) => {
    opened.push(tab);
    return true;
  });
  return { opened, handler };
}

describe("the side panel's keyboard shortcut", () => {
  it("is declared in the manifest as Alt+Shift+E under the command the worker listens to", () => {
    const manifest = config.manifest as { commands: Record<string, { suggested_key: { default: string }; description: string }> };
    expect(manifest.commands[OPEN_PANEL_COMMAND]).toMatchObject({ suggested_key: { default: "Alt+Shift+E" } });
    expect(manifest.commands[OPEN_PANEL_COMMAND].description).toContain("侧边栏");
  });

  it("opens the panel on the tab it was pressed in, in that tab's window", () => {
    const { opened, handler } = recorder();
    handler(OPEN_PANEL_COMMAND, { id: 12, windowId: 3 });
    expect(opened).toEqual([{ id: 12, windowId: 3 }]);
  });

  it("does nothing for another command, or without a tab", () => {
    const { opened, handler } = recorder();
    handler("_execute_action", { id: 12, windowId: 3 });
    handler(OPEN_PANEL_COMMAND);
    handler(OPEN_PANEL_COMMAND, { windowId: 3 });
    // chrome.tabs.TAB_ID_NONE: a window without a tab of its own (devtools).
    handler(OPEN_PANEL_COMMAND, { id: -1, windowId: 3 });
    expect(opened).toEqual([]);
  });
});
