// For tests about orders: what a seller does outside the product, through the sandbox's documented calls. Here, the
// seller uploading its own invoice to a sale (docs/16-billing/cargar-factura.md: POST /packs/{pack_id}/fiscal_documents,
// the order id when the order has no pack), with an access token the sandbox already issued to it (issuing a new pair
// would spend the refresh token the app holds).
import { and, eq } from "drizzle-orm";
import { meliAccountGroups } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import { SANDBOX_PREFIX, type Sandbox } from "../sandbox/sandbox.ts";
import { sandboxFetch } from "../integrations/mercadolibre/transport.ts";
import { multipartFile, uniqueName, type TestServer, type TestTenant } from "./harness.ts";
import { connectShop } from "./shop-kit.ts";

/** A Mexican shop connected for the tenant through the sandbox's consent: its seller id and its shop group. */
export async function connectOrderShop(s: TestServer, tenant: TestTenant, prefix: string) {
  const nickname = uniqueName(prefix);
  const page = await connectShop(s, tenant.token, { nickname, site: "MLM", sites: [1] });
  if (!page.ok) throw new Error(page.message);
  const sellerId = s.deps.sandbox!.store.userByNickname(nickname)!.id;
  const [{ groupId }] = await inScope(s.database.db, { tenantId: tenant.tenantId }, (tx) =>
    tx
      .select({ groupId: meliAccountGroups.id })
      .from(meliAccountGroups)
      .where(and(eq(meliAccountGroups.tenantId, tenant.tenantId), eq(meliAccountGroups.custId, String(sellerId)))),
  );
  return { sellerId, groupId };
}

/** Uploads the PDF as the seller's invoice of the pack (or lone order); throws unless the sandbox took it. */
export async function uploadSellerInvoice(
  sandbox: Sandbox,
  sellerId: number,
  packId: string | number,
  pdf: Buffer,
  filename = "factura.pdf",
) {
  const now = sandbox.store.now();
  const [token] = [...sandbox.store.state.tokens.entries()].find(([, t]) => t.userId === sellerId && t.expiresAt > now) ?? [];
  if (!token) throw new Error(`no live sandbox token for seller ${sellerId}`);
  const body = multipartFile(filename, pdf, { field: "fiscal_document", contentType: "application/pdf" });
  const res = await sandboxFetch(sandbox)(`http://sandbox.local${SANDBOX_PREFIX}/packs/${packId}/fiscal_documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": body.contentType },
    body: body.payload,
  });
  if (res.status !== 200) throw new Error(`invoice upload refused: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { ids: string[] }).ids;
}
