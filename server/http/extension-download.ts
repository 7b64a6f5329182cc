// GET /downloads/meli-erp-extension.zip: the built browser extension (.output/chrome-mv3, `npm run build:extension`)
// as one zip, so a seller installs it from the collection page's link instead of building it. The zip is made when
// asked and kept until the build changes; without a build the answer says so in Chinese (404).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { zipSync } from "fflate";

export const EXTENSION_DOWNLOAD_PATH = "/downloads/meli-erp-extension.zip";
const defaultBuild = fileURLToPath(new URL("../../.output/chrome-mv3", import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}

/** A zip of the files under dir, each named by its path relative to dir (fflate: docs/decisions.md). */
export function zipDirectory(dir: string): Buffer {
  const files = Object.fromEntries(filesUnder(dir).map((file) => [relative(dir, file).split(sep).join("/"), readFileSync(file)]));
  return Buffer.from(zipSync(files, { level: 6 }));
}

export function registerExtensionDownload(app: FastifyInstance, buildDir = defaultBuild) {
  let cached: { stamp: number; zip: Buffer } | null = null;
  app.get(EXTENSION_DOWNLOAD_PATH, async (_req, reply) => {
    let stamp: number;
    try {
      stamp = statSync(join(buildDir, "manifest.json")).mtimeMs;
    } catch {
      return reply.code(404).send({ error: { message: "插件尚未构建：请联系管理员在服务器上运行 npm run build:extension" } });
    }
    if (cached?.stamp !== stamp) cached = { stamp, zip: zipDirectory(buildDir) };
    return reply
      .header("content-type", "application/zip")
      .header("content-disposition", 'attachment; filename="meli-erp-extension.zip"')
      .send(cached.zip);
  });
}
