// The identity module's door: what other modules use of it. A module imports another only through its index.ts (lint:
// eslint.config.js); what it uses of another's service is handed to its factory by deps.ts.
export { generatePassword, verifyPassword, type PasswordHasher } from "./passwords.ts";
export {
  credentialMessages,
  lockedMessage,
  openSession,
  revokeSession,
  revokeUserSessions,
  type SessionDeps,
  type SessionService,
} from "./sessions.ts";
export { insertTenantWithMainAccount, insertUser } from "./users.ts";
