// Every setting of the server, validated once. Nothing else in the server reads process.env.
import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { DEFAULT_HASH_COST } from "./modules/identity/passwords.ts";
import { SANDBOX_PREFIX } from "./sandbox/sandbox.ts";
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from "./sandbox/store.ts";

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** A whole number written in decimal digits: "0x50", "1e3", "8.0" are refused rather than read as something else. */
const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** An on/off setting: 1 or true, 0 or false. */
const flag = (on: boolean) =>
  z
    .enum(["0", "1", "true", "false"])
    .default(on ? "1" : "0")
    .transform((v) => v === "1" || v === "true");

const httpUrl = z
  .string()
  .trim()
  .regex(/^https?:\/\/[^/\s]+/, "must be an http:// or https:// URL")
  .transform((u) => u.replace(/\/+$/, ""));

const envSchema = z.object({
  PORT: integer(0, 65535).default(3000),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  /** A direct PostgreSQL connection (not through a transaction pooler) for the work that needs a session of its own. */
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  ADMIN_PASSWORD: z.string().min(6, "must be at least 6 characters").optional(),
  TOKEN_SIGNING_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  CORS_ORIGINS: z.string().default(""),
  LOG_LEVEL: z.enum(logLevels).default("info"),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().default("no-reply@localhost"),
  DB_POOL_SIZE: integer(1, 200).default(20),
  /** How long a call's statement may wait for a row lock, and run (a bulk edit's statement: DB_BULK_STATEMENT_TIMEOUT_MS). */
  DB_LOCK_TIMEOUT_MS: integer(100, 600_000).default(5_000),
  DB_STATEMENT_TIMEOUT_MS: integer(100, 3_600_000).default(30_000),
  DB_BULK_STATEMENT_TIMEOUT_MS: integer(100, 3_600_000).default(300_000),
  /** PGlite runs in a worker thread (1, default) or in the server's own thread (0). */
  PGLITE_WORKER: flag(true),
  LOGIN_RATE_LIMIT_PER_MINUTE: integer(1).default(60),
  BODY_LIMIT_BYTES: integer(1024).default(10 * 1024 * 1024),
  ROLE: z.enum(["all", "api", "worker"]).default("all"),
  /** Tests and local fixtures only: lets the crawler fetch private, loopback and link-local addresses (and any port). */
  CRAWL_ALLOW_PRIVATE: flag(false),
  CRAWL_TIMEOUT_MS: integer(1000, 120_000).default(20_000),
  CRAWL_MAX_BYTES: integer(64 * 1024, 50 * 1024 * 1024).default(5 * 1024 * 1024),
  /** Mercado Libre: unset, the process mounts its own sandbox and the URLs point at it. */
  MELI_API_URL: httpUrl.optional(),
  MELI_AUTH_URL: httpUrl.optional(),
  MELI_CLIENT_ID: z.string().trim().min(1).optional(),
  MELI_CLIENT_SECRET: z.string().min(1).optional(),
  /** How browsers reach this server: Mercado Libre sends sellers back to PUBLIC_URL/api/Meli/AuthBack. */
  PUBLIC_URL: httpUrl.optional(),
  /** The first start syncs the sandbox's categories and fills the demo tenant (0: both stay empty). */
  DEMO_DATA: flag(true),
  /** Development and tests: every JSON answer is checked against its declared result (a drift answers a 500). */
  CHECK_ANSWERS: flag(false),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /**
   * PostgreSQL: where the work that needs a session of its own connects (the live progress LISTEN, the migrations'
   * lock): DATABASE_DIRECT_URL, else DATABASE_URL. When it differs from DATABASE_URL, DATABASE_URL is taken for a
   * transaction pooler (PgBouncer pool_mode=transaction): no session state goes through it (databaseOptionsFromConfig).
   */
  databaseDirectUrl?: string;
  adminPassword?: string;
  tokenSigningKey: string;
  corsOrigins: string[];
  logLevel: (typeof logLevels)[number];
  smtpUrl?: string;
  mailFrom: string;
  dbPoolSize: number;
  /** Per call transaction: lock wait and statement time (PostgreSQL lock_timeout / statement_timeout). */
  dbLockTimeoutMs: number;
  dbStatementTimeoutMs: number;
  dbBulkStatementTimeoutMs: number;
  /** PGlite in its worker thread (SQL on a second core) rather than in the server's thread. */
  pgliteWorker: boolean;
  /** Token requests one IP may make per minute before answers turn into 429. */
  loginRateLimitPerMinute: number;
  bodyLimitBytes: number;
  /** all: API and workers in one process (the only choice on PGlite); api or worker split them on PostgreSQL. */
  role: "all" | "api" | "worker";
  /** Failed logins before lockout, and its length; fixed by RELIABILITY.md, settable only by tests. */
  lockoutAttempts: number;
  lockoutSeconds: number;
  /** scrypt's cost (N) of a new password hash; fixed, settable only by tests (their servers make thousands of accounts). */
  passwordHashCost: number;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  crawl: CrawlConfig;
  /** Mercado Libre's API base URL (api.mercadolibre.com when live). */
  meliApiUrl: string;
  /** Base of the authorization page: `${meliAuthUrl}/authorization`. */
  meliAuthUrl: string;
  meliClientId: string;
  /** Empty on the built-in sandbox until withSandboxSecret fills in the installation's own. */
  meliClientSecret: string;
  /** MELI_API_URL unset: the sandbox is mounted at SANDBOX_PREFIX and the settings above point at it. */
  meliSandbox: boolean;
  /** The server's address as browsers see it (no trailing slash): the OAuth redirect and the console's shop list. */
  publicUrl: string;
  /** The first start syncs the sandbox's categories and fills the demo tenant through the API (modules/demo). */
  demoData: boolean;
  /** CHECK_ANSWERS: each answer checked against the call's declared result (server/http/calls.ts). */
  checkAnswers: boolean;
  /**
   * Tests only: when a product bulk edit becomes a task and its batch size (BULK_EDIT_TASK_THRESHOLD and
   * BULK_EDIT_BATCH_SIZE in shared/contract/product.ts otherwise), so a test needs no 5,000 products.
   */
  bulkEditTask?: { threshold: number; batchSize: number };
};

/** The server crawler's limits (COLLECTION.md "Crawler safety"). */
type CrawlConfig = {
  /** CRAWL_ALLOW_PRIVATE=1: tests and local fixtures only. */
  allowPrivate: boolean;
  /** Whole fetch, redirects included. */
  timeoutMs: number;
  /** Body cap, after decompression. */
  maxBodyBytes: number;
  maxRedirects: number;
  /** Fetches one process makes to one host at a time. */
  perHostConcurrency: number;
  /** Attempts for network errors, 429 and 5xx before the task fails. */
  maxAttempts: number;
  /** First back-off; doubles with each attempt. */
  retryBaseSeconds: number;
};

export class ConfigError extends Error {}

/** Reads the environment (or the given record); a bad value throws a ConfigError naming the setting. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty (or blank) variable counts as unset, as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  if (e.ROLE !== "all" && !e.DATABASE_URL) {
    throw new ConfigError("Invalid configuration:\n  ROLE: api/worker split needs DATABASE_URL (PGlite has one owner process)");
  }
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      "Invalid configuration:\n  DATABASE_DIRECT_URL: needs DATABASE_URL (it is PostgreSQL's direct connection beside the pooled one)",
    );
  }
  const meliSandbox = !e.MELI_API_URL;
  if (!meliSandbox) {
    const missing = (["MELI_AUTH_URL", "MELI_CLIENT_ID", "MELI_CLIENT_SECRET"] as const).filter((k) => !e[k]);
    if (missing.length) {
      throw new ConfigError(`Invalid configuration:\n  ${missing.map((k) => `${k}: required when MELI_API_URL is set`).join("\n  ")}`);
    }
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
    adminPassword: e.ADMIN_PASSWORD,
    tokenSigningKey: e.TOKEN_SIGNING_KEY ?? signingKeyFromDataDir(dataDir),
    corsOrigins: e.CORS_ORIGINS.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    logLevel: e.LOG_LEVEL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    dbPoolSize: e.DB_POOL_SIZE,
    dbLockTimeoutMs: e.DB_LOCK_TIMEOUT_MS,
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    dbBulkStatementTimeoutMs: e.DB_BULK_STATEMENT_TIMEOUT_MS,
    pgliteWorker: e.PGLITE_WORKER,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    role: e.ROLE,
    lockoutAttempts: 5,
    lockoutSeconds: 300,
    passwordHashCost: DEFAULT_HASH_COST,
    accessTokenSeconds: 3600,
    refreshTokenSeconds: 14 * 24 * 3600,
    crawl: {
      allowPrivate: e.CRAWL_ALLOW_PRIVATE,
      timeoutMs: e.CRAWL_TIMEOUT_MS,
      maxBodyBytes: e.CRAWL_MAX_BYTES,
      maxRedirects: 5,
      perHostConcurrency: 2,
      maxAttempts: 4,
      retryBaseSeconds: 5,
    },
    meliApiUrl: e.MELI_API_URL ?? `http://127.0.0.1:${e.PORT}${SANDBOX_PREFIX}`,
    meliAuthUrl: e.MELI_AUTH_URL ?? `http://localhost:${e.PORT}${SANDBOX_PREFIX}/auth`,
    meliClientId: e.MELI_CLIENT_ID ?? DEFAULT_CLIENT_ID,
    // Unset on the built-in sandbox: its application's secret is this installation's, in DATA_DIR (withSandboxSecret).
    meliClientSecret: e.MELI_CLIENT_SECRET ?? "",
    meliSandbox,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    demoData: e.DEMO_DATA,
    checkAnswers: e.CHECK_ANSWERS,
  };
}

/** The settings of the sandbox run alone (npm run sandbox): its port and the app credentials it accepts. */
export function loadSandboxConfig(env: Record<string, string | undefined> = process.env) {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const parsed = z
    .object({
      SANDBOX_PORT: integer(0, 65535).default(3900),
      HOST: z.string().trim().min(1).default("0.0.0.0"),
      MELI_CLIENT_ID: z.string().trim().min(1).default(DEFAULT_CLIENT_ID),
      MELI_CLIENT_SECRET: z.string().min(1).default(DEFAULT_CLIENT_SECRET),
    })
    .safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration:\n  ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n  ")}`);
  }
  const e = parsed.data;
  return { port: e.SANDBOX_PORT, host: e.HOST, clientId: e.MELI_CLIENT_ID, clientSecret: e.MELI_CLIENT_SECRET };
}

