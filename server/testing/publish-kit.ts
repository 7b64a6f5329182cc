// What the publishing tests set up the same way: the host's category sync for some sites (with fees) run to the end,
// a connected shop's group with a GTIN pool, valid EAN-13 codes, a batch written straight to the database, and waiting
// for a condition.
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "../db/client.ts";
import { HOST_TENANT_ID, meliAccountGroups, publishBatches } from "../db/schema.ts";
import { hostAllScope, inScope } from "../db/scope.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import type { TestServer, TestTenant } from "./harness.ts";
import type { Category } from "../sandbox/categories.ts";
import { requiredAttributes } from "./sandbox-kit.ts";
import { connectShop, type ConnectOptions } from "./shop-kit.ts";

/** Reads until `done` holds, every 100 ms, for at most `ms`. */
export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: not done in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The host's UpdateAllCategory for `sites` with fees, waited for; throws when it fails. */
export async function syncCategories(s: TestServer, sites: number[]): Promise<void> {
  const sync = await s.api("POST", "/api/MeliCategory/UpdateAllCategory", {
    token: await s.adminToken(),
    body: { sites, withFees: true },
  });
  if (sync.status !== 200) throw new Error(`category sync: ${sync.raw}`);
  const task = await until(
    async () =>
      rowsOf<{ taskStatus: number }>(
        await inScope(s.database.db, hostAllScope, (tx) =>
          tx.execute(
            sql`select task_status as "taskStatus" from task_infos where tenant_id = ${HOST_TENANT_ID} and id = ${sync.body.result.taskId}`,
          ),
        ),
      )[0],
    (t) => t.taskStatus === TaskStatus.Succeeded || t.taskStatus === TaskStatus.Failed,
    "category sync",
    180_000,
  );
  if (task.taskStatus !== TaskStatus.Succeeded) throw new Error("category sync failed");
}

/** The tenant's (first) shop group. */
export async function shopGroupOf(s: TestServer, t: Pick<TestTenant, "tenantId">): Promise<string> {
  const [g] = await inScope(s.database.db, { tenantId: t.tenantId }, (tx) =>
    tx.select({ id: meliAccountGroups.id }).from(meliAccountGroups).where(eq(meliAccountGroups.tenantId, t.tenantId)),
  );
  return g.id;
}

/** Connects a sandbox seller to the tenant and fills its GTIN pool; answers the shop group's id. */
export async function connectPublishingShop(
  s: TestServer,
  t: Pick<TestTenant, "tenantId" | "token">,
  seller: ConnectOptions,
  codes: string[],
): Promise<string> {
  const page = await connectShop(s, t.token, seller);
  if (!page.ok) throw new Error(`connect shop: ${page.message}`);
  if (codes.length) {
    const set = await s.api("POST", "/api/MeliCode/SetCodes", { token: t.token, body: { codes } });
    if (set.status !== 200) throw new Error(`SetCodes: ${set.raw}`);
  }
  return shopGroupOf(s, t);
}

/** `count` valid EAN-13 codes (GS1 check digit) from `seed`: distinct seeds give distinct codes. */
export function ean13s(count: number, seed = 750100000000): string[] {
  return Array.from({ length: count }, (_, i) => {
    const body = String(seed + i).padStart(12, "0");
    const sum = [...body].reduce((acc, d, k) => acc + Number(d) * (k % 2 ? 3 : 1), 0);
    return body + ((10 - (sum % 10)) % 10);
  });
}

/** The publish request's attribute values (cateInfo attrs) that fill a sandbox category's required attributes. */
export const requestAttrs = (category: Category) =>
  requiredAttributes(category).map((a) => ({
    id: a.id,
    valueId: (a as { value_id?: string }).value_id ?? null,
    valueName: (a as { value_name?: string }).value_name ?? null,
  }));

/** CreateOrUpdateProduct as the tenant; answers the product's id, throws when refused. */
export async function createProductAs(s: TestServer, t: Pick<TestTenant, "token">, body: Record<string, unknown>): Promise<string> {
  const res = await s.api("POST", "/api/Product/CreateOrUpdateProduct", { token: t.token, body });
  if (res.status !== 200) throw new Error(`CreateOrUpdateProduct: ${res.raw}`);
  return res.body.result.id;
}

/** A tenant's publish batch written straight to the database (for screens that read batches, not their publishing). */
export async function insertPublishBatch(
  s: TestServer,
  tenantId: string,
  values: Omit<Partial<typeof publishBatches.$inferInsert>, "tenantId" | "id"> & { status: number },
): Promise<string> {
  const id = randomUUID();
  await inScope(s.database.db, { tenantId }, (tx) =>
    tx.insert(publishBatches).values({ accountGroupId: randomUUID(), ...values, tenantId, id }),
  );
  return id;
}
