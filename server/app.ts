// Builds the Fastify app on given dependencies without listening: main.ts listens, tests call inject on the same app.
import { existsSync } from "node:fs";
import { constants as zlib } from "node:zlib";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import compress from "@fastify/compress";
import cors from "@fastify/cors";
import formbody from "@fastify/formbody";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { createServices, registerWorkers, type AppDeps } from "./deps.ts";
import { admissionLimits, createAdmission } from "./http/admission.ts";
import { createRegistrar, type RegisteredCall } from "./http/calls.ts";
import { frameworkErrors, registerErrorHandling } from "./http/errors.ts";
import { registerJsonBodyParser } from "./http/json-body.ts";
import { validatorCompiler } from "./http/validation.ts";
import { registerExtensionDownload } from "./http/extension-download.ts";
import { createReadSlots } from "./http/upload.ts";
import { registerDemoImages } from "./modules/demo/demo-images.ts";
import { registerTokenEndpoint } from "./modules/token/routes.ts";
import { registerModules } from "./modules/index.ts";
import { createProgressHub } from "./modules/events/progress.ts";
import { registerEventStream } from "./modules/events/routes.ts";
import { SANDBOX_PREFIX } from "./sandbox/sandbox.ts";
import { whileUserWaits } from "./user-waiting.ts";

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
  registerJsonBodyParser(app);

  await app.register(cors, { origin: deps.config.corsOrigins.length ? deps.config.corsOrigins : false });
  // Answers over 1 KB compressed as the client accepts (brotli, then gzip), the event stream never (the plugin leaves
  // text/event-stream alone). Brotli at a low quality: its default (11) costs more CPU than a list query.
  await app.register(compress, {
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(swagger, {
    openapi: {
      info: { title: "Mercado ERP API", version: "1" },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    },
    transform: (args) => jsonSchemaTransform(args as Parameters<typeof jsonSchemaTransform>[0]),
  });
  await app.register(swaggerUi, { routePrefix: "/swagger" });

  // A health probe waits like a user: on PGlite its statement goes before queued jobs (user-waiting.ts).
  app.get("/health", { schema: { hide: true } }, () =>
    whileUserWaits(async () => {
      await deps.database.db.execute("select 1" as never);
      return { status: "ok", database: deps.database.kind };
    }),
  );

  // Encapsulated: Mercado Libre's own bodies and errors, outside the app's auth, envelope and OpenAPI document.
  if (deps.sandbox) await app.register(deps.sandbox.plugin, { prefix: SANDBOX_PREFIX });
  const services = createServices(deps);
  registerWorkers(deps.jobs, services);
  registerTokenEndpoint(app, { database: deps.database, loginLimiter: deps.loginLimiter, sessions: services.sessions });
  const calls: RegisteredCall[] = [];
  app.decorate("calls", calls);
  const { dbLockTimeoutMs: lockTimeoutMs, dbStatementTimeoutMs, dbBulkStatementTimeoutMs, dbPoolSize } = deps.config;
  const registrar = createRegistrar(
    app,
    {
      database: deps.database,
      tokens: deps.tokens,
      admission: createAdmission(admissionLimits(dbPoolSize)),
      readSlots: createReadSlots(),
      limits: {
        call: { lockTimeoutMs, statementTimeoutMs: dbStatementTimeoutMs },
        bulk: { lockTimeoutMs, statementTimeoutMs: dbBulkStatementTimeoutMs },
      },
      checkAnswers: deps.config.checkAnswers,
    },
    calls,
  );
  registerModules(registrar, services);
  // The live progress stream (GET /api/events): a plain route, since a stream cannot live in a call's transaction.
  registerEventStream(app, { database: deps.database, tokens: deps.tokens, hub: createProgressHub(deps.database, deps.log) });

  registerExtensionDownload(app);
  registerDemoImages(app);
  if (existsSync(consoleDist)) {
    await app.register(fastifyStatic, { root: consoleDist, prefix: "/", wildcard: false });
  }
  return app;
}
