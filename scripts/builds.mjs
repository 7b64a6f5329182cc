// Builds the console (console/dist), the server (.build/server/main.mjs) and the extension (.output/chrome-mv3) when a
// build is missing or older than its sources. Used by `npm start` (the console and the server) and by the tests' global
// set-up (e2e/global-setup.ts: all three, once per run before test files run in parallel), so a run after CI's build
// steps reuses their output instead of building again.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The newest modification time under a path (skipping build output, dependencies, dot-folders and tests). */
function newest(path) {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === "dist" || entry.name === "node_modules" || entry.name.startsWith(".") || entry.name.includes(".test.")) continue;
    max = Math.max(max, newest(join(path, entry.name)));
  }
  return max;
}

/** A build is stale when its marker file is missing or older than any of its sources. */
function isStale(marker, sources) {
  return !existsSync(marker) || Math.max(...sources.map((s) => newest(`${root}${s}`))) > statSync(marker).mtimeMs;
}

const consoleBuildIsStale = () => isStale(`${root}console/dist/index.html`, ["console", "shared"]);

export function ensureConsoleBuilt({ quiet = false } = {}) {
  if (!consoleBuildIsStale()) return false;
  if (!quiet) console.log("[start] building the console…");
  execFileSync(
    process.execPath,
    [`${root}node_modules/vite/bin/vite.js`, "build", "--config", "console/vite.config.ts", "--logLevel", "warn"],
    {
      cwd: root,
      stdio: quiet ? "ignore" : "inherit",
      // A build started from the test run would inherit NODE_ENV=test and bundle React's development build.
      env: { ...process.env, NODE_ENV: "production" },
    },
  );
  return true;
}

/** The server as one ES module: what `npm start` runs (server/main.ts and what it imports from server/ and shared/). */
const serverBundle = `${root}.build/server/main.mjs`;

/**
 * Our code keeps its own `import.meta.url` in the bundle: each file finds what lies beside it (the migrations, the
 * workers' .mjs, the console's build) as it does when run from its source.
 */
const ownFileUrls = {
  name: "own-file-urls",
  setup(b) {
    b.onLoad({ filter: /\.(ts|tsx|mjs|js)$/ }, async ({ path }) => {
      if (path.includes("/node_modules/")) return undefined;
      const text = await readFile(path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const loader = { ".ts": "ts", ".tsx": "tsx" }[extname(path)] ?? "js";
      return { contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(path).href)), loader };
    });
  },
};

/**
 * Bundles the server when its bundle is stale; answers the bundle's path. Node loads one file instead of resolving and
 * compiling some 600 TypeScript modules through tsx on every start (a start to ready measured 2.3 s of CPU less). The packages
 * stay in node_modules. Written beside and renamed into place, so two processes starting at once never read half a file.
 */
export async function ensureServerBuilt({ quiet = false } = {}) {
  if (!isStale(serverBundle, ["server", "shared"])) return serverBundle;
  if (!quiet) console.log("[start] building the server…");
  const result = await build({
    entryPoints: [`${root}server/main.ts`],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    outfile: serverBundle,
    write: false,
    logLevel: "warning",
    plugins: [ownFileUrls],
  });
  mkdirSync(dirname(serverBundle), { recursive: true });
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  return serverBundle;
}

const extensionBuildIsStale = () =>
  isStale(`${root}.output/chrome-mv3/manifest.json`, ["extension", "shared", "wxt.config.ts", "package-lock.json"]);

/** `npm run build:extension` when its build is stale (quietly: the browser tests' set-up). */
export function ensureExtensionBuilt() {
  if (!extensionBuildIsStale()) return false;
  execFileSync(process.execPath, [`${root}node_modules/wxt/bin/wxt.mjs`, "build"], {
    cwd: root,
    stdio: "ignore",
    env: { ...process.env, NODE_ENV: "production" },
  });
  return true;
}
