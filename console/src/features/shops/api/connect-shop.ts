// Connecting (or re-authorizing) shops: GetAuthUrl for the chosen sites, the shops to belong to `uid`, opened as
// Mercado Libre's authorization page (meli-auth.ts). The result comes back later, through AuthBack.
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { startAuthorization } from "../meli-auth.ts";

export const connectShop = (v: { sites: number[]; uid?: string }) => startAuthorization(() => api.meli.getAuthUrl(v));

export const useConnectShop = ({ mutationConfig }: MutationHookOptions<typeof connectShop> = {}) =>
  useMutation(withCallerConfig({ mutationFn: connectShop }, mutationConfig));
