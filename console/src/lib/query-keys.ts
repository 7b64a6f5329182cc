// The query-key roots that more than one feature reads or refreshes. Features do not import each other, so a feature's
// key factory starts from its root here, and another feature whose change moves that data invalidates the root by it
// (never by a key typed again).
export const sharedKeys = {
  /** Every setting: 系统配置's lists, single values (the FAQ, the free sub-account number), the public settings. */
  settings: ["settings"] as const,
  /** One setting's value by its key (GetValueByKey). */
  settingValue: (key: string) => [...sharedKeys.settings, "value", key] as const,
  /** The finance screens: the ledger and the balance, top-ups, withdrawals (a purchase elsewhere moves the balance). */
  finance: ["finance"] as const,
  /** The caller's products (a copy or an attribute fix elsewhere changes them). */
  products: ["products"] as const,
  /** The shop centre: the shops and their account groups. */
  shops: ["shops"] as const,
};
