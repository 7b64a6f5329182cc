// The extension download: the build folder as a zip another reader (Python's zipfile) opens with every file intact,
// served at the collection page's link; without a build, a Chinese 404.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { EXTENSION_DOWNLOAD_PATH, registerExtensionDownload, zipDirectory } from "./extension-download.ts";

const build = mkdtempSync(join(tmpdir(), "ext-build-"));
mkdirSync(join(build, "chunks"));
const files: Record<string, string> = {
  "manifest.json": JSON.stringify({ manifest_version: 3, name: "美客多 ERP 采集" }),
  "chunks/content.js": "console.log('采集');\n".repeat(200),
  "sidepanel.html": "<!doctype html><title>侧边栏</title>",
};
for (const [name, text] of Object.entries(files)) writeFileSync(join(build, name), text);
afterAll(() => rmSync(build, { recursive: true, force: true }));

/** What Python's zipfile reads from the zip: each entry's name and text (it checks the CRCs with testzip). */
function readZip(zip: Buffer): Record<string, string> {
  const path = join(build, "..", `${Date.now()}-read.zip`);
  writeFileSync(path, zip);
  try {
    const script =
      "import zipfile,sys,json\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\n" +
      "print(json.dumps({n: z.read(n).decode('utf8') for n in z.namelist()}))";
    return JSON.parse(execFileSync("python3", ["-c", script, path], { encoding: "utf8" })) as Record<string, string>;
  } finally {
    rmSync(path, { force: true });
  }
}

describe("extension download", () => {
  it("zips the build folder with every file and its path", () => {
    expect(readZip(zipDirectory(build))).toEqual(files);
  });

  it("serves the zip as an attachment, and says in Chinese when the extension is not built", async () => {
    const app = Fastify();
    registerExtensionDownload(app, build);
    const res = await app.inject({ method: "GET", url: EXTENSION_DOWNLOAD_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toContain("meli-erp-extension.zip");
    expect(readZip(res.rawPayload)).toEqual(files);

    const none = Fastify();
    registerExtensionDownload(none, join(build, "missing"));
    const missing = await none.inject({ method: "GET", url: EXTENSION_DOWNLOAD_PATH });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toContain("插件尚未构建");
    await Promise.all([app.close(), none.close()]);
  });
});
