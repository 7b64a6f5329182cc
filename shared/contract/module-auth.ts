// The authorization centre (issue 19; spec §2 /module-auth/*, §3 Auth grant between tenants and Module auth, §7
// ModuleAuth). Tenant B (the grantor) generates a one-time code and gives it to tenant A (the applicant); A applies with
// it for some of B's modules (authContent) until a date; B approves or rejects, and may revoke a grant before it ends.
// A grant in force lets A's users read B's products (and copy them into A's own list when granted), nothing else.
// Calls beyond the spec's six (RevokeAuth, GetAuthProducts, GetAuthProductById, CopyAuthProducts) are ours
// (docs/decisions.md, issue 19 authorization centre).
import { z } from "zod";
import { id, isoDate, MAX_PAGE_SIZE, pagedQuery, pagedResult, queryInt } from "./common.ts";
import { ModuleAuthContent, ModuleAuthStatus } from "./enums.ts";
import { getProductsByPageInput } from "./product.ts";

/** How long a generated code may be used, and the longest a grant may be asked for. */
export const AUTH_CODE_TTL_HOURS = 24;
export const MAX_AUTH_DAYS = 366;

// Crockford base 32: no I, L, O, U, so a code read aloud or typed survives; 16 characters carry 80 random bits.
export const AUTH_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const AUTH_CODE_LENGTH = 16;

/**
 * A typed code as the server compares it: upper case, without spaces and dashes, O read as 0 and I/L as 1; null when
 * it is not 16 characters of the alphabet.
 */
export function normalizeAuthCode(input: string): string | null {
  const s = input.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (s.length !== AUTH_CODE_LENGTH) return null;
  for (const ch of s) if (!AUTH_CODE_ALPHABET.includes(ch)) return null;
  return s;
}

/** 16 characters as XXXX-XXXX-XXXX-XXXX for reading. */
export const formatAuthCode = (code: string): string => code.match(/.{1,4}/g)!.join("-");

const contentValues = Object.values(ModuleAuthContent);

/** What a grant opens: one or more ModuleAuthContent values, each once; copying needs reading. */
const authContent = z
  .array(z.enum(contentValues as [ModuleAuthContent, ...ModuleAuthContent[]], { error: `授权内容必须是 ${contentValues.join(", ")} 之一` }))
  .min(1, "请选择授权内容")
  .max(contentValues.length)
  .refine((v) => new Set(v).size === v.length, "授权内容重复")
  .refine((v) => !v.includes(ModuleAuthContent.ProductsCopy) || v.includes(ModuleAuthContent.Products), "复制商品需要同时授权查看商品");

/** Chinese names of the contents, for screens. */
export const authContentNames: Record<string, string> = {
  [ModuleAuthContent.Products]: "查看商品",
  [ModuleAuthContent.ProductsCopy]: "复制商品",
};

/** Chinese names of the statuses. */
export const moduleAuthStatusNames: Record<number, string> = {
  [ModuleAuthStatus.Pending]: "待审核",
  [ModuleAuthStatus.Approved]: "已授权",
  [ModuleAuthStatus.Rejected]: "已驳回",
  [ModuleAuthStatus.Revoked]: "已撤销",
  [ModuleAuthStatus.Expired]: "已过期",
};

/** An application or grant (spec §3 Auth grant between tenants), with what the screens need beyond it. */
export const moduleAuth = z.object({
  id: z.string(),
  /** The applicant (A). */
  tenantId: z.string(),
  tenantName: z.string(),
  /** The grantor (B), whose data it opens. */
  authTenantId: z.string(),
  authTenantName: z.string(),
  expireTime: z.string(),
  /** ModuleAuthContent values. */
  authContent: z.array(z.string()),
  /** ModuleAuthStatus; Expired for an approved grant past its expireTime. */
  auditStatus: z.number().int(),
  /** A's note to B. */
  remark: z.string().nullable(),
  /** B's reason for rejecting or revoking. */
  reason: z.string().nullable(),
  creationTime: z.string(),
  auditTime: z.string().nullable(),
  revokeTime: z.string().nullable(),
  /** 1 + the times A re-applied. */
  applyCount: z.number().int(),
});
export type ModuleAuth = z.infer<typeof moduleAuth>;

