import { defineConfig } from "vitest/config";

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

export default defineConfig({
  test: {
    include: [
      "server/**/*.test.ts",
      "shared/**/*.test.{ts,tsx}",
      "console/**/*.test.{ts,tsx}",
      "e2e/**/*.test.ts",
      "extension/**/*.test.ts",
    ],
    // What needs PostgreSQL (several processes on one database, a session apart from the pool): the PGlite run leaves
    // these files out (not skipped).
    exclude: [
      "**/node_modules/**",
      ...(process.env.DATABASE_URL ? [] : ["e2e/pooler.test.ts", "server/modules/events/listen-session.test.ts"]),
    ],
    globalSetup: ["e2e/global-setup.ts", "server/testing/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
