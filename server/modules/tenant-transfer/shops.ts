// Shop groups between tenants: what the host sees of a tenant's (GetTenantMeliAccountInfo), which groups a selection
// names, and the one transaction that moves them (MigrateAccount) or removes them (RemoveMeliAccount). A group keeps
// its id and so do its shops, listings, batches, call logs, orders and size charts: they leave the source as they
// arrive in the destination, owned there by the leg's owner; a listing's product and label are the destination's
// copies (products.ts, labels.ts), and the token pair is encrypted again for its new row.
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { badRequest, businessError } from "../../http/errors.ts";
import { rebindPair } from "../../integrations/mercadolibre/tokens.ts";
import type { SecretBox } from "../../security/secrets.ts";
import type { ShopSelection, TenantMeliAccountInfo } from "#shared/contract/tenant-transfer.ts";
import { mappedLabel } from "./labels.ts";
import type { Tenant } from "./parties.ts";
import { copyId, uuids, type Leg } from "./sql.ts";

type GroupRow = Omit<TenantMeliAccountInfo["groups"][number], "accounts">;
type AccountRow = TenantMeliAccountInfo["groups"][number]["accounts"][number] & { groupId: string };

/** The tenant's shop groups with their shops, what would move with each, and its users. */
export async function tenantShopInfo(tx: Tx, tenant: Tenant): Promise<TenantMeliAccountInfo> {
  const t = sql`${tenant.id}::uuid`;
  const groups = rowsOf<GroupRow>(
    await tx.execute(sql`select g.id as "groupId", g.cust_id as "custId", g.site_code as "siteCode", g.is_cbt as "isCbt",
        g.name, g.alias, g.owner_id as "ownerId", u.user_name as "ownerName", g.auth_status as "authStatus", g.sites,
        (select count(*)::int from listings l where l.tenant_id = ${t} and l.account_group_id = g.id) as "listingCount",
        (select count(distinct l.product_id)::int from listings l
          join products p on p.tenant_id = ${t} and p.id = l.product_id and not p.is_deleted
          where l.tenant_id = ${t} and l.account_group_id = g.id) as "productCount"
      from meli_account_groups g left join users u on u.tenant_id = ${t} and u.id = g.owner_id
      where g.tenant_id = ${t} order by g.creation_time, g.id`),
  );
  const accounts = rowsOf<AccountRow>(
    await tx.execute(sql`select a.group_id as "groupId", a.id, a.site, a.site_code as "siteCode", a.cust_id as "custId", a.name,
        a.alias, a.owner_id as "ownerId", u.user_name as "ownerName", a.is_enabled as "isEnabled"
      from meli_accounts a left join users u on u.tenant_id = ${t} and u.id = a.owner_id
      where a.tenant_id = ${t} order by a.site, a.id`),
  );
  const users = rowsOf<{ id: string; userName: string; isMainAccount: boolean }>(
    await tx.execute(sql`select id, user_name as "userName", is_main_account as "isMainAccount" from users
      where tenant_id = ${t} and not is_deleted order by is_main_account desc, creation_time, id`),
  );
  return {
    tenantId: tenant.id,
    tenantName: tenant.name,
    users,
    groups: groups.map((g) => ({
      ...g,
      sites: (g.sites as unknown as number[]) ?? [],
      accounts: accounts.filter((a) => a.groupId === g.groupId).map(({ groupId: _, ...a }) => a),
    })),
  };
}

