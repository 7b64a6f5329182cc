// Process entry: config → database → migrations → first-start data → app → listen; workers in the same process
// unless ROLE splits them (PostgreSQL only).
import { ConfigError, loadConfig } from "./config.ts";
import { onStopSignals } from "./shutdown.ts";

// From the first line: a stop signal at any stage of the start closes what is open so far (shutdown.ts).
const shutdown = onStopSignals();

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
  // The server's code once the settings are read: a refused setting answers before loading it (a quarter of the CPU).
  const [
    { databaseOptionsFromConfig, openDatabase },
    { bootstrap },
    { createJobs },
    { buildApp },
    { createDeps, createLogger },
    { createFirstStart, prepareDemoSeller },
    { connectSandboxNotifications },
    { scheduleOrderTick },
    { scheduleReceiptSweep },
  ] = await Promise.all([
    import("./db/client.ts"),
    import("./bootstrap.ts"),
    import("./jobs/queue.ts"),
    import("./app.ts"),
    import("./deps.ts"),
    import("./modules/demo/first-start.ts"),
    import("./modules/meli/sandbox-console.ts"),
    import("./modules/orders/sync.ts"),
    import("./modules/wallet/receipts.ts"),
  ]);
  if (shutdown.stopping) return;
  const opening = openDatabase(databaseOptionsFromConfig(config));
  // A stop while the database opens waits for it (a fresh PGlite directory half written would not open again).
  shutdown.add("database", async () => (await opening).close());
  const database = await opening;
  if (shutdown.stopping) return;
  await database.migrate();
  if (shutdown.stopping) return;
  // The embedded demo (PGlite) lets visitors register a company; a PostgreSQL deployment starts with it off.
  const boot = await bootstrap(database.db, { adminPassword: config.adminPassword, selfRegistration: !config.databaseUrl });
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
  // Running jobs are handed back (failed, to be retried by the next start) rather than waited for.
  shutdown.add("job queue", () => jobs.stop({ graceMs: 2_000 }));
  const deps = createDeps(config, database, jobs, log);
  const demoSeller = prepareDemoSeller(deps, boot);
  if (demoSeller) {
    console.log(
      `[first start] sandbox demo seller (Mercado Libre consent page): nickname ${demoSeller.nickname}, password ${demoSeller.password}`,
    );
  }
  const app = await buildApp(deps);
  shutdown.add("http", () => app.close());
  if (shutdown.stopping) return;
  // The built-in sandbox delivers its notifications to this app's MeliCallback, as Mercado Libre does to a registered app.
  connectSandboxNotifications(app, deps);
  const firstStart = createFirstStart(app, deps);
  await jobs.start({ work: config.role !== "api" });
  if (shutdown.stopping) return;
  // The periodic order pull (issue 18): its next tick, queued once per period whichever process starts.
  if (config.role !== "api") await scheduleOrderTick(jobs);
  // The sweep of receipt images never attached to a record (issue 19), likewise.
  if (config.role !== "api") await scheduleReceiptSweep(jobs);
  if (shutdown.stopping) return;
  if (config.role !== "worker") {
    const address = await app.listen({ port: config.port, host: config.host });
    console.log(
      `[ready] ${address} (database: ${database.kind}${database.kind === "pglite" ? ` in ${config.dataDir}` : ""}; API docs at /swagger)`,
    );
  } else {
    console.log("[ready] worker");
  }
  if (shutdown.stopping) return;
  // After the start, not in its way: the category sync and the demo content run as tasks and jobs.
  await firstStart.queue(boot).catch((err) => log.error({ err }, "first start: queueing the category sync or the demo content failed"));
  if (boot.demo && config.demoData) {
    console.log(
      "[first start] adding the demo tenant's shop, collections and products and syncing the sandbox's categories (DEMO_DATA=0: off)",
    );
  }
}

main().catch((err) => {
  // A step that failed because the stop closed what it used: the stop exits.
  if (shutdown.stopping) return;
  console.error("[fatal]", err);
  process.exit(1);
});
