// Answers the protocol's messages with the session and collector services.
import { browser } from "wxt/browser";
import { listen } from "../../lib/messaging.ts";
import { createRouter, type Handlers } from "../../lib/router.ts";
import type { CollectorService } from "./collector.ts";
import type { SessionService } from "./session.ts";

export function createHandlers(session: SessionService, collector: CollectorService): Handlers {
  return {
    login: async (input) => {
      const status = await session.login(input);
      void collector.flush(); // a new login may free what waited for it
      return status;
    },
    logout: () => session.logout(),
    getStatus: () => session.status(),
    getUserInfo: () => session.getUserInfo(),
    collect: (product) => collector.collect(product),
    isCollected: (item) => collector.isCollected(item),
    getQueue: async () => ({ pending: await collector.pending() }),
    flushQueue: async () => ({ sent: await collector.flush(), pending: await collector.pending() }),
  };
}

export function setupMessages(session: SessionService, collector: CollectorService) {
  const router = createRouter(createHandlers(session, collector), {
    extensionId: browser.runtime.id,
    extensionOrigin: browser.runtime.getURL("/"),
  });
  return listen(router);
}