/** Ids of the tenant's rows among `ids` in `table` (id column `column`): refuses any that is not the tenant's. */
async function ownIds(tx: Tx, tenantId: string, table: "meli_account_groups" | "meli_accounts", ids: string[], what: string) {
  if (!ids.length) return [];
  const rows = rowsOf<{ id: string; groupId: string }>(
    await tx.execute(sql`select id, ${sql.raw(table === "meli_accounts" ? "group_id" : "id")} as "groupId" from ${sql.raw(table)}
      where tenant_id = ${tenantId}::uuid and id = any(${uuids(ids)})`),
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((i) => !found.has(i));
  if (missing.length) throw badRequest(`${what}不属于该公司：${missing.slice(0, 3).join(", ")}`);
  return rows.map((r) => r.groupId);
}

/** The tenant's shop groups a selection names (shared/contract/tenant-transfer.ts shopSelection), in a stable order. */
export async function selectShopGroups(tx: Tx, tenantId: string, s: ShopSelection): Promise<{ id: string; custId: string }[]> {
  const named = new Set([
    ...(await ownIds(tx, tenantId, "meli_account_groups", [...s.groupIds, ...(s.accountGroupId ? [s.accountGroupId] : [])], "店铺组")),
    ...(await ownIds(tx, tenantId, "meli_accounts", s.selfIds, "店铺")),
  ]);
  if (!named.size && !s.sites.length) throw badRequest("请选择店铺组、店铺或站点");
  const t = sql`${tenantId}::uuid`;
  const conditions = [sql`g.tenant_id = ${t}`];
  if (named.size) conditions.push(sql`g.id = any(${uuids([...named])})`);
  if (s.sites.length)
    conditions.push(sql`exists (select 1 from meli_accounts a where a.tenant_id = ${t} and a.group_id = g.id
      and a.site = any(string_to_array(${s.sites.join(",")}::text, ',')::int[]))`);
  if (s.protectedCustIds.length) {
    const protectedIds = sql`string_to_array(${s.protectedCustIds.join(",")}::text, ',')`;
    conditions.push(sql`not (g.cust_id = any(${protectedIds}) or exists (select 1 from meli_accounts a
      where a.tenant_id = ${t} and a.group_id = g.id and a.cust_id = any(${protectedIds})))`);
  }
  const groups = rowsOf<{ id: string; custId: string }>(
    await tx.execute(sql`select g.id, g.cust_id as "custId" from meli_account_groups g where ${sql.join(conditions, sql` and `)}
      order by g.id`),
  );
  if (!groups.length) throw badRequest("没有符合条件的店铺组（可能都在受保护的卖家之列）");
  return groups;
}

/** A seller is connected to one tenant at a time: the destination may not have it already. */
export async function refuseSellersAlreadyThere(tx: Tx, destTenantId: string, custIds: string[]): Promise<void> {
  const [taken] = rowsOf<{ name: string }>(
    await tx.execute(sql`select name from meli_account_groups where tenant_id = ${destTenantId}::uuid
      and cust_id = any(string_to_array(${custIds.join(",")}::text, ',')) limit 1`),
  );
  if (taken) throw businessError(`目标公司已连接卖家 ${taken.name}，同一卖家只能属于一个公司`);
}

type Moved = { groups: number; listings: number };

export type MoveShops = { leg: Leg; groupIds: string[]; isMigrateStat: boolean };

/**
 * Moves the groups still in the source (locked first), with everything tied to them, in the caller's transaction.
 * Answers how many groups and listings moved.
 */
export async function moveShopGroups(tx: Tx, secrets: SecretBox, m: MoveShops): Promise<Moved> {
  const { leg } = m;
  const src = sql`${leg.src}::uuid`;
  const dest = sql`${leg.dest}::uuid`;
  const owner = sql`${leg.owner}::uuid`;
  const locked = rowsOf<{ id: string; custId: string; accessToken: string; refreshToken: string }>(
    await tx.execute(sql`select id, cust_id as "custId", access_token as "accessToken", refresh_token as "refreshToken"
      from meli_account_groups where tenant_id = ${src} and id = any(${uuids(m.groupIds)}) order by id for update`),
  );
  if (!locked.length) return { groups: 0, listings: 0 };
  await refuseSellersAlreadyThere(
    tx,
    leg.dest,
    locked.map((g) => g.custId),
  );
  const inGroups = groupsIn(leg.src, locked);
  for (const row of locked) {
    let pair: { accessToken: string; refreshToken: string };
    try {
      pair = rebindPair(secrets, { tenantId: leg.src, groupId: row.id }, { tenantId: leg.dest, groupId: row.id }, row);
    } catch {
      throw businessError("店铺授权令牌无法读取，请卖家重新授权后再迁移");
    }
    await tx.execute(sql`update meli_account_groups set tenant_id = ${dest}, owner_id = ${owner}, access_token = ${pair.accessToken},
        refresh_token = ${pair.refreshToken}, refresh_lease_until = null, refresh_lease_id = null, creator_id = ${owner},
        last_modifier_id = null, last_modification_time = now(), concurrency_stamp = gen_random_uuid()::text
      where tenant_id = ${src} and id = ${row.id}::uuid`);
  }
  await tx.execute(sql`update meli_accounts set tenant_id = ${dest}, owner_id = ${owner}, creator_id = ${owner}, last_modifier_id = null,
      concurrency_stamp = gen_random_uuid()::text where ${inGroups("group_id")}`);
  await tx.execute(sql`update meli_size_charts set tenant_id = ${dest} where ${inGroups("account_group_id")}`);
  // A notification the destination has stored already (the same _id) stays there once.
  await tx.execute(sql`delete from meli_notifications n where ${inGroups("group_id", "n")} and exists (select 1 from meli_notifications d
    where d.tenant_id = ${dest} and d.notification_id = n.notification_id)`);
  await tx.execute(sql`update meli_notifications set tenant_id = ${dest} where ${inGroups("group_id")}`);
  const listed = m.isMigrateStat ? await moveListings(tx, leg, inGroups) : await dropListings(tx, inGroups);
  await moveOrders(tx, leg, inGroups, m.isMigrateStat);
  return { groups: locked.length, listings: listed };
}

/** `[alias.]tenant_id = <tenant> and [alias.]<column> = any(<the groups>)`: a row of one of the groups. */
type InGroups = (column: string, alias?: string) => SQL;
const groupsIn =
  (tenantId: string, groups: { id: string }[]): InGroups =>
  (column, alias) => {
    const a = alias ? `${alias}.` : "";
    return sql`${sql.raw(a)}tenant_id = ${tenantId}::uuid and ${sql.raw(a + column)} = any(${uuids(groups.map((r) => r.id))})`;
  };

/** The destination's copy of a source product (null when it has none). */
const copiedProduct = (leg: Leg, column: string) =>
  sql`(select d.id from products d where d.tenant_id = ${leg.dest}::uuid and d.id = ${copyId(leg, sql.raw(column))})`;

async function moveListings(tx: Tx, leg: Leg, inGroups: InGroups): Promise<number> {
  const dest = sql`${leg.dest}::uuid`;
  const owner = sql`${leg.owner}::uuid`;
  const moved = rowsOf<{ n: number }>(
    await tx.execute(sql`with m as (update listings l set tenant_id = ${dest}, user_id = ${owner}, creator_id = ${owner},
        last_modifier_id = null, product_id = ${copiedProduct(leg, "l.product_id")},
        product_label_id = ${mappedLabel(leg, sql`l.product_label_id`)}
      where ${inGroups("account_group_id", "l")} returning 1) select count(*)::int as n from m`),
  );
  await tx.execute(sql`update publish_batches set tenant_id = ${dest}, creator_id = ${owner} where ${inGroups("account_group_id")}`);
  await tx.execute(sql`update meli_call_logs set tenant_id = ${dest}, creator_id = ${owner} where ${inGroups("account_group_id")}`);
  return moved[0]?.n ?? 0;
}

/** Without isMigrateStat the listings do not move: the source no longer has their shops, so they go. */
async function dropListings(tx: Tx, inGroups: InGroups): Promise<number> {
  await tx.execute(sql`delete from meli_call_logs where ${inGroups("account_group_id")}`);
  await tx.execute(sql`delete from listings where ${inGroups("account_group_id")}`);
  await tx.execute(sql`delete from publish_batches where ${inGroups("account_group_id")}`);
  return 0;
}

/** Orders follow their shop; one the destination has already (the same Mercado Libre order) is dropped from the source. */
async function moveOrders(tx: Tx, leg: Leg, inGroups: InGroups, listingsMoved: boolean): Promise<void> {
  const src = sql`${leg.src}::uuid`;
  const dest = sql`${leg.dest}::uuid`;
  const owner = sql`${leg.owner}::uuid`;
  const there = sql`exists (select 1 from orders d where d.tenant_id = ${dest} and d.meli_order_id = o.meli_order_id)`;
  await tx.execute(sql`delete from order_items i using orders o where i.tenant_id = ${src} and o.tenant_id = ${src}
    and o.id = i.order_id and ${inGroups("account_group_id", "o")} and ${there}`);
  await tx.execute(sql`delete from orders o where ${inGroups("account_group_id", "o")} and ${there}`);
  await tx.execute(sql`update order_items i set tenant_id = ${dest}, product_id = ${copiedProduct(leg, "i.product_id")}
      ${listingsMoved ? sql`` : sql`, listing_id = null`}
    where i.tenant_id = ${src} and i.order_id in (select o.id from orders o where ${inGroups("account_group_id", "o")})`);
  await tx.execute(sql`update orders set tenant_id = ${dest}, user_id = ${owner}, creator_id = ${owner}, last_modifier_id = null
    where ${inGroups("account_group_id")}`);
}

/** RemoveMeliAccount: the groups and what works only through them; orders stay (their shop reads 未知店铺), products stay. */
export async function removeShopGroups(tx: Tx, tenantId: string, groupIds: string[]): Promise<Moved> {
  const t = sql`${tenantId}::uuid`;
  const locked = rowsOf<{ id: string }>(
    await tx.execute(
      sql`select id from meli_account_groups where tenant_id = ${t} and id = any(${uuids(groupIds)}) order by id for update`,
    ),
  );
  if (!locked.length) return { groups: 0, listings: 0 };
  const inGroups = groupsIn(tenantId, locked);
  const [n] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from listings where ${inGroups("account_group_id")}`));
  await dropListings(tx, inGroups);
  await tx.execute(sql`delete from meli_size_charts where ${inGroups("account_group_id")}`);
  await tx.execute(sql`delete from meli_notifications where ${inGroups("group_id")}`);
  await tx.execute(sql`delete from meli_accounts where ${inGroups("group_id")}`);
  await tx.execute(sql`delete from meli_account_groups where ${inGroups("id")}`);
  return { groups: locked.length, listings: n?.n ?? 0 };
}
