// Answers the protocol's messages with the session service.
import { browser } from "wxt/browser";
import { listen } from "../../lib/messaging.ts";
import { createRouter, type Handlers } from "../../lib/router.ts";
import type { SessionService } from "./session.ts";

export function createHandlers(session: SessionService): Handlers {
  return {
    login: (input) => session.login(input),
    logout: () => session.logout(),
    getStatus: () => session.status(),
    getUserInfo: () => session.getUserInfo(),
  };
}

export function setupMessages(session: SessionService) {
  const router = createRouter(createHandlers(session), {
    extensionId: browser.runtime.id,
    extensionOrigin: browser.runtime.getURL("/"),
  });
  return listen(router);
}
