// Builds the Fastify app on given dependencies without listening: main.ts listens, tests call inject on the same app.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { pino } from "pino";
import cors from "@fastify/cors";
import formbody from "@fastify/formbody";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import type { z } from "zod";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import type { Jobs } from "./jobs/queue.ts";
import { createTokenSigner, type TokenSigner } from "./http/auth.ts";
import { createRegistrar, type RegisteredCall } from "./http/calls.ts";
import { frameworkErrors, registerErrorHandling } from "./http/errors.ts";
import { createRateLimiter, type RateLimiter } from "./http/rate-limit.ts";
import { validatorCompiler } from "./http/validation.ts";
import { registerTokenEndpoint } from "./modules/token/routes.ts";
import { modules } from "./modules/index.ts";
import { createSandbox, SANDBOX_PREFIX, type Sandbox } from "./sandbox/sandbox.ts";
import { createMeliClient, type MeliClient } from "./integrations/mercadolibre/client.ts";
import { globalFetch, sandboxFetch } from "./integrations/mercadolibre/transport.ts";
import { createSecretBox, type SecretBox } from "./security/secrets.ts";

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
};

export function createLogger(config: Config): FastifyBaseLogger {
  return pino({ level: config.logLevel });
}

export function createDeps(config: Config, database: Database, jobs: Jobs, log: FastifyBaseLogger): AppDeps {
  const sandbox = config.meliSandbox ? createSandbox({ clientId: config.meliClientId, clientSecret: config.meliClientSecret }) : null;
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
  };
}

const consoleDist = fileURLToPath(new URL("../console/dist", import.meta.url));

declare module "fastify" {
  interface FastifyInstance {
    calls: RegisteredCall[];
  }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: false,
    genReqId: () => crypto.randomUUID(),
    frameworkErrors,
  });
  app.setValidatorCompiler(validatorCompiler);
  // Answers are built by our own code; they are documented by the schemas but not re-validated on the way out.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  registerErrorHandling(app);

  await app.register(cors, { origin: deps.config.corsOrigins.length ? deps.config.corsOrigins : false });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(swagger, {
    openapi: {
      info: { title: "Mercado ERP API", version: "1" },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    },
    transform: (args) => jsonSchemaTransform(args as Parameters<typeof jsonSchemaTransform>[0]),
  });
  await app.register(swaggerUi, { routePrefix: "/swagger" });

  app.get("/health", { schema: { hide: true } }, async () => {
    await deps.database.db.execute("select 1" as never);
    return { status: "ok", database: deps.database.kind };
  });

  // Encapsulated: Mercado Libre's own bodies and errors, outside the app's auth, envelope and OpenAPI document.
  if (deps.sandbox) await app.register(deps.sandbox.plugin, { prefix: SANDBOX_PREFIX });
  registerTokenEndpoint(app, deps);
  const calls: RegisteredCall[] = [];
  app.decorate("calls", calls);
  const registrar = createRegistrar(app, deps, calls);
  for (const register of modules) register(registrar, deps);

  if (existsSync(consoleDist)) {
    await app.register(fastifyStatic, { root: consoleDist, prefix: "/", wildcard: false });
  }
  return app;
}

export type { z };