/** The built-in sandbox application's secret, generated on the first start (MELI_CLIENT_SECRET unset). */
export const SANDBOX_SECRET_FILE = "meli-sandbox-app.secret";

/**
 * The config with the built-in sandbox's application secret filled in: MELI_CLIENT_SECRET when given, else a secret
 * generated once into DATA_DIR, as a registered application has its own (never a constant every installation shares).
 * Called when the app is assembled (createDeps), so loading the config writes nothing.
 */
export function withSandboxSecret(config: Config): Config {
  if (!config.meliSandbox || config.meliClientSecret) return config;
  return { ...config, meliClientSecret: secretFromDataDir(config.dataDir, SANDBOX_SECRET_FILE, "MELI_CLIENT_SECRET") };
}

/** The signing key lives in DATA_DIR when not given, so restarts keep tokens valid. */
function signingKeyFromDataDir(dataDir: string): string {
  return secretFromDataDir(dataDir, "token-signing.key", "TOKEN_SIGNING_KEY");
}

/** A random secret kept in DATA_DIR/`name`, created on first use; `setting` is the variable that would replace it. */
function secretFromDataDir(dataDir: string, name: string, setting: string): string {
  const file = join(dataDir, name);
  try {
    if (!existsSync(file)) createSigningKey(dataDir, file);
  } catch (e) {
    throw new ConfigError(`Invalid configuration:\n  DATA_DIR: cannot create ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const key = readFileSync(file, "utf8").trim();
  if (key.length < 32) {
    throw new ConfigError(
      `Invalid configuration:\n  ${setting}: ${file} holds fewer than 32 characters (delete it to generate a new one, or set ${setting})`,
    );
  }
  return key;
}

function createSigningKey(dataDir: string, file: string) {
  mkdirSync(dataDir, { recursive: true });
  // Written aside, then linked into place: of two processes starting at once, one key wins and both read it whole.
  const key = randomBytes(48).toString("base64url") + "\n";
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, key, { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A file system without hard links: create exclusively instead.
    if (code !== "EEXIST") writeFileIfAbsent(file, key);
  } finally {
    unlinkSync(tmp);
  }
}

function writeFileIfAbsent(file: string, content: string) {
  try {
    writeFileSync(file, content, { mode: 0o600, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
}
