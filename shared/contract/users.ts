// Users, sub-accounts and the client's user cache (spec §3 Users and tenants).
import { z } from "zod";
import { email, id, isoDate, pagedQuery, password, phone, queryBool, text, userName } from "./common.ts";

/** Tenant account summary (spec §3), the answer of GetMyInfo and of the host's tenant calls. */
export const tenantAccountSummary = z.object({
  id: z.string(),
  userName: z.string(),
  name: z.string().nullable(),
  tenantId: z.string().nullable(),
  tenantName: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  phoneNumberConfirmed: z.boolean(),
  isActive: z.boolean(),
  lockoutEnabled: z.boolean(),
  lockoutEnd: z.string().nullable(),
  isMainAccount: z.boolean(),
  subAccountType: z.number().int(),
  subAccountExpireTime: z.string().nullable(),
  balance: z.string(),
  subAccountCount: z.number().int(),
  isHost: z.boolean(),
  accountExpireTime: z.string().nullable(),
  accountPaymentType: z.number().int(),
  meliAccountCount: z.number().int(),
});
export type TenantAccountSummary = z.infer<typeof tenantAccountSummary>;

/** Client-kept user info (spec §3): what the console stores after login. */
export const userInfo = z.object({
  id: z.string(),
  userName: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  tenantId: z.string().nullable(),
  tenantName: z.string().nullable(),
  isMainAccount: z.boolean(),
  isHost: z.boolean(),
  roleList: z.array(z.string()),
  isShowPageCrwal: z.boolean(),
  limitMeliAccount: z.number().int().nullable(),
  collectCount: z.number().int().nullable(),
  productCount: z.number().int().nullable(),
});
export type UserInfo = z.infer<typeof userInfo>;

/** The user cache (spec §3 userCache): shops, sub users, module auths and account groups visible to the user. */
export const userInitCache = z.object({
  accs: z.array(z.object({ groupId: z.string(), name: z.string(), alias: z.string().nullable(), brand: z.string().nullable() })),
  subUsers: z.array(z.object({ id: z.string(), name: z.string() })),
  moduleAuths: z.array(z.object({ id: z.string(), name: z.string() })),
  groups: z.array(
    z.object({
      groupId: z.string(),
      name: z.string(),
      alias: z.string().nullable(),
      brand: z.string().nullable(),
      sites: z.array(z.number().int()),
    }),
  ),
});
export type UserInitCache = z.infer<typeof userInitCache>;

/** A row of the sub-account list (spec §3 user create/edit plus list fields). */
export const subUser = z.object({
  id: z.string(),
  userName: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  remark: z.string().nullable(),
  limitMeliAccount: z.number().int().nullable(),
  collectCount: z.number().int().nullable(),
  productCount: z.number().int().nullable(),
  isShowPageCrwal: z.boolean(),
  creationTime: z.string(),
  creatorId: z.string().nullable(),
  isActive: z.boolean(),
  isMainAccount: z.boolean(),
  concurrencyStamp: z.string(),
});
export type SubUser = z.infer<typeof subUser>;

const limit = z.number().int().min(0).max(100_000_000).nullable().optional();

export const createSubUserInput = z.object({
  userName,
  pwd: password,
  email: email.nullable().optional(),
  phoneNumber: phone.nullable().optional(),
  remark: text(500).nullable().optional(),
  limitMeliAccount: limit,
  collectCount: limit,
  productCount: limit,
  isShowPageCrwal: z.boolean().optional(),
});
export type CreateSubUserInput = z.input<typeof createSubUserInput>;

export const updateUserInput = z.object({
  id,
  email: email.nullable().optional(),
  phoneNumber: phone.nullable().optional(),
  remark: text(500).nullable().optional(),
  limitMeliAccount: limit,
  collectCount: limit,
  productCount: limit,
  isShowPageCrwal: z.boolean().optional(),
  /** When given, a stale stamp answers 409. */
  concurrencyStamp: z.string().optional(),
});
export type UpdateUserInput = z.input<typeof updateUserInput>;

export const getSubUsersQuery = pagedQuery(["userName", "creationTime", "email", "isActive"]).extend({
  Search: z.string().max(100).optional(),
  IsActive: queryBool.optional(),
});

export const subUserStatQuery = z.object({ StartDate: isoDate.optional(), EndDate: isoDate.optional(), UserId: id.optional() });
export const subUserStat = z.object({ userId: z.string(), userName: z.string(), productCount: z.number().int(), totalAmount: z.string() });

export const changePwdInput = z.object({ newPwd: password, oldPwd: z.string().min(1).max(128) });

export const resetPwdInput = z.object({ token: z.string().min(10).max(2000), newPwd: password });
export const enabledQuery = z.object({ userId: id, enable: queryBool });
