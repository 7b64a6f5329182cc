// The registry is the whole list of settings the product reads (issue 28): every read in the server, console and
// extension names a registry key through SettingKeys (never a string of its own), every registry key is read
// somewhere, and each kind's rule takes the values the readers understand and refuses the rest.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { SETTING_REGISTRY, SettingKeys, settingValueError } from "./setting-registry.ts";

const ROOT = join(import.meta.dirname, "../..");
const SOURCE_DIRS = ["server", "console/src", "extension", "shared"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name.startsWith(".") ? [] : sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const sources = SOURCE_DIRS.flatMap((d) => sourceFiles(join(ROOT, d))).map((path) => ({
  path: relative(ROOT, path),
  text: readFileSync(path, "utf8"),
}));

/** The functions through which code reads a setting by key. */
const READERS = /\b(getSettingValue|readSettingValues|getValueByKey)\(([^)]*)\)/g;

describe("the setting registry", () => {
  it("names each key once, in the registry's own order of SettingKeys", () => {
    const keys = SETTING_REGISTRY.map((d) => d.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(Object.values(SettingKeys).sort());
  });

  it("every read names a registry key through SettingKeys, never a string of its own", () => {
    const reads: string[] = [];
    for (const { path, text } of sources) {
      for (const m of text.matchAll(READERS)) {
        const args = m[2];
        // The definitions themselves and the generic GetValueByKey call (its key is the caller's) are not reads.
        if (/:/.test(args) && !/\{/.test(args)) continue;
        if (/\bquery\.key\b/.test(args)) continue;
        reads.push(`${path}: ${m[0]}`);
        expect(args, `${path}: ${m[0]}`).not.toMatch(/["'`]/);
      }
    }
    // The server's readers and the console's: at least the areas known to read settings.
    expect(reads.join("\n")).toMatch(/subaccount-orders\/allowance\.ts/);
    expect(reads.join("\n")).toMatch(/translate\/index\.ts/);
    expect(reads.join("\n")).toMatch(/console\/src\/lib\/session\.ts/);
  });

  it("every registry key is read somewhere outside the registry", () => {
    const code = sources.filter((f) => !f.path.endsWith("setting-registry.ts")).map((f) => f.text);
    for (const [name, key] of Object.entries(SettingKeys)) {
      const used = code.some((t) => new RegExp(`\\.${name}\\b`).test(t) && /SettingKeys/.test(t));
      expect(used, `${key} (SettingKeys.${name}) is read nowhere`).toBe(true);
    }
  });

  it("no source spells a registry key as a string outside the registry", () => {
    for (const { path, text } of sources) {
      if (path.endsWith("setting-registry.ts") || path.endsWith("agency.ts")) continue;
      for (const key of Object.values(SettingKeys)) expect(text.includes(`"${key}"`), `${path} spells "${key}"`).toBe(false);
    }
  });
});

describe("each kind's rule", () => {
  it.each([
    [SettingKeys.selfRegistrationEnabled, ["true", "FALSE", " false "], ["yes", "1"]],
    [SettingKeys.freeSubAccounts, ["0", "5", "1000"], ["-1", "1.5", "1001", "five"]],
    [SettingKeys.agencyCommissionRate, ["0", "12.5", "100", "10%"], ["100.01", "1.234", "-1", "abc"]],
    [SettingKeys.newVersionTenants, ["shop_a, shop-b，demo"], ["a", "名字", "x y"]],
    [SettingKeys.translateProvider, ["deepl", "OpenAI"], ["baidu"]],
    [SettingKeys.translateUrl, ["http://127.0.0.1:5000", "https://api.example.com/v1"], ["example.com", "ftp://x", "http://"]],
  ])("%s takes what its reader understands and refuses the rest", (key, good, bad) => {
    for (const v of good) expect(settingValueError(key, v), v).toBeNull();
    for (const v of bad) expect(settingValueError(key, v), v).toMatch(key);
  });

  it("blank is always the default, and a key the product does not read is free", () => {
    for (const d of SETTING_REGISTRY) expect(settingValueError(d.key, " ")).toBeNull();
    expect(settingValueError("Anything.Else", "whatever")).toBeNull();
  });
});
