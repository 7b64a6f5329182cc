// Config store (spec §3): the tenant's collection settings (filled by the collection area) and the language product
// titles are edited in.
import { create } from "zustand";

type ConfigState = { collectConfig: Record<string, unknown> | null; productTitleLanguage: string };
type ConfigActions = { setCollectConfig(c: Record<string, unknown> | null): void; setProductTitleLanguage(l: string): void; reset(): void };

const initial: ConfigState = { collectConfig: null, productTitleLanguage: "es" };

export const useConfigStore = create<ConfigState & ConfigActions>()((set) => ({
  ...initial,
  setCollectConfig: (collectConfig) => set({ collectConfig }),
  setProductTitleLanguage: (productTitleLanguage) => set({ productTitleLanguage }),
  reset: () => set(initial),
}));
