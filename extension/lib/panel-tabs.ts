// The side panel's state per browser tab, kept by the background worker: which source item the tab's product page shows,
// how far its collection went (pressed, stored, queued offline, refused) and the product the panel made of it. Pure
// functions over a plain record (stored in the session storage area, so a sleeping worker loses nothing), so the rules
// are tested without a browser.
import type { CollectOutcome, SourceItem, TabEntry, TabPhase } from "./protocol.ts";

export type TabStates = Record<string, TabEntry>;

export type TabEvent =
  /** A content script found an item on the tab's page (collected before, or not). */
  | { type: "seen"; tabId: number; url: string | null; item: SourceItem; collected: boolean }
  /** The collect button was pressed. */
  | { type: "collecting"; tabId: number; url: string | null; item: SourceItem }
  | { type: "outcome"; tabId: number; item: SourceItem; outcome: CollectOutcome }
  | { type: "product"; tabId: number; item: SourceItem | null; productId: string }
  /** The tab moved to another URL: what the old page showed no longer applies. */
  | { type: "navigated"; tabId: number; url: string }
  | { type: "closed"; tabId: number };

/** Tabs remembered at most; the least recently changed go first. */
export const MAX_TABS = 100;

const sameItem = (a: SourceItem | null, b: SourceItem | null) => !!a && !!b && a.platform === b.platform && a.itemId === b.itemId;

const fresh = (url: string | null, item: SourceItem | null, at: number): TabEntry => ({
  url,
  item,
  phase: "seen",
  collectionId: null,
  productId: null,
  message: null,
  at,
});

const phaseOf: Record<CollectOutcome["outcome"], TabPhase> = {
  collected: "collected",
  already: "collected",
  queued: "queued",
  "not-logged-in": "not-logged-in",
  limit: "refused",
  refused: "refused",
};

/** The states after one event (a new object; the input is not changed). */
export function applyTabEvent(tabs: TabStates, e: TabEvent, now: number): TabStates {
  const key = String(e.tabId);
  const cur = tabs[key] ?? null;
  const next: TabStates = { ...tabs };
  // Another item on the same tab starts over: its collection and product are not the old item's.
  const base = (url: string | null, item: SourceItem | null) =>
    cur && sameItem(cur.item, item) ? { ...cur, url: url ?? cur.url } : fresh(url, item, now);
  switch (e.type) {
    case "seen": {
      const entry = base(e.url, e.item);
      next[key] = { ...entry, phase: e.collected && entry.phase === "seen" ? "collected" : entry.phase, at: now };
      break;
    }
    case "collecting":
      next[key] = { ...base(e.url, e.item), phase: "collecting", message: null, at: now };
      break;
    case "outcome": {
      const entry = base(null, e.item);
      next[key] = {
        ...entry,
        phase: phaseOf[e.outcome.outcome],
        collectionId: e.outcome.collectionId ?? entry.collectionId,
        message: e.outcome.message,
        at: now,
      };
      break;
    }
    case "product": {
      const entry = e.item ? base(null, e.item) : (cur ?? fresh(null, null, now));
      next[key] = { ...entry, productId: e.productId, at: now };
      break;
    }
    case "navigated":
      if (cur && cur.url !== e.url) next[key] = fresh(e.url, null, now);
      break;
    case "closed":
      delete next[key];
      break;
  }
  const keys = Object.keys(next);
  if (keys.length > MAX_TABS) {
    for (const k of keys.sort((a, b) => next[a].at - next[b].at).slice(0, keys.length - MAX_TABS)) delete next[k];
  }
  return next;
}

/**
 * What the panel does for the tab: nothing to show, wait for a collection under way, open the product, offer to
 * collect the item (seen but not collected: the panel follows the active tab, and browsing must not collect), or show
 * why it cannot (queued offline, refused).
 */
export function tabReadiness(entry: TabEntry | null): "none" | "waiting" | "ready" | "collect" | "blocked" {
  if (!entry?.item) return "none";
  if (entry.productId || entry.phase === "collected") return "ready";
  if (entry.phase === "collecting") return "waiting";
  // Not collected yet, or a press refused for want of a login (the panel shows the login first when still needed).
  if (entry.phase === "seen" || entry.phase === "not-logged-in") return "collect";
  return "blocked";
}
