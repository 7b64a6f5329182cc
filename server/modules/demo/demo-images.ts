// The demo products' pictures, drawn by the server itself and served at /demo-images/<n>.png: the fixture pages name
// pictures on the marketplaces' image hosts, which are broken offline and not ours to show. Each picture is a plain
// product shot made of shapes (a coloured item on a light background), drawn once when first asked and kept.
import { crc32, deflateSync } from "node:zlib";
import type { FastifyInstance } from "fastify";

export const DEMO_IMAGE_PREFIX = "/demo-images/";
/** How many different pictures there are; a product takes DEMO_IMAGES_PER_PRODUCT of them in turn. */
export const DEMO_IMAGE_COUNT = 12;
export const DEMO_IMAGES_PER_PRODUCT = 3;
/** Mercado Libre asks for pictures of at least 500 px a side. */
const SIDE = 600;

type Rgb = readonly [number, number, number];
const ITEM_COLOURS: Rgb[] = [
  [214, 69, 65],
  [52, 120, 198],
  [46, 160, 98],
  [240, 160, 40],
  [140, 82, 180],
  [40, 40, 48],
];
const BACKGROUNDS: Rgb[] = [
  [246, 246, 244],
  [236, 242, 248],
];

/** The picture's address on a server reached at base (config.publicUrl). */
export function demoImageUrl(base: string, n: number): string {
  return `${base.replace(/\/$/, "")}${DEMO_IMAGE_PREFIX}${n % DEMO_IMAGE_COUNT}.png`;
}

/** The picture number named by a file name ("3.png"), or undefined. */
function demoImageNumber(name: string): number | undefined {
  const m = /^(\d{1,2})\.png$/.exec(name);
  const n = m ? Number(m[1]) : -1;
  return n >= 0 && n < DEMO_IMAGE_COUNT ? n : undefined;
}

/**
 * The size of the picture at url when it is one this server draws (base + /demo-images/<n>.png): known without a
 * fetch, which the picture probe's SSRF guard would refuse on a private address such as localhost.
 */
export function demoImageSize(url: string, base: string): { width: number; height: number } | undefined {
  let u: URL;
  let b: URL;
  try {
    u = new URL(url);
    b = new URL(base);
  } catch {
    return undefined;
  }
  const prefix = b.pathname.replace(/\/$/, "") + DEMO_IMAGE_PREFIX;
  if (u.origin !== b.origin || u.search || !u.pathname.startsWith(prefix)) return undefined;
  return demoImageNumber(u.pathname.slice(prefix.length)) === undefined ? undefined : { width: SIDE, height: SIDE };
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** Whether (x, y) is on the item of picture n: a round item, a box or a bottle by n, with a shadow below. */
function shade(n: number, x: number, y: number): "item" | "shadow" | "bg" {
  const c = SIDE / 2;
  const dx = x - c;
  const dy = y - c;
  const kind = n % 3;
  const shadow = ((x - c) / 190) ** 2 + ((y - 520) / 22) ** 2 <= 1;
  let item: boolean;
  if (kind === 0) item = dx * dx + dy * dy <= 180 * 180;
  else if (kind === 1) item = Math.abs(dx) <= 170 && Math.abs(dy + 10) <= 150;
  else item = (Math.abs(dx) <= 110 && y >= 200 && y <= 480) || (Math.abs(dx) <= 40 && y >= 110 && y < 200);
  return item ? "item" : shadow ? "shadow" : "bg";
}

/** Picture n as a PNG (8-bit RGB). */
export function drawDemoImage(n: number): Buffer {
  const colour = ITEM_COLOURS[n % ITEM_COLOURS.length];
  const bg = BACKGROUNDS[Math.floor(n / ITEM_COLOURS.length) % BACKGROUNDS.length];
  const shadow: Rgb = [bg[0] - 40, bg[1] - 40, bg[2] - 40];
  const stride = SIDE * 3 + 1;
  const raw = Buffer.alloc(stride * SIDE);
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      const what = shade(n, x, y);
      // A highlight band across the item, so it reads as a lit object rather than a flat sign.
      const lit = what === "item" && x + y > 420 && x + y < 470;
      const rgb = what === "item" ? (lit ? ([255, 255, 255] as Rgb) : colour) : what === "shadow" ? shadow : bg;
      raw.set(rgb, y * stride + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIDE, 0);
  header.writeUInt32BE(SIDE, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/** GET /demo-images/<n>.png: public (a product picture, like any marketplace's image host), cached by browsers. */
export function registerDemoImages(app: FastifyInstance) {
  const drawn = new Map<number, Buffer>();
  app.get<{ Params: { name: string } }>(`${DEMO_IMAGE_PREFIX}:name`, async (req, reply) => {
    const n = demoImageNumber(req.params.name);
    if (n === undefined) return reply.code(404).send({ error: { message: "图片不存在" } });
    let png = drawn.get(n);
    if (!png) drawn.set(n, (png = drawDemoImage(n)));
    return reply.header("content-type", "image/png").header("cache-control", "public, max-age=86400").send(png);
  });
}
