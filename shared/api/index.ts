// The typed client in one object: `const api = createApi({ baseUrl, getToken, getTenant, onUnauthorized })`, then
// `api.token.login(...)`, `api.user.getUserInfo()`, `api.hosted.getTenants({ Search })`. Each area's calls live in
// their own file (users.ts, account.ts, ...) and can be bound alone: `createUserApi(createApiClient(options))`.
import { createAccountApi } from "./account.ts";
import { createMeliCategoryApi } from "./categories.ts";
import { createCategoryMappingApi } from "./category-mappings.ts";
import { createAquiredUrlApi, createCollectApi } from "./collects.ts";
import { createApiClient, type ApiClient, type ApiClientOptions } from "./client.ts";
import { createMeliCodeApi } from "./gtin.ts";
import { createHostedApi } from "./hosted.ts";
import { createInfringementWordApi } from "./infringement.ts";
import { createMeliStatListingApi, createMeliStatNewListingApi } from "./listings.ts";
import { createMeliAccountApi, createMeliApi } from "./meli.ts";
import { createMeliStatLogApi } from "./meli-logs.ts";
import { createOrderApi } from "./orders.ts";
import { createProductLabelApi } from "./product-labels.ts";
import { createProductExportApi } from "./product-export.ts";
import { createProductApi } from "./products.ts";
import { createMeliStatApi, createMeliStatNewApi } from "./publishing.ts";
import { createCurrencyApi, createSettingsApi } from "./settings.ts";
import { createTasksApi } from "./tasks.ts";
import { createTenancyApi } from "./tenancy.ts";
import { createTokenApi } from "./token.ts";
import { createUserApi } from "./users.ts";
import { createWorkbenchApi } from "./workbench.ts";
import { createMeliOtherApi } from "./freight.ts";
import { createMeliSelectionSkuApi } from "./selection.ts";
import { createMeliSizeChartApi } from "./size-charts.ts";
import { createSubAccountOrderApi } from "./subaccount-orders.ts";
import { createChargeRecordApi, createHostedWalletApi, createWalletLogApi, createWithdrawApi } from "./wallet.ts";
import { createAgencyApi, createHostedAgencyApi } from "./agency.ts";
import { createModuleAuthApi } from "./module-auth.ts";
import { createMeliSandboxApi } from "./meli-sandbox.ts";

export * from "./client.ts";
export * from "./errors.ts";
export * from "./call-result.ts";
export type { TokenAnswer, LoginInput } from "./token.ts";

export function createApi(options: ApiClientOptions | ApiClient) {
  const client = "request" in options ? options : createApiClient(options);
  return {
    client,
    token: createTokenApi(client),
    account: createAccountApi(client),
    tenancy: createTenancyApi(client),
    user: createUserApi(client),
    hosted: createHostedApi(client),
    settings: createSettingsApi(client),
    currency: createCurrencyApi(client),
    tasks: createTasksApi(client),
    workbench: createWorkbenchApi(client),
    collect: createCollectApi(client),
    aquiredUrl: createAquiredUrlApi(client),
    infringementWord: createInfringementWordApi(client),
    product: createProductApi(client),
    productExport: createProductExportApi(client),
    productLabel: createProductLabelApi(client),
    meli: createMeliApi(client),
    meliAccount: createMeliAccountApi(client),
    meliCategory: createMeliCategoryApi(client),
    categoryMapping: createCategoryMappingApi(client),
    meliCode: createMeliCodeApi(client),
    meliStatLog: createMeliStatLogApi(client),
    meliStatNew: createMeliStatNewApi(client),
    meliStat: createMeliStatApi(client),
    meliStatNewListing: createMeliStatNewListingApi(client),
    meliStatListing: createMeliStatListingApi(client),
    order: createOrderApi(client),
    meliOther: createMeliOtherApi(client),
    meliSizeChart: createMeliSizeChartApi(client),
    meliSelectionSku: createMeliSelectionSkuApi(client),
    subAccountOrder: createSubAccountOrderApi(client),
    walletLog: createWalletLogApi(client),
    chargeRecord: createChargeRecordApi(client),
    withdraw: createWithdrawApi(client),
    hostedWallet: createHostedWalletApi(client),
    agency: createAgencyApi(client),
    hostedAgency: createHostedAgencyApi(client),
    moduleAuth: createModuleAuthApi(client),
    meliSandbox: createMeliSandboxApi(client),
  };
}
export type Api = ReturnType<typeof createApi>;
