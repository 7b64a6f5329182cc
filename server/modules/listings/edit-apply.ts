// One edit of one listing on Mercado Libre (`applyEdit`): read the listing in a short transaction; when its value
// already equals the target, nothing is sent (skipped); otherwise one write, then a re-read of the item (edit-send.ts),
// and what Mercado Libre holds is stored on the listing with the calls' log, in another short transaction
// (edit-target.ts). Mercado Libre is never called inside a transaction. A refusal leaves the marketplace's reason (in
// Chinese) on the listing.
import type { MeliExchange } from "../../integrations/mercadolibre/client.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import { meliPriceOf } from "./meli-price.ts";
import { sendEdit, storedAfter, type Sending } from "./edit-send.ts";
import { createEditTargets, type EditTargets } from "./edit-target.ts";
import { ON_MARKET, sizeText, type Edit, type ListingEditDeps, type Outcome, type Target } from "./edit-types.ts";

/** Whether the listing's record already holds what the edit sets (the price: the edit's, or the formula's). */
function holdsAlready(t: Target, edit: Edit, targetPrice: number | null): boolean {
  const l = t.listing;
  return (
    (targetPrice !== null && l.price !== null && Number(l.price) === targetPrice) ||
    (edit.op === "title" && l.title === edit.title) ||
    (edit.op === "status" && l.status === (edit.status === "active" ? ListingStatus.Active : ListingStatus.Paused)) ||
    (edit.op === "stock" && l.stock === edit.stock) ||
    (edit.op === "weight" &&
      l.weight !== null &&
      Number(l.weight) === edit.weight &&
      (edit.size === null || sizeText(l.size) === edit.size))
  );
}

/** The Mercado Libre failure as the listing keeps it: its reason, and its validation errors as problems. */
function refusalOf(err: MeliApiError) {
  const problems = (err.validationErrors ?? []).map((v) => ({
    code: "meli",
    field: v.members[0] ?? null,
    message: v.message,
    severity: "error" as const,
  }));
  return { reason: err.message, problems };
}

export function createEditApplier(deps: ListingEditDeps) {
  const db = deps.database.db;
  const targets: EditTargets = createEditTargets(db, deps.callLog);
  const { store } = targets;

  /** What the edit sends beyond its own fields: the package size with a weight, the pictures the category takes. */
  async function sizeAndImages(t: Target, edit: Edit): Promise<{ size: string | null; images: string[] }> {
    const l = t.listing;
    // A local item's dimensions need the size with the weight: the edit's, the listing's, else its product's.
    const size = edit.op === "weight" ? (edit.size ?? sizeText(l.size) ?? (t.isCbt ? null : await targets.productSize(l))) : null;
    // As publishing: no more pictures than the category takes.
    const images = edit.op === "images" ? edit.images.slice(0, (await targets.maxPicturesOf(t)) ?? edit.images.length) : [];
    return { size, images };
  }

  /**
   * One edit of one listing (see the file's head). Answers done, refused (the reason is on the listing) or skipped;
   * throws a retryable MeliApiError (rate limit, outage) after logging the calls made, for the job to run again.
   */
  async function applyEdit(t: Target, edit: Edit, creatorId: string | null): Promise<Outcome> {
    const l = t.listing;
    if (!l.itemId || !(ON_MARKET.includes(l.status) || (edit.op === "delete" && l.status === ListingStatus.Closed)))
      return { outcome: "skipped", reason: "刊登不在美客多上（未刊登或已关闭）" };
    const refuse = async (reason: string): Promise<Outcome> => {
      await store(t, [], creatorId, { reason });
      return { outcome: "refused", reason };
    };
    let meliPrice: { price: number; content: unknown } | null = null;
    if (edit.op === "meliPrice") {
      const r = await meliPriceOf(db, t, edit.limitMinPrice);
      if (!r.ok) return refuse(r.reason);
      meliPrice = r;
    }
    if (edit.op === "price" && edit.content !== undefined) meliPrice = { price: edit.price, content: edit.content };
    const targetPrice = edit.op === "price" ? edit.price : (meliPrice?.price ?? null);
    if (holdsAlready(t, edit, targetPrice)) return { outcome: "skipped", reason: "值未变化" };
    // A global item's pictures and package are the global item's.
    if ((edit.op === "weight" || edit.op === "images") && t.isCbt && !l.cbtId) return refuse("跨境刊登缺少全球商品编号");
    const { size, images } = await sizeAndImages(t, edit);
    if (edit.op === "weight" && !t.isCbt && !size) return refuse("修改重量需要包装尺寸：请同时填写尺寸（长x宽x高，厘米）");

    const exchanges: MeliExchange[] = [];
    // A repricing's calls carry its reason in the listing's log.
    const why = edit.op === "price" ? (edit.reason ?? null) : null;
    const sending: Sending = {
      shop: deps.meli.shop({ tenantId: l.tenantId, groupId: l.accountGroupId }),
      t,
      edit,
      targetPrice,
      size,
      images,
      observe: (x) => exchanges.push(x),
      unchanged: async () => {
        await store(t, exchanges, creatorId, { syncTime: new Date() });
        return { outcome: "skipped", reason: "值未变化" };
      },
    };
    try {
      const early = await sendEdit(sending);
      if (early) return early;
      const { set, shared } = await storedAfter(sending, meliPrice);
      await store(t, exchanges, creatorId, set, shared, why);
      return { outcome: "done", reason: null };
    } catch (err) {
      // Not the marketplace's answer, or one to try again: the calls made are still logged; the caller handles it.
      if (!(err instanceof MeliApiError) || err.retryable) {
        await store(t, exchanges, creatorId, {}, undefined, why);
        throw err;
      }
      await store(t, exchanges, creatorId, refusalOf(err), undefined, why);
      return { outcome: "refused", reason: err.message };
    }
  }

  return {
    loadTarget: targets.loadTarget,
    store,
    applyEdit,
    meliPriceOf: (t: Target, limitMinPrice: number | null) => meliPriceOf(db, t, limitMinPrice),
  };
}
export type EditApplier = ReturnType<typeof createEditApplier>;
