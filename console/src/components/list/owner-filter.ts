// The user picker of the lists: the accounts a main account may filter by (itself and its sub-accounts, from the user
// cache loaded at login), as a toolbar facet. Sub-accounts see only their own rows, so they get no such filter.
import { useUserStore } from "../../stores/user.ts";
import type { ListFilter } from "./list-toolbar.tsx";

export type UserOption = { id: string; name: string };

export function useOwnerFilterOptions(): UserOption[] | null {
  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const me = useUserStore((s) => s.userInfo);
  const subUsers = useUserStore((s) => s.userCache.subUsers);
  if (!isMainAccount) return null;
  const options: UserOption[] = [];
  if (me) options.push({ id: me.id, name: `${me.userName}（主账号）` });
  for (const u of subUsers) if (u.id !== me?.id) options.push({ id: u.id, name: u.name });
  return options;
}

/** The owner facet over the `user` param; null (no filter) without owner choices. */
export function ownerFilter(
  users: UserOption[] | null,
  view: { label: string; all: string; testId: string; itemTestId?: string },
): ListFilter | null {
  if (!users) return null;
  return { kind: "facet", key: "user", className: "w-40", ...view, options: users.map((u) => ({ value: u.id, label: u.name })) };
}
