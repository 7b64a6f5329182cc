// The typed client in one object: `const api = createApi({ baseUrl, getToken, getTenant, onUnauthorized })`, then
// `api.token.login(...)`, `api.user.getUserInfo()`, `api.hosted.getTenants({ Search })`. Each area's calls are declared
// in their own file (users.ts, account.ts, ...) and listed once, in calls.ts; an area can be bound alone with
// `bindCalls(client, userCalls)` (the console's login route does, to load only what it calls).
import { callGroups } from "./calls.ts";
import { createApiClient, type ApiClient, type ApiClientOptions } from "./client.ts";
import { bindCalls, type BoundCalls } from "./define.ts";
import { createTokenApi } from "./token.ts";

export * from "./client.ts";
export * from "./errors.ts";
export * from "./call-result.ts";
type Groups = typeof callGroups;
type BoundGroups = { [G in keyof Groups]: BoundCalls<Groups[G]> };

export function createApi(options: ApiClientOptions | ApiClient) {
  const client = "request" in options ? options : createApiClient(options);
  const groups = Object.fromEntries(Object.entries(callGroups).map(([group, defs]) => [group, bindCalls(client, defs)])) as BoundGroups;
  return { client, token: createTokenApi(client), ...groups };
}
export type Api = ReturnType<typeof createApi>;
