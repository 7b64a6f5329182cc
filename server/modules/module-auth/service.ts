// The authorization centre (spec §7 ModuleAuth; issue 19). Tenant B (the grantor) generates a one-time code; tenant A
// (the applicant) applies with it for some of B's modules until a date; B approves or rejects (the data is B's, so B
// decides, not the host), may revoke a grant in force, and A may re-apply after a rejection or an expiry.
//
// Rows: module_auths belongs to A (tenant_id) and is reached by B through a second row-level policy on auth_tenant_id
// (migration 0019), so every query here names its side explicitly: tenant_id = caller for A's work, auth_tenant_id =
// caller for B's. module_auth_codes belongs to B; ApplyAuth finds a code by its hash as erp_host (the explicit opt-out)
// for that one lookup, as A cannot know B before the code names it.
//
// Using a grant (withGrant): per request, the grant row is read in A's scope with the conditions in SQL (approved, not
// revoked, expire_time > now(), content holds what the call needs) and locked FOR SHARE, so a revoke waits for the
// request and the next request sees it; only then does the transaction's scope move to B for the read, and back to A.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, gt, ilike, inArray, lte, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Tx } from "../../db/client.ts";
import { containsPattern, orderBy } from "../../db/query.ts";
import { moduleAuthCodes, moduleAuths, products, tenants } from "../../db/schema.ts";
import { hostAllScope, setScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, conflict, forbidden, notFound } from "../../http/errors.ts";
import { ModuleAuthContent, ModuleAuthStatus, ProductStatus } from "#shared/contract/enums.ts";
import {
  AUTH_CODE_ALPHABET,
  AUTH_CODE_LENGTH,
  AUTH_CODE_TTL_HOURS,
  AuthDirection,
  formatAuthCode,
  MAX_AUTH_DAYS,
  normalizeAuthCode,
  type applyAuthInput,
  type auditAuthInput,
  type AuthCodeResult,
  type copyAuthProductsInput,
  type getApplysQuery,
  type getAuthProductQuery,
  type getAuthProductsInput,
  type getAuthsQuery,
  type ModuleAuth,
  type ModuleAuthPage,
  type reApplyAuthInput,
  type revokeAuthInput,
} from "#shared/contract/module-auth.ts";
import type { ProductDetail, ProductListItem, ProductPage } from "#shared/contract/product.ts";
import type { ProductService } from "../products/index.ts";

type AuthRow = typeof moduleAuths.$inferSelect;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** A grant must last at least this long from now when asked for (a date already past is a mistake). */
const MIN_AUTH_MS = HOUR_MS;

const applicant = alias(tenants, "applicant");
const grantor = alias(tenants, "grantor");
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The status as the wire shows it: an approved grant past its expiry reads Expired. */
function statusOf(r: AuthRow, now: Date): number {
  return r.auditStatus === ModuleAuthStatus.Approved && r.expireTime <= now ? ModuleAuthStatus.Expired : r.auditStatus;
}

function toWire(r: AuthRow, tenantName: string, authTenantName: string, now: Date): ModuleAuth {
  return {
    id: r.id,
    tenantId: r.tenantId,
    tenantName,
    authTenantId: r.authTenantId,
    authTenantName,
    expireTime: r.expireTime.toISOString(),
    authContent: r.authContent as string[],
    auditStatus: statusOf(r, now),
    remark: r.remark,
    reason: r.reason,
    creationTime: r.creationTime.toISOString(),
    auditTime: iso(r.auditTime),
    revokeTime: iso(r.revokeTime),
    applyCount: r.applyCount,
  };
}

/** The row with both tenants' names. */
async function withNames(tx: Tx, r: AuthRow): Promise<ModuleAuth> {
  const names = await tx
    .select({ id: tenants.id, name: tenants.name })
    .from(tenants)
    .where(inArray(tenants.id, [r.tenantId, r.authTenantId]));
  const name = (id: string) => names.find((n) => n.id === id)?.name ?? "";
  return toWire(r, name(r.tenantId), name(r.authTenantId), new Date());
}

/** A random code: 16 characters of the 32-letter alphabet (one byte's low 5 bits each, so no letter is favoured). */
function newCode(): string {
  const bytes = randomBytes(AUTH_CODE_LENGTH);
  let s = "";
  for (const b of bytes) s += AUTH_CODE_ALPHABET[b & 31];
  return s;
}

