// The background worker's composition root: one setup per concern.
import { defineBackground } from "wxt/utils/define-background";
import { defineStorageItems } from "../../lib/storage.ts";
import { setupMessages } from "./messages.ts";
import { createSession } from "./session.ts";

export default defineBackground(() => {
  const session = createSession({ items: defineStorageItems() });
  setupMessages(session);
});
