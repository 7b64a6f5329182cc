// PreviewMeliPrice: the price BatchUpdateMeliPrice would set on each listing, computed before the call's transaction
// (the formula reads in transactions of its own) and answered by its handler. Nothing is sent to Mercado Libre.
import { and, inArray } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { listings } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import type { MeliPricePreview } from "#shared/contract/listing-edits.ts";
import { loadSessionUser } from "../../http/session-user.ts";
import type { EditApplier } from "./edit-apply.ts";
import type { ListingEditDeps } from "./edit-types.ts";
import { listingWhere, type ListingKind } from "./list.ts";

const previews = new WeakMap<FastifyRequest, MeliPricePreview[]>();

export function createMeliPricePreview(deps: Pick<ListingEditDeps, "database">, applier: Pick<EditApplier, "loadTarget" | "meliPriceOf">) {
  const db = deps.database.db;

  /** Before the call's transaction: the price on each listing the caller sees, in its order. */
  async function previewMeliPrices(
    call: Omit<CallContext, "tx" | "user">,
    kind: ListingKind,
    input: { ids: string[]; limitMinPrice?: number | null },
  ): Promise<void> {
    const principal = call.principal;
    if (!principal) return;
    const visible = await inScope(db, { tenantId: call.tenantId }, async (tx) => {
      const ctx: CallContext = { ...call, tx, user: await loadSessionUser(tx, principal) };
      const rows = await tx
        .select({ id: listings.id })
        .from(listings)
        .where(and(listingWhere(ctx, kind, {}), inArray(listings.id, input.ids)));
      return new Set(rows.map((r) => r.id));
    });
    const out: MeliPricePreview[] = [];
    for (const id of input.ids.filter((x) => visible.has(x))) {
      const t = await applier.loadTarget(call.tenantId, id);
      if (!t) continue;
      const l = t.listing;
      const priced = await applier.meliPriceOf(t, input.limitMinPrice ?? null);
      out.push({
        id,
        itemId: l.itemId,
        site: l.site,
        price: l.price === null ? null : Number(l.price),
        currency: l.currency,
        next: priced.ok ? priced.price : null,
        reason: priced.ok ? null : priced.reason,
      });
    }
    previews.set(call.req, out);
  }

  /** The previews computed before the transaction (none found: another tenant's or unknown ids answer an empty list). */
  const answerPreview = async (ctx: CallContext): Promise<MeliPricePreview[]> => previews.get(ctx.req) ?? [];

  return { previewMeliPrices, answerPreview };
}
