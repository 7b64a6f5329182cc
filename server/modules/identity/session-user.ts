// Moved to server/http/session-user.ts (the caller is the http layer's); this re-export stays only until
// events/routes.ts imports it from there (issue 30: it was being converted by another change at the time).
export { loadSessionUser, type SessionUser } from "../../http/session-user.ts";
