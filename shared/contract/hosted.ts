// Host administration of tenants (spec §7 Hosted): opening tenant accounts, the tenant list and lookups, remarks,
// unlocking and password resets. Every call here is host-only.
import { z } from "zod";
import { email, id, isoDate, pagedQuery, password, phone, queryBool, text, userName } from "./common.ts";

const guidLike = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A tenant (company) name: it is typed at login and sent in the `__tenant` header, so it may not look like a GUID (a
 * header value that does is read as a tenant id) nor be the client's no-tenant placeholder 11111111.
 */
export const tenantName = z
  .string()
  .trim()
  .min(2, "公司名至少2个字符")
  .max(64, "公司名最多64个字符")
  .regex(/^[\p{L}\p{N}_.-]+$/u, "公司名只能包含字母、数字和 _ . -")
  .refine((s) => !guidLike.test(s) && s !== "11111111", "公司名不可用");

export const openTenantAccountInput = z.object({
  tenantName,
  userName,
  pwd: password,
  email: email.nullable().optional(),
  phoneNumber: phone.nullable().optional(),
  remark: text(500).nullable().optional(),
  /** When the tenant's account stops working (login refused after it); null or absent: never. */
  accountExpireTime: isoDate.nullable().optional(),
});

const tenantSortFields = ["tenantName", "creationTime", "accountExpireTime", "balance", "isActive"] as const;

export const getTenantsQuery = pagedQuery(tenantSortFields).extend({
  /** Matches the tenant name, its remark, and its main account's user name, email and phone number. */
  Search: z.string().max(100).optional(),
  IsActive: queryBool.optional(),
});

/** One row of the host's tenant list: the tenant, its main account and how many sub-accounts it has. */
export const tenantListItem = z.object({
  id: z.string(),
  tenantName: z.string(),
  remark: z.string().nullable(),
  isActive: z.boolean(),
  creationTime: z.string(),
  accountExpireTime: z.string().nullable(),
  accountPaymentType: z.number().int(),
  balance: z.string(),
  /** The main account (null only for a tenant whose main account was removed). */
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  lockoutEnd: z.string().nullable(),
  subAccountCount: z.number().int(),
});
export type TenantListItem = z.infer<typeof tenantListItem>;

export const tenantLookup = z.object({ id: z.string(), name: z.string(), isActive: z.boolean() });
export type TenantLookup = z.infer<typeof tenantLookup>;

export const tenantNameItem = z.object({ id: z.string(), name: z.string() });

/** remark is required; an empty value clears it. */
export const editRemarkQuery = z.object({ id, remark: z.string().max(500) });

/** search is optional: without it the first 20 tenants by name are answered (a type-ahead with nothing typed). */
export const tenantNameSearchQuery = z.object({ search: z.string().max(64).optional() });

/** Without userId every user of the tenant is unlocked. */
export const unlockTenantQuery = z.object({ tenantId: id, userId: id.optional() });

/** UserId defaults to the tenant's main account; without Pwd a password is generated and answered once. */
export const resetTenantPasswordQuery = z.object({ TenantId: id, UserId: id.optional(), Pwd: password.optional() });
export const resetTenantPasswordResult = z.object({
  userName: z.string(),
  /** The generated password; null when the host gave one. */
  password: z.string().nullable(),
});
export type ResetTenantPasswordResult = z.infer<typeof resetTenantPasswordResult>;

export const tenantUserInfoQuery = z.object({ TenantId: id });
