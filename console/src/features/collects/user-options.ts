// The accounts a main account may filter the collection lists by: itself and its sub-accounts (from the user cache
// loaded at login). Sub-accounts see only their own rows, so they get no such filter.
import { useUserStore } from "../../stores/user.ts";

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
