import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// vitest 5's reporters call Map.groupBy (Node 21+); this machine runs Node 20, where a failing test would otherwise
// crash the reporter and hide the failure.
const mapWithGroupBy = Map as unknown as { groupBy?: <K, V>(items: Iterable<V>, key: (v: V, i: number) => K) => Map<K, V[]> };
if (!mapWithGroupBy.groupBy) {
  mapWithGroupBy.groupBy = (items, key) => {
    const out = new Map();
    let i = 0;
    for (const v of items) {
      const k = key(v, i++);
      if (!out.has(k)) out.set(k, []);
      out.get(k).push(v);
    }
    return out;
  };
}

/** Where the test files are, and what their names end with. */
const testDirs: Record<string, "ts" | "{ts,tsx}"> = {
  server: "ts",
  shared: "{ts,tsx}",
  console: "{ts,tsx}",
  e2e: "ts",
  extension: "ts",
  scripts: "ts",
};
const include = Object.entries(testDirs).map(([dir, ext]) => `${dir}/**/*.test.${ext}`);

const root = fileURLToPath(new URL(".", import.meta.url));
/** The test files under a folder (those `include` finds), read to sort them into the projects below. */
function testFiles(dir: string, name: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === "node_modules" || e.name.startsWith(".")) return [];
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path, name);
    return name.test(e.name) ? [path] : [];
  });
}
const files = Object.entries(testDirs)
  .flatMap(([dir, ext]) => testFiles(join(root, dir), ext === "ts" ? /\.test\.ts$/ : /\.test\.tsx?$/))
  .map((path) => ({ f: relative(root, path), text: readFileSync(path, "utf8") }));
// A file that replaces a module (vi.mock) needs modules of its own: in a worker that earlier files left modules in, the
// mock would not reach a module already loaded, and would stay in those it did reach for the files after it.
const isolated = files.filter(({ text }) => /\bvi\.(mock|doMock)\(/.test(text)).map(({ f }) => f);
// The files that run in a DOM (happy-dom, by the comment at their top) share a worker with each other only.
const dom = files.filter(({ f, text }) => !isolated.includes(f) && /@vitest-environment /.test(text)).map(({ f }) => f);

// What needs PostgreSQL (several processes on one database, a session apart from the pool): the PGlite run leaves these
// files out (not skipped).
const exclude = [
  "**/node_modules/**",
  ...(process.env.DATABASE_URL
    ? []
    : ["e2e/pooler.test.ts", "server/modules/events/listen-session.test.ts", "server/modules/tenancy/own-database.test.ts"]),
];

/**
 * vitest's order (each project's files, longest first by the last run's times, else largest first), with the e2e files
 * first within their project: they start processes and are the run's longest, and a clean clone has no times, so by
 * size they started late and the run ended on one of them with the other workers idle.
 */
class E2eFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projectAt = new Map<string, number>();
    sorted.forEach((spec, i) => projectAt.has(spec.project.name) || projectAt.set(spec.project.name, i));
    const laterThanE2e = (spec: TestSpecification) => (relative(root, spec.moduleId).startsWith("e2e/") ? 0 : 1);
    // A stable sort: within a project and a rank, vitest's own order stays.
    return sorted.sort((a, b) => projectAt.get(a.project.name)! - projectAt.get(b.project.name)! || laterThanE2e(a) - laterThanE2e(b));
  }
}

// Files share their workers (isolate: false): a worker loads the server's modules (and compiles PGlite's WASM) once
// instead of once per file, about 3 s of CPU per file that imports the app. So the app keeps no state in a module that
// one test file could leave for the next: each app makes its own (deps.ts, app.ts, createCrawler). Projects run in
// the order of their names, each file once: "mocks" (fresh modules per file), "node", then "page" (files in a DOM).
export default defineConfig({
  test: {
    globalSetup: ["e2e/global-setup.ts", "server/testing/global-setup.ts"],
    // What a file may leave in its worker is put back after it (real timers, globals, a DOM's page and storage).
    setupFiles: ["server/testing/file-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Three files at a time on CI's two cores: a file spends part of its time waiting (on a rate limit's schedule, the
    // sandbox's clock, a polled task, Chromium), so two kept the cores 74 % busy and three 89 % (docs/decisions.md).
    maxWorkers: 3,
    sequence: { sequencer: E2eFirst },
    projects: [
      { extends: true, test: { name: "mocks", include: isolated, exclude, isolate: true } },
      { extends: true, test: { name: "node", include, exclude: [...exclude, ...isolated, ...dom], isolate: false } },
      { extends: true, test: { name: "page", include: dom, exclude, isolate: false } },
    ],
  },
});
