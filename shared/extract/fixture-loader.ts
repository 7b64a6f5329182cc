// Node-only helper for the golden test and the benchmark (not part of the library): reads fixture folders
// fixtures/<platform>/<shape>/{snapshot.json, page.html?, globals.json?, intercepted.json?, expected.json}.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExtractResult } from "./product.ts";
import type { Snapshot } from "./snapshot.ts";

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

export interface Fixture {
  /** "<platform>/<shape>" */
  name: string;
  dir: string;
  snapshot: Snapshot;
  expected?: ExtractResult;
}

function readJson<T>(path: string): T | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : undefined;
}

function loadFixture(dir: string, name: string): Fixture {
  const meta = readJson<{ url: string; capturedAt: string }>(join(dir, "snapshot.json"));
  if (!meta) throw new Error(`${name}: snapshot.json missing`);
  const snapshot: Snapshot = { url: meta.url, capturedAt: meta.capturedAt };
  const html = join(dir, "page.html");
  if (existsSync(html)) snapshot.html = readFileSync(html, "utf8");
  const globals = readJson<Record<string, unknown>>(join(dir, "globals.json"));
  if (globals) snapshot.globals = globals;
  const intercepted = readJson<Snapshot["intercepted"]>(join(dir, "intercepted.json"));
  if (intercepted) snapshot.intercepted = intercepted;
  return { name, dir, snapshot, expected: readJson<ExtractResult>(join(dir, "expected.json")) };
}

export function loadFixtures(): Fixture[] {
  const out: Fixture[] = [];
  for (const platform of readdirSync(fixturesDir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const shape of readdirSync(join(fixturesDir, platform.name), { withFileTypes: true }).filter((d) => d.isDirectory())) {
      const name = `${platform.name}/${shape.name}`;
      out.push(loadFixture(join(fixturesDir, platform.name, shape.name), name));
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}
