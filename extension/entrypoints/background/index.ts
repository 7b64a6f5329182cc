// The background worker's composition root: one setup per concern.
import { browser } from "wxt/browser";
import { defineBackground } from "wxt/utils/define-background";
import { defineStorageItems } from "../../lib/storage.ts";
import { createCollector } from "./collector.ts";
import { setupMessages } from "./messages.ts";
import { createSession } from "./session.ts";

/** How often queued collections are retried while the server is unreachable. */
const FLUSH_ALARM = "collect-queue-flush";
const FLUSH_EVERY_MINUTES = 1;

export default defineBackground(() => {
  const items = defineStorageItems();
  const session = createSession({ items });
  const collector = createCollector({ session, items });
  setupMessages(session, collector);
  // The worker sleeps between events: an alarm wakes it to retry the queue; it also tries at every start.
  void browser.alarms.create(FLUSH_ALARM, { periodInMinutes: FLUSH_EVERY_MINUTES });
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === FLUSH_ALARM) void collector.flush();
  });
  void collector.flush();
});