const hashCode = (normalized: string) => createHash("sha256").update(normalized).digest("hex");

/** The asked expiry: at least an hour from now, at most MAX_AUTH_DAYS. */
function checkExpiry(expireTime: Date, now: Date) {
  if (expireTime.getTime() < now.getTime() + MIN_AUTH_MS) throw badRequest("到期时间必须晚于当前时间至少 1 小时");
  if (expireTime.getTime() > now.getTime() + MAX_AUTH_DAYS * DAY_MS) throw badRequest(`授权期限最长 ${MAX_AUTH_DAYS} 天`);
}

/** Pending, or approved and not expired: A may hold one such application per grantor at a time. */
const openCondition = sql`(${moduleAuths.auditStatus} = ${ModuleAuthStatus.Pending} or (${moduleAuths.auditStatus} = ${ModuleAuthStatus.Approved} and ${moduleAuths.expireTime} > now()))`;

async function refuseSecondOpen(tx: Tx, tenantId: string, authTenantId: string, exceptId?: string) {
  const [open] = await tx
    .select({ id: moduleAuths.id })
    .from(moduleAuths)
    .where(
      and(
        eq(moduleAuths.tenantId, tenantId),
        eq(moduleAuths.authTenantId, authTenantId),
        openCondition,
        exceptId ? sql`${moduleAuths.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  if (open) throw conflict("已有向该公司的待审核或生效中的授权申请");
}

/** The list items without B's people and labels: a grant opens products, not who at B made them. */
function stripOwner<T extends ProductListItem>(p: T): T {
  return { ...p, owner: null, labelId: null, labelName: null };
}

/** What the authorization centre uses of the product service: the grantor's products read as the product list does. */
export type ModuleAuthDeps = { products: Pick<ProductService, "getProductsByPage" | "getProductById" | "checkProductLimit"> };

export function createModuleAuthService({ products: productService }: ModuleAuthDeps) {
  /** GenerateAuthCode: a one-time code of the caller's tenant, valid AUTH_CODE_TTL_HOURS; only its hash is stored. */
  async function generateAuthCode(ctx: CallContext): Promise<AuthCodeResult> {
    const u = ctx.user!;
    const code = newCode();
    const expireTime = new Date(Date.now() + AUTH_CODE_TTL_HOURS * HOUR_MS);
    await ctx.tx.insert(moduleAuthCodes).values({
      tenantId: u.tenantId,
      id: randomUUID(),
      codeHash: hashCode(code),
      expireTime,
      creatorId: u.id,
    });
    return { code: formatAuthCode(code), expireTime: expireTime.toISOString() };
  }

  /**
   * ApplyAuth: consumes B's code (unused, unexpired, not the caller's own) and records a pending application. A wrong,
   * used or expired code, or a second open application to the same tenant, is a 4xx and changes nothing (the code
   * stays unused: the whole call rolls back).
   */
  async function applyAuth(ctx: CallContext, body: z.output<typeof applyAuthInput>): Promise<ModuleAuth> {
    const u = ctx.user!;
    const now = new Date();
    checkExpiry(body.expireTime, now);
    const hash = hashCode(normalizeAuthCode(body.code)!);
    const applyId = randomUUID();
    // The one lookup across tenants: by the code's hash, as erp_host, then straight back to the caller's scope.
    await setScope(ctx.tx, hostAllScope);
    const [code] = await ctx.tx.select().from(moduleAuthCodes).where(eq(moduleAuthCodes.codeHash, hash)).limit(1).for("update");
    const [owner] = code
      ? await ctx.tx.select({ isActive: tenants.isActive }).from(tenants).where(eq(tenants.id, code.tenantId)).limit(1)
      : [];
    if (code && !code.usedTime && code.expireTime > now && code.tenantId !== u.tenantId && owner?.isActive) {
      await ctx.tx
        .update(moduleAuthCodes)
        .set({ usedTime: now, usedByTenantId: u.tenantId, applyId })
        .where(and(eq(moduleAuthCodes.tenantId, code.tenantId), eq(moduleAuthCodes.id, code.id)));
    }
    await setScope(ctx.tx, { tenantId: u.tenantId });
    if (!code || !owner?.isActive) throw badRequest("授权码无效");
    if (code.tenantId === u.tenantId) throw badRequest("不能使用本公司生成的授权码");
    if (code.usedTime) throw badRequest("授权码已被使用");
    if (code.expireTime <= now) throw badRequest("授权码已过期");
    await refuseSecondOpen(ctx.tx, u.tenantId, code.tenantId);
    const [row] = await ctx.tx
      .insert(moduleAuths)
      .values({
        tenantId: u.tenantId,
        id: applyId,
        authTenantId: code.tenantId,
        authContent: body.authContent,
        expireTime: body.expireTime,
        auditStatus: ModuleAuthStatus.Pending,
        remark: body.remark || null,
        applicantId: u.id,
        creationTime: now,
        creatorId: u.id,
      })
      .returning();
    return withNames(ctx.tx, row);
  }

  /** The caller's own application (as A), locked; 404 when it has none by that id. */
  async function mine(ctx: CallContext, id: string): Promise<AuthRow> {
    const [row] = await ctx.tx
      .select()
      .from(moduleAuths)
      .where(and(eq(moduleAuths.tenantId, ctx.user!.tenantId), eq(moduleAuths.id, id)))
      .limit(1)
      .for("update");
    if (!row) throw notFound("授权申请不存在");
    return row;
  }

  /** An application made to the caller (as B), locked; 404 when there is none by that id. */
  async function received(ctx: CallContext, id: string): Promise<AuthRow> {
    const [row] = await ctx.tx
      .select()
      .from(moduleAuths)
      .where(and(eq(moduleAuths.authTenantId, ctx.user!.tenantId), eq(moduleAuths.id, id)))
      .limit(1)
      .for("update");
    if (!row) throw notFound("授权申请不存在");
    return row;
  }

  /** ReApplyAuth: a rejected or expired application back to pending, with new content and date (no new code). */
  async function reApplyAuth(ctx: CallContext, body: z.output<typeof reApplyAuthInput>): Promise<ModuleAuth> {
    const u = ctx.user!;
    const now = new Date();
    const row = await mine(ctx, body.id);
    const status = statusOf(row, now);
    if (status !== ModuleAuthStatus.Rejected && status !== ModuleAuthStatus.Expired) {
      throw conflict("只有已驳回或已过期的申请可以重新申请");
    }
    checkExpiry(body.expireTime, now);
    await refuseSecondOpen(ctx.tx, u.tenantId, row.authTenantId, row.id);
    const [updated] = await ctx.tx
      .update(moduleAuths)
      .set({
        authContent: body.authContent,
        expireTime: body.expireTime,
        remark: body.remark || null,
        auditStatus: ModuleAuthStatus.Pending,
        reason: null,
        auditorId: null,
        auditTime: null,
        applyCount: sql`${moduleAuths.applyCount} + 1`,
        lastModificationTime: now,
        lastModifierId: u.id,
      })
      .where(and(eq(moduleAuths.tenantId, u.tenantId), eq(moduleAuths.id, row.id)))
      .returning();
    return withNames(ctx.tx, updated);
  }

  /** AuditAuth (B): approve a pending application as asked, or reject it with a reason. */
  async function auditAuth(ctx: CallContext, body: z.output<typeof auditAuthInput>): Promise<ModuleAuth> {
    const u = ctx.user!;
    const now = new Date();
    const row = await received(ctx, body.id);
    if (row.auditStatus !== ModuleAuthStatus.Pending) throw conflict("该申请已审核");
    const approve = body.auditStatus === ModuleAuthStatus.Approved;
    if (approve && row.expireTime <= now) throw badRequest("申请的到期时间已过，请对方重新申请");
    const [updated] = await ctx.tx
      .update(moduleAuths)
      .set({
        auditStatus: body.auditStatus,
        reason: approve ? null : body.reason!,
        auditorId: u.id,
        auditTime: now,
        lastModificationTime: now,
        lastModifierId: u.id,
      })
      .where(and(eq(moduleAuths.authTenantId, u.tenantId), eq(moduleAuths.id, row.id)))
      .returning();
    return withNames(ctx.tx, updated);
  }

  /** RevokeAuth (ours; B): ends a grant in force now. Revoking a revoked grant answers it again. */
  async function revokeAuth(ctx: CallContext, body: z.output<typeof revokeAuthInput>): Promise<ModuleAuth> {
    const u = ctx.user!;
    const now = new Date();
    const row = await received(ctx, body.id);
    if (row.auditStatus === ModuleAuthStatus.Revoked) return withNames(ctx.tx, row);
    if (statusOf(row, now) !== ModuleAuthStatus.Approved) throw conflict("只有生效中的授权可以撤销");
    const [updated] = await ctx.tx
      .update(moduleAuths)
      .set({
        auditStatus: ModuleAuthStatus.Revoked,
        reason: body.reason || null,
        revokeTime: now,
        lastModificationTime: now,
        lastModifierId: u.id,
      })
      .where(and(eq(moduleAuths.authTenantId, u.tenantId), eq(moduleAuths.id, row.id)))
      .returning();
    return withNames(ctx.tx, updated);
  }

  const sortColumns = { creationTime: moduleAuths.creationTime, expireTime: moduleAuths.expireTime };

  /** One side's applications with both names, filtered and paged. */
  async function page(
    ctx: CallContext,
    where: SQL,
    q: { SkipCount: number; MaxResultCount: number; Sorting?: string },
  ): Promise<ModuleAuthPage> {
    const now = new Date();
    const from = () =>
      ctx.tx
        .select({ a: moduleAuths, tenantName: applicant.name, authTenantName: grantor.name })
        .from(moduleAuths)
        .innerJoin(applicant, eq(applicant.id, moduleAuths.tenantId))
        .innerJoin(grantor, eq(grantor.id, moduleAuths.authTenantId))
        .where(where);
    const [{ n }] = await ctx.tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(moduleAuths)
      .innerJoin(applicant, eq(applicant.id, moduleAuths.tenantId))
      .innerJoin(grantor, eq(grantor.id, moduleAuths.authTenantId))
      .where(where);
    if (!n || q.SkipCount >= n) return { items: [], totalCount: n };
    const rows = await from()
      .orderBy(orderBy(q.Sorting, sortColumns, desc(moduleAuths.creationTime)), desc(moduleAuths.id))
      .limit(q.MaxResultCount)
      .offset(q.SkipCount);
    return { totalCount: n, items: rows.map((r) => toWire(r.a, r.tenantName, r.authTenantName, now)) };
  }

  /** The caller's side: its own applications (A), or those made to it (B). */
  const side = (ctx: CallContext, type: number) =>
    type === AuthDirection.Received ? eq(moduleAuths.authTenantId, ctx.user!.tenantId) : eq(moduleAuths.tenantId, ctx.user!.tenantId);

  /** GetApplys: every application of one side, any status (Expired derived), newest first. */
  function getApplys(ctx: CallContext, q: z.output<typeof getApplysQuery>): Promise<ModuleAuthPage> {
    const conditions: SQL[] = [side(ctx, q.Type)];
    if (q.AuditStatus === ModuleAuthStatus.Expired) {
      conditions.push(eq(moduleAuths.auditStatus, ModuleAuthStatus.Approved), lte(moduleAuths.expireTime, sql`now()`));
    } else if (q.AuditStatus === ModuleAuthStatus.Approved) {
      conditions.push(eq(moduleAuths.auditStatus, ModuleAuthStatus.Approved), gt(moduleAuths.expireTime, sql`now()`));
    } else if (q.AuditStatus !== undefined) {
      conditions.push(eq(moduleAuths.auditStatus, q.AuditStatus));
    }
    if (q.Search) {
      const other = q.Type === AuthDirection.Received ? applicant.name : grantor.name;
      conditions.push(ilike(other, containsPattern(q.Search)));
    }
    return page(ctx, and(...conditions)!, q);
  }

  /** GetAuths: the grants in force of one side (approved, not expired; a revoked grant is no longer Approved). */
  function getAuths(ctx: CallContext, q: z.output<typeof getAuthsQuery>): Promise<ModuleAuthPage> {
    return page(
      ctx,
      and(side(ctx, q.Type), eq(moduleAuths.auditStatus, ModuleAuthStatus.Approved), gt(moduleAuths.expireTime, sql`now()`))!,
      q,
    );
  }

  /**
   * Runs `fn` over the grantor's data through a grant of the caller's tenant that is in force and holds `need`, checked
   * in SQL against the grant row (locked FOR SHARE until the request ends). Without one: 403, nothing read. `fn` gets a
   * context in B's scope that sees B's live products as B's main account would; the scope returns to A afterwards.
   */
  async function withGrant<T>(
    ctx: CallContext,
    authId: string,
    need: ModuleAuthContent,
    fn: (granted: CallContext) => Promise<T>,
  ): Promise<T> {
    const u = ctx.user!;
    const [grant] = await ctx.tx
      .select({ authTenantId: moduleAuths.authTenantId })
      .from(moduleAuths)
      .where(
        and(
          eq(moduleAuths.tenantId, u.tenantId),
          eq(moduleAuths.id, authId),
          eq(moduleAuths.auditStatus, ModuleAuthStatus.Approved),
          gt(moduleAuths.expireTime, sql`now()`),
          sql`${moduleAuths.authContent} @> ${JSON.stringify([need])}::jsonb`,
        ),
      )
      .limit(1)
      .for("share");
    if (!grant) throw forbidden("没有该公司的有效授权，或授权内容不包含此操作");
    await setScope(ctx.tx, { tenantId: grant.authTenantId });
    const granted: CallContext = { ...ctx, tenantId: grant.authTenantId, user: { ...u, isMainAccount: true, isHost: false } };
    const out = await fn(granted);
    await setScope(ctx.tx, { tenantId: u.tenantId });
    return out;
  }

  /** GetAuthProducts (ours): the grantor's live products, the product list's filters and order. */
  async function getAuthProducts(ctx: CallContext, body: z.output<typeof getAuthProductsInput>): Promise<ProductPage> {
    const { authId, ...filter } = body;
    const answer = await withGrant(ctx, authId, ModuleAuthContent.Products, (c) => productService.getProductsByPage(c, filter));
    const page = JSON.parse(answer.json) as ProductPage;
    return { ...page, items: page.items.map(stripOwner) };
  }

  /** GetAuthProductById (ours): one of the grantor's live products. */
  async function getAuthProductById(ctx: CallContext, q: z.output<typeof getAuthProductQuery>): Promise<ProductDetail> {
    return stripOwner(await withGrant(ctx, q.authId, ModuleAuthContent.Products, (c) => productService.getProductById(c, q.id)));
  }

  /**
   * CopyAuthProducts (ours; needs products.copy, which needs products): the grantor's products read in its scope, then written in the caller's as new unedited
   * products of the caller (within its productCount limit), without B's label or collection link.
   */
  async function copyAuthProducts(ctx: CallContext, body: z.output<typeof copyAuthProductsInput>) {
    const u = ctx.user!;
    const unique = [...new Set(body.productIds)];
    const rows = await withGrant(ctx, body.authId, ModuleAuthContent.ProductsCopy, (c) =>
      c.tx
        .select()
        .from(products)
        .where(and(eq(products.tenantId, c.tenantId), eq(products.isDeleted, false), inArray(products.id, unique))),
    );
    if (!rows.length) throw notFound("商品不存在");
    await productService.checkProductLimit(ctx.tx, u.tenantId, u.id, rows.length);
    const order = new Map(unique.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    const now = new Date();
    const copies = rows.map((p) => ({
      ...p,
      tenantId: u.tenantId,
      id: randomUUID(),
      userId: u.id,
      sourceCollectionId: null,
      labelId: null,
      status: ProductStatus.Unedited,
      isDeleted: false,
      deleterId: null,
      deletionTime: null,
      creationTime: now,
      creatorId: u.id,
      lastModificationTime: null,
      lastModifierId: null,
      concurrencyStamp: randomUUID(),
    }));
    await ctx.tx.insert(products).values(copies);
    return { count: copies.length, productIds: copies.map((c) => c.id) };
  }

  return {
    generateAuthCode,
    applyAuth,
    reApplyAuth,
    auditAuth,
    revokeAuth,
    getApplys,
    getAuths,
    getAuthProducts,
    getAuthProductById,
    copyAuthProducts,
  };
}

export type ModuleAuthService = ReturnType<typeof createModuleAuthService>;
