// The side panel's publish section in the worker: the shop groups (read at a collect press, while the panel page
// loads, and served once to the panel), the category trees by site (sent again only when their version changed), the
// pre-flight and the publish calls, and a batch's progress. panel.ts composes it into the panel's back end.
import type { CategoryTreeNode } from "#shared/contract/category.ts";
import type { PublishRequest } from "#shared/contract/publish.ts";
import type { BatchView, ShopGroupView } from "../../lib/protocol.ts";
import type { StorageItems } from "../../lib/storage.ts";
import type { SessionService } from "./session.ts";

/** How long the shop groups read at a press (warming the panel's publish section) serve the panel. */
const WARM_MS = 20_000;

type PublishBody = Parameters<SessionService["api"]["meliStatNew"]["publish"]>[0];

export function createPanelPublishing({ api, items, now }: { api: SessionService["api"]; items: StorageItems; now: () => number }) {
  /** The category trees read this worker's life, by site (the tree only travels again when its version changed). */
  const trees = new Map<number, { version: string | null; tree: CategoryTreeNode[] }>();
  /** The shop groups read at a press, for the panel's publish section (the session's token they were read with). */
  let warmGroups: { token: string; at: number; groups: Promise<ShopGroupView[]> } | null = null;

  async function readGroups(): Promise<ShopGroupView[]> {
    const r = await api.meliAccount.getMeliAccGroup();
    return r.groups
      .filter((g) => g.sites.length > 0)
      .map((g) => ({ groupId: g.groupId, name: g.alias || g.name, isCbt: g.isCbt, sites: g.sites }));
  }

  return {
    /** A press opens the panel: its publish section's shop groups are read now, beside the collection. */
    async warm() {
      const token = (await items.session.getValue())?.accessToken;
      if (!token || (warmGroups?.token === token && now() - warmGroups.at < WARM_MS)) return;
      const groups = readGroups();
      groups.catch(() => (warmGroups = null));
      warmGroups = { token, at: now(), groups };
    },

    async categoryTree(site: number) {
      const held = trees.get(site);
      const answer = await api.meliCategory.getAllCategory({ site, ...(held?.version ? { version: held.version } : {}) });
      if (answer.notModified && held) return { site, ...held };
      const fresh = { version: answer.version, tree: (answer.tree ?? []) as CategoryTreeNode[] };
      trees.set(site, fresh);
      return { site, ...fresh };
    },

    /** The shop groups: those read at the press when fresh and read with the same login (once), else read now. */
    async shopGroups(): Promise<ShopGroupView[]> {
      const warm = warmGroups;
      warmGroups = null;
      if (warm && now() - warm.at < WARM_MS && warm.token === (await items.session.getValue())?.accessToken) {
        const groups = await warm.groups.catch(() => null);
        if (groups) return groups;
      }
      return readGroups();
    },

    // The request as the protocol checked it (a filter's dates parsed): the panel selects by ids only.
    preflight: (request: PublishRequest) => api.meliStatNew.preflightPublish(request as PublishBody),
    publish: (request: PublishRequest) => api.meliStatNew.publish(request as PublishBody),

    /** The batch by its id (GetPublishBatch: not found unless it is the caller's) and its first 50 listings. */
    async batch(batchId: string): Promise<BatchView> {
      const [batch, listings] = await Promise.all([
        api.meliStatNew.getPublishBatch({ batchId }),
        api.meliStatNew.getPublishBatchListings({ batchId, maxResultCount: 50 }),
      ]);
      return { batch, listings: listings.items };
    },
  };
}
