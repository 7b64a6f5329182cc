// Moving and copying between tenants (spec §7 Hosted, Product MigrateToProduct / MigrateFromProduct; issue 31), for
// the host: each call checks the tenants, users, shop groups and products it names before it writes anything, then
// starts a task (runner.ts) whose steps (steps.ts) do the work set-based. MigrateWord and the shop info answer at once.
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf, type Tx } from "../../db/client.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest } from "../../http/errors.ts";
import { TaskType } from "#shared/contract/enums.ts";
import type {
  copyGroupsToTenantQuery,
  copyToTenantQuery,
  migrateAccountInput,
  migrateFromProductQuery,
  migrateToProductBody,
  migrateWordQuery,
  removeMeliAccountInput,
  tenantMeliAccountInfoInput,
} from "#shared/contract/tenant-transfer.ts";
import { countCollects } from "./collects.ts";
import { legOf, mainAccountOf, tenantById, tenantPair, userOf } from "./parties.ts";
import { countProducts, type ProductFilter } from "./products.ts";
import { createTransferRunner, type TransferRunnerDeps } from "./runner.ts";
import { refuseSellersAlreadyThere, selectShopGroups, tenantShopInfo } from "./shops.ts";
import { uuids, type Leg } from "./sql.ts";
import { countLabels, type Step } from "./steps.ts";
import { copyWords } from "./words.ts";

type Input<S extends z.ZodType> = z.output<S>;

/** The chosen products must be live products of the source: otherwise nothing starts. */
async function checkProducts(tx: Tx, leg: Leg, productIds: string[]): Promise<{ productIds: string[] }> {
  const filter = { productIds: [...new Set(productIds)] };
  const found = await countProducts(tx, leg, filter);
  if (found < filter.productIds.length) throw badRequest(`有 ${filter.productIds.length - found} 个商品不属于源公司或已删除`);
  return filter;
}

/** A products copy: the labels they carry, then the products. */
async function productSteps(tx: Tx, leg: Leg, filter: ProductFilter, move: boolean): Promise<Step[]> {
  const labels = { of: "products", filter } as const;
  return [
    { kind: "labels", leg, labels, total: await countLabels(tx, leg, labels) },
    { kind: "products", leg, filter, deleteSource: move ? "all" : "no", total: await countProducts(tx, leg, filter) },
  ];
}

async function listingsOf(tx: Tx, tenantId: string, groupIds: string[]): Promise<number> {
  const [r] = rowsOf<{ n: number }>(
    await tx.execute(
      sql`select count(*)::int as n from listings where tenant_id = ${tenantId}::uuid and account_group_id = any(${uuids(groupIds)})`,
    ),
  );
  return r?.n ?? 0;
}

