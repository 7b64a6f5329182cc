// Real image files of any size, built byte by byte for tests (each format at any size, without an encoder): a grayscale PNG
// (zlib-deflated rows), a baseline grayscale JPEG of one flat colour (its own one-code Huffman tables: each 8×8 block is
// "DC difference 0, end of block"), a GIF with uncompressed LZW codes, and WebP as lossless VP8L (single-symbol prefix
// codes, so the pixels take no bits), VP8X around it, or a lossy VP8 key frame header. Test-only.
import { deflateSync } from "node:zlib";

const u32be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u32le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];
const u16be = (n: number) => [(n >>> 8) & 255, n & 255];
const u16le = (n: number) => [n & 255, (n >>> 8) & 255];
const text = (s: string) => [...s].map((c) => c.charCodeAt(0));

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: number[] | Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array | number[]): number[] {
  const body = [...text(type), ...data];
  return [...u32be(data.length), ...body, ...u32be(crc32(body))];
}

/** A w×h 8-bit grayscale PNG. */
export function pngImage(width: number, height: number): Uint8Array {
  const raw = new Uint8Array((width + 1) * height).fill(128);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0; // filter type 0 on each row
  return Uint8Array.from([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...pngChunk("IHDR", [...u32be(width), ...u32be(height), 8, 0, 0, 0, 0]),
    ...pngChunk("IDAT", deflateSync(raw)),
    ...pngChunk("IEND", []),
  ]);
}

/** LSB-first bit packing (GIF's LZW codes and VP8L). */
class BitsLsb {
  bytes: number[] = [];
  private acc = 0;
  private n = 0;
  put(value: number, bits: number) {
    for (let i = 0; i < bits; i++) {
      this.acc |= ((value >>> i) & 1) << this.n;
      if (++this.n === 8) {
        this.bytes.push(this.acc);
        this.acc = 0;
        this.n = 0;
      }
    }
  }
  done(): number[] {
    if (this.n) this.bytes.push(this.acc);
    this.n = 0;
    this.acc = 0;
    return this.bytes;
  }
}

/** A w×h GIF89a of one colour: LZW with code size 2, a clear code before every two pixels so codes stay 3 bits. */
export function gifImage(width: number, height: number): Uint8Array {
  const bits = new BitsLsb();
  const pixels = width * height;
  for (let i = 0; i < pixels; i += 2) {
    bits.put(4, 3); // clear
    bits.put(1, 3);
    if (i + 1 < pixels) bits.put(1, 3);
  }
  bits.put(5, 3); // end of information
  const data = bits.done();
  const blocks: number[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const part = data.slice(i, i + 255);
    blocks.push(part.length, ...part);
  }
  return Uint8Array.from([
    ...text("GIF89a"),
    ...u16le(width),
    ...u16le(height),
    0x80, // global colour table of 2 entries
    0,
    0,
    ...[0, 0, 0, 255, 0, 0],
    0x2c,
    ...u16le(0),
    ...u16le(0),
    ...u16le(width),
    ...u16le(height),
    0,
    2, // LZW minimum code size
    ...blocks,
    0,
    0x3b,
  ]);
}

/**
 * A w×h baseline grayscale JPEG of flat mid-gray; `exifBytes` adds APP1 segments of about that many bytes before the frame
 * header (as cameras write EXIF and thumbnails first).
 */
export function jpegImage(width: number, height: number, opts: { exifBytes?: number; progressive?: boolean } = {}): Uint8Array {
  const segment = (marker: number, body: number[]) => [0xff, marker, ...u16be(body.length + 2), ...body];
  // EXIF, XMP and ICC blocks: APP segments of at most 60,000 bytes each, filled with 0xFF bytes (not markers).
  const exif: number[] = [];
  for (let left = opts.exifBytes ?? 0; left > 0; left -= 60_000)
    exif.push(...segment(0xe1, [...text("Exif\0\0"), ...new Array(Math.max(0, Math.min(left, 60_000) - 6)).fill(0xff)]));
  // One Huffman code "0" per table: DC category 0 and AC end of block.
  const oneCode = [1, ...new Array(15).fill(0), 0];
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const scan = new Array(Math.ceil((blocks * 2) / 8)).fill(0);
  const spare = scan.length * 8 - blocks * 2;
  if (spare) scan[scan.length - 1] = (1 << spare) - 1; // pad with 1 bits
  return Uint8Array.from([
    0xff,
    0xd8,
    ...segment(0xe0, [...text("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...exif,
    ...segment(0xdb, [0, ...new Array(64).fill(1)]),
    ...segment(opts.progressive ? 0xc2 : 0xc0, [8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0]),
    ...segment(0xc4, [0x00, ...oneCode, 0x10, ...oneCode]),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...scan,
    0xff,
    0xd9,
  ]);
}

function riff(chunks: number[][]): Uint8Array {
  const body = chunks.flatMap((c) => (c.length % 2 ? [...c, 0] : c));
  return Uint8Array.from([...text("RIFF"), ...u32le(4 + body.length), ...text("WEBP"), ...body]);
}
const chunk = (type: string, data: number[]) => [...text(type), ...u32le(data.length), ...data];

/** Lossless VP8L data of one colour: no transforms, no colour cache, five single-symbol prefix codes. */
function vp8l(width: number, height: number): number[] {
  const bits = new BitsLsb();
  bits.put(width - 1, 14);
  bits.put(height - 1, 14);
  bits.put(0, 1); // alpha not used
  bits.put(0, 3); // version
  bits.put(0, 1); // no transform
  bits.put(0, 1); // no colour cache
  bits.put(0, 1); // no meta prefix codes
  for (const symbol of [128, 64, 32, 255, 0]) {
    bits.put(1, 1); // simple code
    bits.put(0, 1); // one symbol
    bits.put(1, 1); // 8-bit symbol
    bits.put(symbol, 8);
  }
  return [0x2f, ...bits.done()];
}

export function webpLosslessImage(width: number, height: number): Uint8Array {
  return riff([chunk("VP8L", vp8l(width, height))]);
}

/** The extended format: a VP8X header with the canvas size, then the image chunk. */
export function webpExtendedImage(width: number, height: number): Uint8Array {
  const w = width - 1;
  const h = height - 1;
  return riff([
    chunk("VP8X", [0, 0, 0, 0, w & 255, (w >> 8) & 255, (w >> 16) & 255, h & 255, (h >> 8) & 255, (h >> 16) & 255]),
    chunk("VP8L", vp8l(width, height)),
  ]);
}

/** A lossy VP8 key frame's header (frame tag, start code, 14-bit sizes) and a stand-in first partition. */
export function webpLossyHeader(width: number, height: number): Uint8Array {
  const partition = new Array(16).fill(0);
  const tag = (partition.length << 5) | (1 << 4); // key frame (bit 0 clear), version 0, shown
  return riff([
    chunk("VP8 ", [tag & 255, (tag >> 8) & 255, (tag >> 16) & 255, 0x9d, 0x01, 0x2a, ...u16le(width), ...u16le(height), ...partition]),
  ]);
}