/** GenerateAuthCode (PUT, no input): a new one-time code, shown once (only its hash is kept). */
export const authCodeResult = z.object({ code: z.string(), expireTime: z.string() });
export type AuthCodeResult = z.infer<typeof authCodeResult>;

const remark = z.string().trim().max(200, "备注最多 200 个字").optional();

/** ApplyAuth: B's code, the modules asked for and until when. */
export const applyAuthInput = z.object({
  // 16 characters, with up to three dashes or spaces between groups.
  code: z
    .string()
    .min(AUTH_CODE_LENGTH, "授权码格式不正确（16 位字母和数字）")
    .max(AUTH_CODE_LENGTH + 6, "授权码格式不正确（16 位字母和数字）")
    .regex(/^[0-9A-Za-z\s-]+$/, "授权码格式不正确（16 位字母和数字）")
    .refine((v) => normalizeAuthCode(v) !== null, "授权码格式不正确（16 位字母和数字）"),
  authContent,
  expireTime: isoDate,
  remark,
});
export type ApplyAuthInput = z.input<typeof applyAuthInput>;

/** ReApplyAuth: a rejected or expired application submitted again (no new code), with new content and date. */
export const reApplyAuthInput = z.object({ id, authContent, expireTime: isoDate, remark });
export type ReApplyAuthInput = z.input<typeof reApplyAuthInput>;

/** AuditAuth (the grantor): approve (2) or reject (3, a reason required). Only a pending application. */
export const auditAuthInput = z
  .object({
    id,
    auditStatus: z
      .number()
      .int()
      .refine((v) => v === ModuleAuthStatus.Approved || v === ModuleAuthStatus.Rejected, "auditStatus must be 2 (approve) or 3 (reject)"),
    reason: z.string().trim().max(200, "原因最多 200 个字").optional(),
  })
  .refine((v) => v.auditStatus !== ModuleAuthStatus.Rejected || !!v.reason, { message: "驳回时请填写原因", path: ["reason"] });
export type AuditAuthInput = z.input<typeof auditAuthInput>;

/** RevokeAuth (ours; the grantor): ends a grant in force before its expireTime. */
export const revokeAuthInput = z.object({ id, reason: z.string().trim().max(200, "原因最多 200 个字").optional() });
export type RevokeAuthInput = z.input<typeof revokeAuthInput>;

/** Which side of the applications a list shows: those the caller made (as A), or received (as B). */
export const AuthDirection = { Made: 1, Received: 2 } as const;
export type AuthDirection = (typeof AuthDirection)[keyof typeof AuthDirection];

const direction = queryInt()
  .refine((v) => v === AuthDirection.Made || v === AuthDirection.Received, "Type must be 1 (made) or 2 (received)")
  .default(AuthDirection.Made);
const statusValues = Object.values(ModuleAuthStatus) as number[];

/** GetApplys: Type 1 the caller's applications, 2 those made to it; AuditStatus (Expired derived), Search (the other tenant's name). */
export const getApplysQuery = pagedQuery(["creationTime", "expireTime"]).extend({
  Type: direction,
  AuditStatus: queryInt()
    .refine((v) => statusValues.includes(v), `AuditStatus must be one of ${statusValues.join(", ")}`)
    .optional(),
  Search: z.string().trim().max(100).optional(),
});
export const moduleAuthPage = pagedResult(moduleAuth);
export type ModuleAuthPage = z.infer<typeof moduleAuthPage>;

/** GetAuths: the grants in force, Type 1 held by the caller (it may use them), 2 given by it. */
export const getAuthsQuery = pagedQuery(["creationTime", "expireTime"]).extend({ Type: direction });

/** GetAuthProducts (ours): the grantor's product list through a grant (authId), with the product list's filters. */
export const getAuthProductsInput = getProductsByPageInput.omit({ tenantId: true, userId: true, labelId: true }).extend({ authId: id });

/** GetAuthProductById (ours): one of the grantor's products through a grant. */
export const getAuthProductQuery = z.object({ authId: id, id });

/** CopyAuthProducts (ours): the grantor's products copied into the caller's own list (needs products.copy). */
export const copyAuthProductsInput = z.object({ authId: id, productIds: z.array(id).min(1).max(MAX_PAGE_SIZE) });
export type CopyAuthProductsInput = z.input<typeof copyAuthProductsInput>;
