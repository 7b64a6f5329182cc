// A tenant's orders and money, made through the real code paths, for the security suites (issue 18 and 19): an order of
// its connected sandbox shop brought in by the orders service's own read-and-store (refreshOrders), a receipt image
// uploaded through UploadReceipt and named by a top-up (SubmitChagreRecord) the host approves (the wallet credited), a
// sub-account package purchase (OrderSubAcc) of a package the host set, and a withdrawal (RequestWithdraw) to an Alipay
// account, left pending with its money held.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { meliAccountGroups, orders } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import { createOrderSyncService } from "../modules/orders/sync.ts";
import { ChargePayType, ChargeStatus } from "#shared/contract/enums.ts";
import { pngImage } from "#shared/images/test-images.ts";
import { multipartFile, uniqueName, type ApiResponse, type TestServer, type TestTenant } from "./harness.ts";
import { uploadSellerInvoice } from "./order-kit.ts";
import { SettingKeys } from "#shared/contract/setting-registry.ts";

const HOUR = 3600_000;

/** UploadReceipt through the HTTP stack. */
export function uploadReceipt(s: Pick<TestServer, "api">, token: string, filename: string, content: Uint8Array): Promise<ApiResponse> {
  const { payload, contentType } = multipartFile(filename, content);
  return s.api("POST", "/api/ChargeRecord/UploadReceipt", { token, headers: { "content-type": contentType }, body: payload });
}

/** GetReceipt as raw bytes (the image, or an error envelope). */
export async function getReceipt(s: TestServer, token: string, pic: string) {
  const res = await s.app.inject({
    method: "GET",
    url: "/api/ChargeRecord/GetReceipt",
    query: { pic },
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, type: String(res.headers["content-type"] ?? ""), bytes: Buffer.from(res.rawPayload), raw: res.body };
}

export type SeededOrder = { id: string; orderNo: string; groupId: string };

/**
 * An order of the tenant's shop (connected through the sandbox under `nickname`): the sandbox sells it (paid three
 * hours ago, so its shipment is ready to ship and its label printable), and the orders service reads and stores it.
 */
export async function seedOrder(s: TestServer, t: TestTenant, nickname: string): Promise<SeededOrder> {
  const sandbox = s.deps.sandbox;
  if (!sandbox) throw new Error("seedOrder needs the in-process sandbox");
  const seller = sandbox.store.userByNickname(nickname);
  if (!seller) throw new Error(`no sandbox seller ${nickname}`);
  const [group] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select({ id: meliAccountGroups.id })
      .from(meliAccountGroups)
      .where(and(eq(meliAccountGroups.tenantId, t.tenantId), eq(meliAccountGroups.custId, String(seller.id)))),
  );
  if (!group) throw new Error(`${nickname} is not a shop of ${t.tenantName}`);
  const at = sandbox.control.clock.now().getTime() - 3 * HOUR;
  const order = sandbox.control.createOrder(seller.id, { quantity: 1, status: "paid", at });
  // The service's own read-and-store (what a notification, FetchOrders and GetNewOrder run), without a second set of
  // job workers.
  const sync = createOrderSyncService({
    database: s.database,
    jobs: { ...s.deps.jobs, handle: () => undefined },
    meli: s.deps.meli,
    log: s.deps.log,
  });
  const stored = await sync.refreshOrders(t.tenantId, group.id, [String(order.id)]);
  if (stored !== 1) throw new Error(`order ${order.id} was not stored (${stored})`);
  // The seller's own invoice on the sale (cargar-factura.md), so GetMeliOrderInvoice has a document to answer.
  await uploadSellerInvoice(sandbox, seller.id, order.pack_id ?? order.id, Buffer.from("%PDF-1.4\n% factura\n%%EOF\n", "latin1"));
  const [row] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.tenantId, t.tenantId), eq(orders.meliOrderId, String(order.id)))),
  );
  return { id: row.id, orderNo: String(order.id), groupId: group.id };
}

export type SeededMoney = {
  /** The receipt image ("<tenantId>/<file>") and its file name. */
  pic: string;
  picFile: string;
  receipt: Uint8Array;
  /** The approved top-up and the one left pending. */
  chargeRecordId: string;
  pendingChargeRecordId: string;
  chargeRemark: string;
  packageId: string;
  subAccOrderId: string;
  withdrawalId: string;
  alipayAccount: string;
  withdrawRemark: string;
};

const idem = () => ({ "idempotency-key": randomUUID() });

function ok(res: ApiResponse, what: string) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.raw}`);
  return res.body.result;
}

/**
 * The tenant's money: a receipt uploaded and named by two top-ups (one approved by the host: the wallet credited, one
 * pending), a package the host sets bought from that balance, and a pending withdrawal (money held) naming the receipt.
 */
export async function seedMoney(s: Pick<TestServer, "api">, t: Pick<TestTenant, "token">, hostToken: string): Promise<SeededMoney> {
  const receipt = pngImage(24, 12);
  const up = await uploadReceipt(s, t.token, "转账截图.png", receipt);
  const pic: string = ok(up, "UploadReceipt").pic;
  const chargeRemark = uniqueName("chargeremark");
  const submit = (money: number) =>
    s.api("POST", "/api/ChargeRecord/SubmitChagreRecord", {
      token: t.token,
      headers: idem(),
      body: { money, payType: ChargePayType.Alipay, pic, remark: chargeRemark },
    });
  const charge = ok(await submit(500), "SubmitChagreRecord");
  const pending = ok(await submit(7), "SubmitChagreRecord");
  ok(
    await s.api("POST", "/api/ChargeRecord/AuditChargeRecord", {
      token: hostToken,
      headers: idem(),
      body: { id: charge.id, status: ChargeStatus.Approved },
    }),
    "AuditChargeRecord",
  );
  const pkg = ok(
    await s.api("POST", "/api/SubAccountOrder/CreateOrUpdateSubAccOrderInfo", {
      token: hostToken,
      body: { name: uniqueName("套餐"), count: 2, days: 30, price: 99 },
    }),
    "CreateOrUpdateSubAccOrderInfo",
  );
  // A package changes something only under a limit: a free number far above what any suite enables.
  ok(
    await s.api("POST", "/api/SystemConfigSetting/SetValueByKey", {
      token: hostToken,
      body: { key: SettingKeys.freeSubAccounts, value: "1000" },
    }),
    "SetValueByKey",
  );
  const bought = ok(
    await s.api("POST", "/api/SubAccountOrder/OrderSubAcc", { token: t.token, headers: idem(), query: { id: pkg.id } }),
    "OrderSubAcc",
  );
  const alipayAccount = `${uniqueName("alipay")}@example.com`;
  const withdrawRemark = uniqueName("withdrawremark");
  const withdrawal = ok(
    await s.api("POST", "/api/Withdraw/RequestWithdraw", {
      token: t.token,
      headers: idem(),
      body: { money: 100, alipayAccount, pic, remark: withdrawRemark },
    }),
    "RequestWithdraw",
  );
  return {
    pic,
    picFile: pic.split("/")[1],
    receipt,
    chargeRecordId: charge.id,
    pendingChargeRecordId: pending.id,
    chargeRemark,
    packageId: pkg.id,
    subAccOrderId: bought.order.id,
    withdrawalId: withdrawal.id,
    alipayAccount,
    withdrawRemark,
  };
}
