// The keyboard shortcut's handler as the worker registers it (index.ts: panelCommandHandler(openSidePanel)), down to
// Chrome's call: open-panel.test.ts checks which tab the handler picks with a recorder in place of the opener; this
// checks that the press reaches chrome.sidePanel.open with that tab and window, inside the command's event (Chrome
// opens a side panel only during a user gesture: an await before the call would lose it), once, and never for
// another command; and that a refusal (a page Chrome keeps the panel off) is answered, not thrown.
import { fakeBrowser } from "../../testing/fake-browser.ts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OPEN_PANEL_COMMAND, openSidePanel, panelCommandHandler } from "./open-panel.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the keyboard shortcut down to chrome.sidePanel.open", () => {
  it("opens the side panel on the pressed tab, in its window, within the command's event, once", () => {
    const open = vi.spyOn(fakeBrowser.sidePanel, "open").mockResolvedValue(undefined);
    const handler = panelCommandHandler(openSidePanel);
    handler(OPEN_PANEL_COMMAND, { id: 12, windowId: 3 });
    // Synchronously: nothing awaited between the event and the call.
    expect(open.mock.calls).toEqual([[{ tabId: 12, windowId: 3 }]]);
    // A tab Chrome passes without its window: the tab alone names where.
    handler(OPEN_PANEL_COMMAND, { id: 14 });
    expect(open.mock.calls.slice(1)).toEqual([[{ tabId: 14 }]]);
  });

  it("calls nothing for another command or a press without a tab", () => {
    const open = vi.spyOn(fakeBrowser.sidePanel, "open").mockResolvedValue(undefined);
    const handler = panelCommandHandler(openSidePanel);
    handler("_execute_action", { id: 12, windowId: 3 });
    handler(OPEN_PANEL_COMMAND);
    handler(OPEN_PANEL_COMMAND, { id: -1, windowId: 3 });
    expect(open).not.toHaveBeenCalled();
  });

  it("answers whether Chrome opened it: a refusal is false, not an unhandled rejection", async () => {
    vi.spyOn(fakeBrowser.sidePanel, "open").mockRejectedValueOnce(new Error("No active side panel for tabId: 12"));
    await expect(openSidePanel({ id: 12, windowId: 3 })).resolves.toBe(false);
    vi.spyOn(fakeBrowser.sidePanel, "open").mockResolvedValueOnce(undefined);
    await expect(openSidePanel({ id: 12 })).resolves.toBe(true);
  });
});
