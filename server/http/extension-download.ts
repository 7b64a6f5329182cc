// GET /downloads/meli-erp-extension.zip: the built browser extension (.output/chrome-mv3, `npm run build:extension`)
// as one zip, so a seller installs it from the collection page's link instead of building it. The zip is made when
// asked and kept until the build changes; without a build the answer says so in Chinese (404).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, deflateRawSync } from "node:zlib";
import type { FastifyInstance } from "fastify";

export const EXTENSION_DOWNLOAD_PATH = "/downloads/meli-erp-extension.zip";
const defaultBuild = fileURLToPath(new URL("../../.output/chrome-mv3", import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}

/** A zip (PKZIP 2.0: deflated entries, a central directory) of the files under dir, named by their relative path. */
export function zipDirectory(dir: string): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of filesUnder(dir).sort()) {
    const name = Buffer.from(relative(dir, file).split(sep).join("/"), "utf8");
    const data = readFileSync(file);
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(0, 10); // time and date: none
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
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
