// The background worker's composition root: one setup per concern.
import { browser } from "wxt/browser";
import { defineBackground } from "wxt/utils/define-background";
import { CHANNEL, collectOutcome, PUSH_CHANNEL, type PushBody } from "../../lib/protocol.ts";
import { defineStorageItems } from "../../lib/storage.ts";
import { createCollector } from "./collector.ts";
import { createEdits } from "./edits.ts";
import { setupMessages } from "./messages.ts";
import { openSidePanel, panelCommandHandler } from "./open-panel.ts";
import { createPanel } from "./panel.ts";
import { createProgressWatch } from "./progress.ts";
import { createSession } from "./session.ts";

/** How often queued collections and edits are retried while the server is unreachable. */
const FLUSH_ALARM = "collect-queue-flush";
const FLUSH_EVERY_MINUTES = 1;

/** Tells open extension pages (the side panel); nobody listening is fine. */
function push(message: PushBody) {
  browser.runtime.sendMessage({ channel: PUSH_CHANNEL, ...message }).catch(() => undefined);
}

export default defineBackground(() => {
  const items = defineStorageItems();
  const session = createSession({ items });
  const collector = createCollector({ session, items });
  const edits = createEdits({ session, items, onChange: (sent, pending, refused) => push({ kind: "edits", sent, pending, refused }) });
  const panel = createPanel({
    session,
    items,
    onTab: (tab) => push({ kind: "tab", tab }),
    // The panel opened on an item not collected yet: the tab's collect button does it, as if pressed.
    collectInTab: async (tabId) => {
      const answer: unknown = await browser.tabs.sendMessage(tabId, { channel: CHANNEL, type: "collectNow" }).catch(() => null);
      const parsed = collectOutcome.safeParse(answer);
      return parsed.success ? parsed.data : null;
    },
  });
  const progress = createProgressWatch({ session, push: (live, event) => push({ kind: "progress", live, event }) });
  setupMessages({
    session,
    collector,
    panel,
    edits,
    progress,
    openSidePanel,
    onStatus: () => void session.status().then((status) => push({ kind: "status", status })),
  });
  // The keyboard shortcut opens the panel on the active tab (a command is a user gesture).
  browser.commands.onCommand.addListener(panelCommandHandler(openSidePanel));
  // A tab's page changing or the tab closing ends what the panel knew of it.
  browser.tabs.onUpdated.addListener((tabId, change) => {
    if (change.url) void panel.record({ type: "navigated", tabId, url: change.url });
  });
  browser.tabs.onRemoved.addListener((tabId) => void panel.record({ type: "closed", tabId }));
  // The worker sleeps between events: an alarm wakes it to retry the queues; it also tries at every start.
  void browser.alarms.create(FLUSH_ALARM, { periodInMinutes: FLUSH_EVERY_MINUTES });
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === FLUSH_ALARM) {
      void collector.flush();
      void edits.flush();
    }
  });
  void collector.flush();
  void edits.flush();
});
