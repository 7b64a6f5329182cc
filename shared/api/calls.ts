// Every call the client knows, by area; the coverage test holds this list against the server's registry.
import { accountCalls } from "./account.ts";
import { meliCategoryCalls } from "./categories.ts";
import { categoryMappingCalls } from "./category-mappings.ts";
import { aquiredUrlCalls, collectCalls } from "./collects.ts";
import type { CallDef } from "./define.ts";
import { meliCodeCalls } from "./gtin.ts";
import { hostedCalls } from "./hosted.ts";
import { tenantAdminCalls } from "./tenant-admin.ts";
import { infringementWordCalls } from "./infringement.ts";
import { meliStatListingCalls, meliStatNewListingCalls } from "./listings.ts";
import { meliAccountCalls, meliCalls } from "./meli.ts";
import { meliStatLogCalls } from "./meli-logs.ts";
import { orderCalls } from "./orders.ts";
import { meliOtherCalls } from "./freight.ts";
import { meliSelectionSkuCalls } from "./selection.ts";
import { meliSizeChartCalls } from "./size-charts.ts";
import { subAccountOrderCalls } from "./subaccount-orders.ts";
import { chargeRecordCalls, hostedWalletCalls, walletLogCalls, withdrawCalls } from "./wallet.ts";
import { agencyCalls, hostedAgencyCalls } from "./agency.ts";
import { moduleAuthCalls } from "./module-auth.ts";
import { productLabelCalls } from "./product-labels.ts";
import { productExportCalls } from "./product-export.ts";
import { productCalls } from "./products.ts";
import { meliStatCalls, meliStatNewCalls } from "./publishing.ts";
import { currencyCalls, settingsCalls } from "./settings.ts";
import { tasksCalls } from "./tasks.ts";
import { tenancyCalls } from "./tenancy.ts";
import { userCalls } from "./users.ts";
import { workbenchCalls } from "./workbench.ts";
import { meliSandboxCalls } from "./meli-sandbox.ts";
import { hostedTransferCalls, productTransferCalls } from "./tenant-transfer.ts";

export const callGroups = {
  account: accountCalls,
  tenancy: tenancyCalls,
  user: userCalls,
  hosted: hostedCalls,
  tenantAdmin: tenantAdminCalls,
  settings: settingsCalls,
  currency: currencyCalls,
  tasks: tasksCalls,
  workbench: workbenchCalls,
  collect: collectCalls,
  aquiredUrl: aquiredUrlCalls,
  infringementWord: infringementWordCalls,
  product: productCalls,
  productExport: productExportCalls,
  productLabel: productLabelCalls,
  meli: meliCalls,
  meliAccount: meliAccountCalls,
  meliCategory: meliCategoryCalls,
  categoryMapping: categoryMappingCalls,
  meliCode: meliCodeCalls,
  meliStatLog: meliStatLogCalls,
  meliStatNew: meliStatNewCalls,
  meliStat: meliStatCalls,
  meliStatNewListing: meliStatNewListingCalls,
  meliStatListing: meliStatListingCalls,
  order: orderCalls,
  meliOther: meliOtherCalls,
  meliSizeChart: meliSizeChartCalls,
  meliSelectionSku: meliSelectionSkuCalls,
  subAccountOrder: subAccountOrderCalls,
  walletLog: walletLogCalls,
  chargeRecord: chargeRecordCalls,
  withdraw: withdrawCalls,
  hostedWallet: hostedWalletCalls,
  agency: agencyCalls,
  hostedAgency: hostedAgencyCalls,
  moduleAuth: moduleAuthCalls,
  meliSandbox: meliSandboxCalls,
  hostedTransfer: hostedTransferCalls,
  productTransfer: productTransferCalls,
} satisfies Record<string, Record<string, CallDef<any, any, any, any>>>;
