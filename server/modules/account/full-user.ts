// The wire forms of a user row: the full user (spec §3, ABP's IdentityUserDto) and the caller's profile.
import { HOST_TENANT_ID, users } from "../../db/schema.ts";
import type { FullUser, Profile } from "#shared/contract/account.ts";

type UserRow = typeof users.$inferSelect;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function toFullUser(u: UserRow): FullUser {
  return {
    id: u.id,
    creationTime: u.creationTime.toISOString(),
    creatorId: u.creatorId,
    lastModificationTime: iso(u.lastModificationTime),
    lastModifierId: u.lastModifierId,
    isDeleted: u.isDeleted,
    tenantId: u.tenantId === HOST_TENANT_ID ? null : u.tenantId,
    userName: u.userName,
    name: u.name,
    surname: u.surname,
    email: u.email,
    emailConfirmed: u.emailConfirmed,
    phoneNumber: u.phoneNumber,
    phoneNumberConfirmed: u.phoneNumberConfirmed,
    isActive: u.isActive,
    lockoutEnabled: u.lockoutEnabled,
    lockoutEnd: iso(u.lockoutEnd),
    concurrencyStamp: u.concurrencyStamp,
    entityVersion: u.entityVersion,
  };
}

export function toProfile(u: UserRow): Profile {
  const extra = u.extraProperties;
  return {
    userName: u.userName,
    email: u.email,
    name: u.name,
    surname: u.surname,
    phoneNumber: u.phoneNumber,
    // Every account here signs in with a password; there are no external logins.
    isExternal: false,
    hasPassword: true,
    concurrencyStamp: u.concurrencyStamp,
    extraProperties: extra && typeof extra === "object" && !Array.isArray(extra) ? (extra as Record<string, unknown>) : {},
  };
}
