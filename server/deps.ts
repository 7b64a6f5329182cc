// The app's parts, assembled in one place: the infrastructure (AppDeps) from the config, then every module's service
// from its factory, each given only what it uses, and the hooks through which areas join each other's work.
import type { FastifyBaseLogger } from "fastify";
import { pino } from "pino";
import { withSandboxSecret, type Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import type { Jobs } from "./jobs/queue.ts";
import { createTokenSigner, type TokenSigner } from "./http/auth.ts";
import { createRateLimiter, type RateLimiter } from "./http/rate-limit.ts";
import { join } from "node:path";
import { createSandbox, SANDBOX_STATE_FILE, type Sandbox } from "./sandbox/sandbox.ts";
import { createMeliClient, type MeliClient } from "./integrations/mercadolibre/client.ts";
import { globalFetch, sandboxFetch } from "./integrations/mercadolibre/transport.ts";
import { createSecretBox, type SecretBox } from "./security/secrets.ts";
import { createAccountService } from "./modules/account/service.ts";
import { createCategoryService } from "./modules/categories/service.ts";
import { collectDataCleaners, collectWorkbenchContributor } from "./modules/collects/extensions.ts";
import { createCollectService } from "./modules/collects/service.ts";
import { createGtinService } from "./modules/gtin/service.ts";
import { createCategoryMappingService } from "./modules/category-mappings/service.ts";
import { createHostedService } from "./modules/hosted/service.ts";
import { createTenantAdminService } from "./modules/tenant-admin/service.ts";
import { createPasswordHasher, type PasswordHasher } from "./modules/identity/passwords.ts";
import { createSessionService } from "./modules/identity/sessions.ts";
import { createInfringementService } from "./modules/infringement/service.ts";
import { createMailer } from "./modules/mail/outbox.ts";
import { createMeliLogService } from "./modules/meli-logs/service.ts";
import { productDataCleaner, productStatContributor, productWorkbenchContributor } from "./modules/products/extensions.ts";
import { createProductService } from "./modules/products/service.ts";
import { createSettingService } from "./modules/settings/service.ts";
import { createTaskService } from "./modules/tasks/service.ts";
import { createTenancyService } from "./modules/tenancy/service.ts";
import { accountDataCleaners } from "./modules/users/extensions.ts";
import { createUserService } from "./modules/users/service.ts";
import { coreWorkbenchContributors } from "./modules/workbench/extensions.ts";
import { orderWorkbenchContributor } from "./modules/workbench/orders.ts";
import { createWorkbenchService } from "./modules/workbench/service.ts";
// Shop centre (modules/meli): its service, its hooks and what the users service reads of shops.
import { accountGroups, countShopAccounts, createShopAccountService, meliDataCleaner } from "./modules/meli/accounts.ts";
import { createShopAuthorizationService } from "./modules/meli/auth-service.ts";
import { createNotificationService } from "./modules/meli/notifications.ts";
import { createListingNotificationService } from "./modules/listings/notifications.ts";
import { createListingEditService } from "./modules/listings/edits.ts";
import { createMarginService, MARGIN_JOB, type MarginChange } from "./modules/listings/margin-job.ts";
import { createListingSyncService } from "./modules/listings/sync.ts";
import { createOrderSyncService } from "./modules/orders/sync.ts";
import { createPurchaseExport } from "./modules/orders/purchase-export.ts";
import { createPrintLabels } from "./modules/orders/print-labels.ts";
import { createPlanner } from "./modules/publishing/plan.ts";
import { createPublishingService } from "./modules/publishing/service.ts";
// Freight rules, size charts and the selection library (issue 18).
import { createFreightService } from "./modules/freight/service.ts";
import { createSelectionService } from "./modules/selection/service.ts";
import { createSizeChartService } from "./modules/size-charts/service.ts";
import { createWalletService } from "./modules/wallet/service.ts";
import { walletWorkbenchContributor } from "./modules/wallet/workbench.ts";
// Sub-account packages paid from the wallet (issue 19).
import { createSubAccountOrderService } from "./modules/subaccount-orders/service.ts";
// Agencies: recommended tenants and their commission (issue 19).
import { createAgencyService } from "./modules/agency/service.ts";
// The authorization centre: module grants between tenants (issue 19).
import { createModuleAuthService } from "./modules/module-auth/service.ts";
import { createSandboxConsole, sandboxOrderIntervalSetting } from "./modules/meli/sandbox-console.ts";
import { createTenantTransferService } from "./modules/tenant-transfer/service.ts";

export type AppDeps = {
  config: Config;
  /** The one logger: Fastify's request log, the job queue and the modules all write through it. */
  log: FastifyBaseLogger;
  database: Database;
  tokens: TokenSigner;
  jobs: Jobs;
  /** Per-IP limit on token and login requests. */
  loginLimiter: RateLimiter;
  /** The Mercado Libre sandbox, mounted at SANDBOX_PREFIX when config.meliSandbox; tests reach its `control`. */
  sandbox: Sandbox | null;
  /** Encrypts secrets stored in the database (shop tokens), keyed from the token signing key. */
  secrets: SecretBox;
  /** The Mercado Libre adapter (integrations/mercadolibre): the sandbox in this process unless MELI_API_URL is set. */
  meli: MeliClient;
  /** Hashes new passwords at the configured cost. */
  passwords: PasswordHasher;
};

export function createLogger(config: Config): FastifyBaseLogger {
  return pino({ level: config.logLevel });
}

export function createDeps(loaded: Config, database: Database, jobs: Jobs, log: FastifyBaseLogger): AppDeps {
  const config = withSandboxSecret(loaded);
  // The mounted sandbox serves no /_sandbox controls: they change the app's secret, the clock and every seller, and the
  // app listens on all interfaces. Tests reach the controls in-process (`sandbox.control`).
  const sandbox = config.meliSandbox
    ? createSandbox({
        clientId: config.meliClientId,
        clientSecret: config.meliClientSecret,
        adminRoutes: false,
        // Its sellers, tokens and items outlive a restart, as the listings that point at them do.
        stateFile: join(config.dataDir, SANDBOX_STATE_FILE),
        tickSeconds: 30,
      })
    : null;
  const secrets = createSecretBox(config.tokenSigningKey);
  return {
    config,
    log,
    database,
    jobs,
    tokens: createTokenSigner(config.tokenSigningKey, config.accessTokenSeconds),
    loginLimiter: createRateLimiter(config.loginRateLimitPerMinute, 60_000),
    sandbox,
    secrets,
    meli: createMeliClient({
      apiUrl: config.meliApiUrl,
      authUrl: config.meliAuthUrl,
      clientId: config.meliClientId,
      clientSecret: config.meliClientSecret,
      // The sandbox in this process is reached without a socket (transport.ts); Mercado Libre itself over HTTPS.
      fetch: sandbox ? sandboxFetch(sandbox) : globalFetch,
      database,
      secrets,
      log,
    }),
    passwords: createPasswordHasher(config.passwordHashCost),
  };
}

/**
 * Every module's service. Creating one starts nothing: a service with background jobs brings their `workers`, which
 * registerWorkers puts on the queue (buildApp, before the queue starts).
 */
export function createServices(deps: AppDeps) {
  const { config, log, database, jobs, tokens, loginLimiter, secrets, meli, passwords } = deps;
  const sessions = createSessionService({ database, tokens, config, passwords });
  const mailer = createMailer({ database, jobs, config, log });
  // Services other services use, created first and handed to them (a module never imports another's service).
  const products = createProductService({ database, jobs, log, secrets, dataDir: config.dataDir, bulkEditTask: config.bulkEditTask });
  const collects = createCollectService({ database, jobs, log, crawl: config.crawl, products });
  // Publishing support: the GTIN pool (MeliCode), the marketplace call log (MeliStatLog) and the freight rules.
  const gtin = createGtinService();
  const meliLogs = createMeliLogService();
  const freight = createFreightService({ database, meli });
  // The recommending agency's commission on purchases paid from a wallet.
  const agency = createAgencyService();
  // The picture size probe: the crawler's address guard, the app's own address for the demo pictures it serves, and
  // the hosts this app found down (listing edits and publishing share them).
  const pictures = { allowPrivate: config.crawl.allowPrivate, publicUrl: config.publicUrl, downHosts: new Map<string, number>() };
  const users = createUserService({
    database,
    jobs,
    shops: { accountGroups, countShopAccounts },
    // In this order ClearSubAccountInfo clears and reports them.
    userDataCleaners: [...accountDataCleaners, ...collectDataCleaners, productDataCleaner, meliDataCleaner],
    userStatContributors: [productStatContributor],
    passwords,
  });
  // Orders (issue 18): created first, the notification job hands it the order topics.
  const orderSync = createOrderSyncService({ database, jobs, meli, log });
  // Listing edits, single and batch (issue 16); the margin recompute's automatic repricing goes through their batches.
  const listingEdits = createListingEditService({ database, jobs, meli, log, pictures, callLog: meliLogs });
  return {
    sessions,
    mailer,
    orderSync,
    // 采购单 as xlsx (issue 32).
    orderPurchases: createPurchaseExport({ database, jobs, log, dataDir: config.dataDir }),
    // 批量打单 (issue 32): the labels' PDF is kept with the exports.
    orderLabels: createPrintLabels({ database, jobs, meli, dataDir: config.dataDir }),
    account: createAccountService({ sessions, mailer, loginLimiter, config, passwords }),
    tenancy: createTenancyService({ database, jobs, log, secrets }),
    users,
    hosted: createHostedService({ users, passwords }),
    tenantAdmin: createTenantAdminService({ database, jobs, log, downHosts: pictures.downHosts }),
    // Sandbox.OrderIntervalMinutes lives in the built-in sandbox (settings/known.ts RuntimeSetting).
    settings: createSettingService({ secrets, runtime: [sandboxOrderIntervalSetting(deps.sandbox)] }),
    // A failed crawl or URL import is retried through the collection centre's re-crawl.
    tasks: createTaskService({ reCrawlTasks: collects.reCrawlTasks }),
    workbench: createWorkbenchService({
      // Cards and trends show in this order.
      contributors: [
        ...coreWorkbenchContributors,
        collectWorkbenchContributor,
        productWorkbenchContributor,
        orderWorkbenchContributor,
        walletWorkbenchContributor,
      ],
    }),
    collects,
    infringement: createInfringementService(),
    products,
    categories: createCategoryService({ database, jobs, log, secrets, meli }),
    // Shop centre (modules/meli).
    shopAccounts: createShopAccountService(),
    shopAuthorization: createShopAuthorizationService({ config, log, database, meli }),
    meliNotifications: createNotificationService({ config, log, database, jobs }),
    // Stored notifications of items brought into the listings (issue 16).
    listingNotifications: createListingNotificationService({
      database,
      jobs,
      meli,
      log,
      orders: orderSync.notifications,
      callLog: meliLogs,
    }),
    gtin,
    categoryMappings: createCategoryMappingService(),
    meliLogs,
    listingEdits,
    // The listings' stored margin, computed again when a rate, a fee or a shop's rule changes (issue 32).
    margins: createMarginService({ database, jobs, log, startBatch: listingEdits.startBatch }),
    // Listing sync, import of existing listings and removal of deleted ones (issue 16).
    listingSync: createListingSyncService({ database, jobs, meli, log, callLog: meliLogs }),
    publishing: createPublishingService(
      {
        database,
        jobs,
        meli,
        log,
        secrets,
        pictures,
        gtin,
        callLog: meliLogs,
        feesMoved: (tx, categories) => jobs.send<MarginChange>(MARGIN_JOB, { reason: "fee", categories }, { tx }),
      },
      createPlanner(secrets, freight),
    ),
    // Freight rules (MeliOther), size charts (MeliSizeChart) and the host's selection library (issue 18).
    freight,
    sizeCharts: createSizeChartService({ database, meli }),
    selection: createSelectionService({ database, jobs, meli, log }),
    // The wallet: ledger, top-ups, withdrawals, host adjustments (issue 19); receipt images under DATA_DIR/receipts.
    wallet: createWalletService({ dataDir: config.dataDir, database, jobs, log, prepareCommission: agency.prepareCommission }),
    subAccountOrders: createSubAccountOrderService({ prepareCommission: agency.prepareCommission }),
    agency,
    moduleAuth: createModuleAuthService({ products }),
    // The host's 沙箱 page on the built-in sandbox (modules/meli/sandbox-console.ts).
    sandboxConsole: createSandboxConsole({ sandbox: deps.sandbox }),
    // Moving and copying between tenants, for the host (issue 31).
    tenantTransfer: createTenantTransferService({ database, jobs, log, secrets }),
  };
}

export type Services = ReturnType<typeof createServices>;

/** Registers every service's job workers on the queue: the assembly's step after the services exist. */
export function registerWorkers(jobs: Jobs, services: Services) {
  for (const service of Object.values(services)) {
    if ("workers" in service) for (const w of service.workers) jobs.handle(w.name, w.handler, w.options);
  }
}
