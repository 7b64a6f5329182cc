// Whether the code running now works for a user waiting at the screen: the call wrapper (server/http/calls.ts) runs
// each call's handler, and what it sends after its transaction, inside whileUserWaits; a job's work runs outside it.
// Waits that suit a job (a rate bucket's queue, a back-off) are bounded for a waiting user, who gets a clear "busy"
// instead of a screen that never answers.
import { AsyncLocalStorage } from "node:async_hooks";

const waiting = new AsyncLocalStorage<true>();

export const whileUserWaits = <T>(fn: () => Promise<T>): Promise<T> => waiting.run(true, fn);
export const userIsWaiting = (): boolean => waiting.getStore() === true;
