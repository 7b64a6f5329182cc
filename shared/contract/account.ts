// Account calls on ABP's own paths (/api/account/...; spec §7 Account): self-service sign-up, password reset by emailed
// code, credential checks, logout and the caller's own profile. Also the full user (spec §3), shared with other areas.
import { z } from "zod";
import { email, id, password, phone, text, userName } from "./common.ts";
import { tenantName } from "./hosted.ts";

/** Full user (spec §3): ABP's IdentityUserDto. Host users carry tenantId null. */
export const fullUser = z.object({
  id: z.string(),
  creationTime: z.string(),
  creatorId: z.string().nullable(),
  lastModificationTime: z.string().nullable(),
  lastModifierId: z.string().nullable(),
  isDeleted: z.boolean(),
  tenantId: z.string().nullable(),
  userName: z.string(),
  name: z.string().nullable(),
  surname: z.string().nullable(),
  email: z.string().nullable(),
  emailConfirmed: z.boolean(),
  phoneNumber: z.string().nullable(),
  phoneNumberConfirmed: z.boolean(),
  isActive: z.boolean(),
  lockoutEnabled: z.boolean(),
  lockoutEnd: z.string().nullable(),
  concurrencyStamp: z.string(),
  entityVersion: z.number().int(),
});
export type FullUser = z.infer<typeof fullUser>;

/** POST /api/account/register: opens a new tenant (tenantName) with this user as its main account. */
export const registerInput = z.object({
  userName,
  emailAddress: email,
  password,
  /** ABP's client application name; accepted and not used. */
  appName: z.string().max(64).nullable().optional(),
  tenantName,
});

/** POST /api/account/send-password-reset-code; the tenant comes from the `__tenant` header (none: host). */
export const sendPasswordResetCodeInput = z.object({
  email,
  /** Accepted for wire compatibility and not used. */
  appName: z.string().max(64).nullable().optional(),
  /** Accepted for wire compatibility and never put into the mail (no attacker-chosen links in our mails). */
  returnUrl: z.string().max(2048).nullable().optional(),
});

/** The 6-digit code from the mail; anything else simply does not match. */
const resetToken = z.string().trim().min(1).max(64);

const oneOfUserIdOrEmail = <T extends { userId?: string | null; email?: string | null }>(v: T) => !!v.userId || !!v.email;
const oneOfMessage = { message: "userId 和 email 至少需要提供一个", path: ["userId"] };

export const verifyPasswordResetTokenInput = z
  .object({ userId: id.nullable().optional(), email: email.nullable().optional(), resetToken })
  .refine(oneOfUserIdOrEmail, oneOfMessage);

export const resetPasswordInput = z
  .object({ userId: id.nullable().optional(), email: email.nullable().optional(), resetToken, password })
  .refine(oneOfUserIdOrEmail, oneOfMessage);

/** POST /api/account/login and check-password. */
export const loginInput = z.object({
  userNameOrEmailAddress: z.string().trim().min(1).max(256),
  password: z.string().min(1).max(128),
  rememberMe: z.boolean().nullable().optional(),
});

/** ABP's AbpLoginResult: result is a LoginResultType (enums.ts), description says why in Chinese. */
export const loginResult = z.object({ result: z.number().int(), description: z.string() });
export type LoginResult = z.infer<typeof loginResult>;

/** The current user's profile (spec §3). */
export const profile = z.object({
  userName: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  surname: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  isExternal: z.boolean(),
  hasPassword: z.boolean(),
  concurrencyStamp: z.string(),
  extraProperties: z.record(z.string(), z.unknown()),
});
export type Profile = z.infer<typeof profile>;

/** A blank string in a profile form clears the field. */
const blankIsNull = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), schema.nullable().optional());

/** PUT /api/account/my-profile: absent fields stay as they are. */
export const updateProfileInput = z.object({
  userName: userName.optional(),
  email: blankIsNull(email),
  name: blankIsNull(text(64)),
  surname: blankIsNull(text(64)),
  phoneNumber: blankIsNull(phone),
  /** When given, a stale stamp answers 409. */
  concurrencyStamp: z.string().max(64).optional(),
});
