// Runs the Mercado Libre sandbox alone (`npm run sandbox`): the API at the root, the authorization page at
// /auth/authorization, the controls under /_sandbox. SANDBOX_PORT (default 3900), HOST, MELI_CLIENT_ID/SECRET.
import { ConfigError, loadSandboxConfig } from "../config.ts";
import { buildSandboxServer, createSandbox } from "./sandbox.ts";

let config;
try {
  config = loadSandboxConfig();
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}
const sandbox = createSandbox({ clientId: config.clientId, clientSecret: config.clientSecret });
const app = await buildSandboxServer(sandbox, { logger: true });
const address = await app.listen({ port: config.port, host: config.host });
console.log(
  `[sandbox] Mercado Libre sandbox at ${address} (authorization page ${address}/auth/authorization, client_id ${config.clientId})`,
);

const stop = async () => {
  await app.close().catch(() => {});
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