export function createTenantTransferService(deps: TransferRunnerDeps) {
  const runner = createTransferRunner(deps);

  async function getTenantMeliAccountInfo(ctx: CallContext, body: Input<typeof tenantMeliAccountInfoInput>) {
    return tenantShopInfo(ctx.tx, await tenantById(ctx.tx, body.tenantId));
  }

  /** The shop groups with their shops, listings and orders; the products those listings came from follow them. */
  async function migrateAccount(ctx: CallContext, body: Input<typeof migrateAccountInput>) {
    const { src, dest } = await tenantPair(ctx.tx, body.srcTenantId, body.destTenantId);
    const owner = body.userId ? await userOf(ctx.tx, dest.id, body.userId, "目标") : await mainAccountOf(ctx.tx, dest.id);
    const leg = { src: src.id, dest: dest.id, owner };
    const groups = await selectShopGroups(ctx.tx, src.id, body);
    await refuseSellersAlreadyThere(
      ctx.tx,
      dest.id,
      groups.map((g) => g.custId),
    );
    const groupIds = groups.map((g) => g.id);
    const steps: Step[] = [];
    if (body.isMigrateStat) {
      const labels = { of: "shops", groupIds } as const;
      const filter = { listedByGroups: groupIds };
      steps.push(
        { kind: "labels", leg, labels, total: await countLabels(ctx.tx, leg, labels) },
        {
          kind: "products",
          leg,
          filter,
          deleteSource: body.isDeleteProduct ? "unlisted" : "no",
          total: await countProducts(ctx.tx, leg, filter),
        },
      );
    }
    steps.push({
      kind: "moveShops",
      move: { leg, groupIds, isMigrateStat: body.isMigrateStat },
      total: await listingsOf(ctx.tx, src.id, groupIds),
    });
    return runner.startTransfer(ctx, TaskType.MigrateAccount, `迁移店铺：${src.name} → ${dest.name}（${groups.length} 个店铺组）`, steps);
  }

  async function removeMeliAccount(ctx: CallContext, body: Input<typeof removeMeliAccountInput>) {
    const tenant = await tenantById(ctx.tx, body.tenantId);
    const groupIds = (await selectShopGroups(ctx.tx, tenant.id, body)).map((g) => g.id);
    const steps: Step[] = [{ kind: "removeShops", tenantId: tenant.id, groupIds, total: await listingsOf(ctx.tx, tenant.id, groupIds) }];
    return runner.startTransfer(ctx, TaskType.Maintenance, `移除店铺：${tenant.name}（${groupIds.length} 个店铺组）`, steps);
  }

  async function copyProductsToTenant(ctx: CallContext, q: Input<typeof copyToTenantQuery>) {
    const { leg, src, dest, srcUserId } = await legOf(ctx.tx, q);
    const steps = await productSteps(ctx.tx, leg, { srcUserId }, q.isDeleteSrc);
    return runner.startTransfer(
      ctx,
      TaskType.CopyBetweenTenants,
      `${q.isDeleteSrc ? "转移" : "复制"}商品：${src.name} → ${dest.name}`,
      steps,
    );
  }

  async function copyCollectsToTenant(ctx: CallContext, q: Input<typeof copyToTenantQuery>) {
    const { leg, src, dest, srcUserId } = await legOf(ctx.tx, q);
    const labels = { of: "collects", srcUserId } as const;
    const steps: Step[] = [
      { kind: "labels", leg, labels, total: await countLabels(ctx.tx, leg, labels) },
      { kind: "collects", leg, srcUserId, move: q.isDeleteSrc, total: await countCollects(ctx.tx, leg, srcUserId) },
    ];
    const title = `${q.isDeleteSrc ? "转移" : "复制"}采集商品：${src.name} → ${dest.name}`;
    return runner.startTransfer(ctx, TaskType.CopyBetweenTenants, title, steps);
  }

  /** The group copy: label groups and labels, all of them or those the source user's products carry. */
  async function copyGroupsToTenant(ctx: CallContext, q: Input<typeof copyGroupsToTenantQuery>) {
    const { leg, src, dest, srcUserId } = await legOf(ctx.tx, q);
    const labels = srcUserId ? ({ of: "products", filter: { srcUserId } } as const) : ({ of: "all" } as const);
    const steps: Step[] = [{ kind: "labels", leg, labels, total: await countLabels(ctx.tx, leg, labels) }];
    return runner.startTransfer(ctx, TaskType.CopyBetweenTenants, `复制标签分组：${src.name} → ${dest.name}`, steps);
  }

  async function migrateWord(ctx: CallContext, q: Input<typeof migrateWordQuery>) {
    const { src, dest } = await tenantPair(ctx.tx, q.srcTenantId, q.destTenantId);
    return copyWords(ctx.tx, { src: src.id, dest: dest.id, owner: await mainAccountOf(ctx.tx, dest.id) });
  }

  async function migrateToProduct(ctx: CallContext, body: Input<typeof migrateToProductBody>) {
    const { leg, src, dest } = await legOf(ctx.tx, body);
    const filter = await checkProducts(ctx.tx, leg, body.productIds);
    const steps = await productSteps(ctx.tx, leg, filter, body.isDeleteSrc);
    const title = `${body.isDeleteSrc ? "转移" : "复制"}选中商品：${src.name} → ${dest.name}（${filter.productIds.length} 个）`;
    return runner.startTransfer(ctx, TaskType.CopyBetweenTenants, title, steps);
  }

  /** The chosen products of one tenant into each of several, each copy owned by that tenant's main account. */
  async function migrateFromProduct(ctx: CallContext, q: Input<typeof migrateFromProductQuery>) {
    const src = await tenantById(ctx.tx, q.SrcTenantId);
    const legs: Leg[] = [];
    for (const destId of new Set(q.TenantIds)) {
      const { dest } = await tenantPair(ctx.tx, src.id, destId);
      legs.push({ src: src.id, dest: dest.id, owner: await mainAccountOf(ctx.tx, dest.id) });
    }
    const filter = await checkProducts(ctx.tx, legs[0], q.ProductIds);
    const steps: Step[] = [];
    for (const leg of legs) steps.push(...(await productSteps(ctx.tx, leg, filter, false)));
    const title = `分发商品：${src.name} → ${legs.length} 个公司（${filter.productIds.length} 个商品）`;
    return runner.startTransfer(ctx, TaskType.CopyBetweenTenants, title, steps);
  }

  return {
    getTenantMeliAccountInfo,
    migrateAccount,
    removeMeliAccount,
    copyProductsToTenant,
    copyCollectsToTenant,
    copyGroupsToTenant,
    migrateWord,
    migrateToProduct,
    migrateFromProduct,
    workers: runner.workers,
  };
}

export type TenantTransferService = ReturnType<typeof createTenantTransferService>;
