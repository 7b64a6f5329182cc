// Process entry: config → database → migrations → first-start data → app → listen; workers in the same process
// unless ROLE splits them (PostgreSQL only).
import { ConfigError, loadConfig } from "./config.ts";
import { databaseOptionsFromConfig, openDatabase } from "./db/client.ts";
import { bootstrap } from "./bootstrap.ts";
import { createJobs } from "./jobs/queue.ts";
import { buildApp } from "./app.ts";
import { createDeps, createLogger } from "./deps.ts";
import { createFirstStart, prepareDemoSeller } from "./modules/demo/first-start.ts";
import { connectSandboxNotifications } from "./modules/meli/sandbox-console.ts";
import { scheduleOrderTick } from "./modules/orders/sync.ts";
import { scheduleReceiptSweep } from "./modules/wallet/receipts.ts";

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const database = await openDatabase(databaseOptionsFromConfig(config));
  await database.migrate();
  const boot = await bootstrap(database.db, { adminPassword: config.adminPassword });
  if (boot.generatedAdminPassword) {
    console.log(
      `[first start] host administrator: user admin, password ${boot.generatedAdminPassword} (shown once; change it after login)`,
    );
  } else if (boot.adminCreated) {
    console.log("[first start] host administrator: user admin, password from ADMIN_PASSWORD");
  }
  if (boot.demo) {
    console.log(`[first start] demo tenant: tenant ${boot.demo.tenantName}, user ${boot.demo.userName}, password ${boot.demo.password}`);
  }

  const log = createLogger(config);
  const jobs = createJobs(database, log);
  const deps = createDeps(config, database, jobs, log);
  const demoSeller = prepareDemoSeller(deps, boot);
  if (demoSeller) {
    console.log(
      `[first start] sandbox demo seller (Mercado Libre consent page): nickname ${demoSeller.nickname}, password ${demoSeller.password}`,
    );
  }
  const app = await buildApp(deps);
  // The built-in sandbox delivers its notifications to this app's MeliCallback, as Mercado Libre does to a registered app.
  connectSandboxNotifications(app, deps);
  const firstStart = createFirstStart(app, deps);
  await jobs.start({ work: config.role !== "api" });
  // The periodic order pull (issue 18): its next tick, queued once per period whichever process starts.
  if (config.role !== "api") await scheduleOrderTick(jobs);
  // The sweep of receipt images never attached to a record (issue 19), likewise.
  if (config.role !== "api") await scheduleReceiptSweep(jobs);
  if (config.role !== "worker") {
    const address = await app.listen({ port: config.port, host: config.host });
    console.log(
      `[ready] ${address} (database: ${database.kind}${database.kind === "pglite" ? ` in ${config.dataDir}` : ""}; API docs at /swagger)`,
    );
  } else {
    console.log("[ready] worker");
  }
  // After the start, not in its way: the category sync and the demo content run as tasks and jobs.
  await firstStart.queue(boot).catch((err) => log.error({ err }, "first start: queueing the category sync or the demo content failed"));
  if (boot.demo && config.demoData) {
    console.log(
      "[first start] adding the demo tenant's shop, collections and products and syncing the sandbox's categories (DEMO_DATA=0: off)",
    );
  }

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await app.close().catch(() => {});
    await jobs.stop().catch(() => {});
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err) => {
  console.error("[fatal]", err);
  process.exit(1);
});
