// The adapter owns every Mercado Libre path: no module, job or HTTP layer writes one (they call the endpoint functions
// in endpoints/, which check each answer against its documented schema). Comments may name paths; code may not.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../../..");
const owners = ["server/modules", "server/jobs", "server/http"];
const meliPath =
  /["'`]\/(items|users|orders|shipments|shipment_labels|marketplace|global|sites|categories|catalog|pictures|packs|oauth|questions|visits)(\/|\?|["'`$])/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    // Tests and a module's test kit (test-kit.ts) seed rows that name paths as data; they call nothing.
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$|^test-kit\.ts$/.test(name) ? [path] : [];
  });
}

/** The code without its comments (line and block), so a comment that cites an endpoint is not a call. */
const codeOf = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

describe("the Mercado Libre adapter's boundary", () => {
  it("no module, job or HTTP layer writes a Mercado Libre path", () => {
    const found: string[] = [];
    for (const file of owners.flatMap((d) => sourceFiles(join(root, d)))) {
      codeOf(readFileSync(file, "utf8"))
        .split("\n")
        .forEach((line, i) => {
          if (meliPath.test(line)) found.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("the check sees a path written in code, not one cited in a comment", () => {
    expect(meliPath.test(codeOf('const x = await shop.send("GET", `/orders/${id}`);'))).toBe(true);
    expect(meliPath.test(codeOf("// GET `/orders/{id}` (gestiona-ventas.md)"))).toBe(false);
    expect(meliPath.test(codeOf('reply.redirect("/api/Meli/AuthBack")'))).toBe(false);
  });
});
