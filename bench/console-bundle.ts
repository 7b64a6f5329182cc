// Console bundle size: builds the console and measures, from vite's manifest, the JavaScript the login route loads
// (the entry chunk and everything it imports statically) and each lazily loaded screen chunk, gzip-compressed.
//
//   npm run bench:bundle            # prints a markdown table; exits 1 when the login route is over the budget
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { repoRoot } from "../e2e/app-process.ts";

/** The budget for the login route's JavaScript. */
export const LOGIN_BUDGET_GZIP_BYTES = 250 * 1024;

type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
type Manifest = Record<string, ManifestChunk>;

const dist = join(repoRoot, "console/dist");

export type BundleReport = {
  login: { files: string[]; rawBytes: number; gzipBytes: number };
  lazy: { src: string; file: string; gzipBytes: number }[];
};

const gzipOf = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const rawOf = (file: string) => readFileSync(join(dist, file)).length;

export function measureBundle(): BundleReport {
  const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8")) as Manifest;
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error("no entry chunk in the manifest");
  // The login route loads the entry and its static imports, transitively; dynamic imports wait until a screen opens.
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const k of manifest[key].imports ?? []) visit(k);
  };
  visit(entryKey);
  const files = [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith(".js"));
  const lazy = Object.entries(manifest)
    .filter(([, c]) => c.isDynamicEntry)
    .map(([key, c]) => ({ src: c.src ?? key, file: c.file, gzipBytes: gzipOf(c.file) }))
    .sort((a, b) => a.src.localeCompare(b.src));
  return {
    login: { files, rawBytes: files.reduce((n, f) => n + rawOf(f), 0), gzipBytes: files.reduce((n, f) => n + gzipOf(f), 0) },
    lazy,
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  execFileSync(
    process.execPath,
    [join(repoRoot, "node_modules/vite/bin/vite.js"), "build", "--config", "console/vite.config.ts", "--logLevel", "warn"],
    {
      cwd: repoRoot,
      stdio: "inherit",
    },
  );
  const r = measureBundle();
  console.log(
    `Login route JavaScript: ${kb(r.login.gzipBytes)} gzip (${kb(r.login.rawBytes)} raw) in ${r.login.files.length} files; budget ${kb(LOGIN_BUDGET_GZIP_BYTES)}`,
  );
  console.log("\n| Lazy chunk (source) | gzip |\n|---|---:|");
  for (const c of r.lazy) console.log(`| ${c.src} | ${kb(c.gzipBytes)} |`);
  if (r.login.gzipBytes > LOGIN_BUDGET_GZIP_BYTES) {
    console.error("over budget");
    process.exit(1);
  }
}
