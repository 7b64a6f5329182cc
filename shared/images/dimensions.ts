// An image's width and height from its first bytes (issue 15: picture size in the pre-flight check), without decoding
// it: JPEG (the first SOF segment), PNG (IHDR), GIF (the logical screen), WebP (VP8, VP8L, VP8X). Pure: a Uint8Array
// in, no Node or DOM APIs, so the server's probe and any client can use it. Null when the bytes are not one of these
// formats or end before the size (a JPEG with a large EXIF block may need more than the first few KiB).

export type ImageDimensions = { width: number; height: number; format: "jpeg" | "png" | "gif" | "webp" };

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]);
const ascii = (b: Uint8Array, i: number, s: string) => {
  if (i + s.length > b.length) return false;
  for (let k = 0; k < s.length; k++) if (b[i + k] !== s.charCodeAt(k)) return false;
  return true;
};

const sized = (width: number, height: number, format: ImageDimensions["format"]): ImageDimensions | null =>
  width > 0 && height > 0 ? { width, height, format } : null;

/** The image's size, or null when the format is unknown or the bytes end before the size. */
export function imageDimensions(bytes: Uint8Array): ImageDimensions | null {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes);
  if (ascii(bytes, 0, "\x89PNG\r\n\x1a\n")) return png(bytes);
  if (ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a"))
    return bytes.length >= 10 ? sized(u16le(bytes, 6), u16le(bytes, 8), "gif") : null;
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return webp(bytes);
  return null;
}

/** PNG: the IHDR chunk comes first (length 13, "IHDR", width and height as 32-bit big-endian). */
function png(b: Uint8Array): ImageDimensions | null {
  if (b.length < 24 || !ascii(b, 12, "IHDR")) return null;
  return sized(u32be(b, 16), u32be(b, 20), "png");
}

/** The start-of-frame markers (baseline, extended, progressive, lossless, arithmetic): not C4 (DHT), C8, CC (DAC). */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** JPEG: walks the segments from SOI to the first SOF (precision, height, width); SOS before any SOF is not an image. */
function jpeg(b: Uint8Array): ImageDimensions | null {
  let i = 2;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) return null; // not at a marker: a corrupt stream
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0-7, SOI, EOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // EOI or SOS before a frame header
    if (i + 4 > b.length) return null;
    const length = u16be(b, i + 2);
    if (length < 2) return null;
    if (isSof(marker)) {
      if (i + 9 > b.length) return null;
      return sized(u16be(b, i + 7), u16be(b, i + 5), "jpeg");
    }
    i += 2 + length;
  }
  return null;
}

/** WebP: a RIFF container whose first chunk is VP8X (canvas size), VP8 (lossy key frame) or VP8L (lossless). */
function webp(b: Uint8Array): ImageDimensions | null {
  if (ascii(b, 12, "VP8X")) return b.length >= 30 ? sized(1 + u24le(b, 24), 1 + u24le(b, 27), "webp") : null;
  if (ascii(b, 12, "VP8 ")) {
    // Frame tag (3 bytes, bit 0 clear on a key frame), start code 9D 01 2A, then 14-bit width and height.
    if (b.length < 30 || (b[20] & 1) !== 0 || b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return sized(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff, "webp");
  }
  if (ascii(b, 12, "VP8L")) {
    // Signature 0x2F, then width-1 and height-1 in 14 bits each, least significant bit first.
    if (b.length < 25 || b[20] !== 0x2f) return null;
    const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
    return sized(1 + (bits & 0x3fff), 1 + ((bits >>> 14) & 0x3fff), "webp");
  }
  return null;
}
