import { describe, expect, it } from "vitest";
import { imageDimensions } from "./dimensions.ts";
import { gifImage, jpegImage, pngImage, webpExtendedImage, webpLosslessImage, webpLossyHeader } from "./test-images.ts";

describe("imageDimensions", () => {
  it("reads PNG from IHDR", () => {
    expect(imageDimensions(pngImage(640, 3))).toEqual({ width: 640, height: 3, format: "png" });
    expect(imageDimensions(pngImage(1, 499))).toEqual({ width: 1, height: 499, format: "png" });
  });

  it("reads JPEG from the first frame header, past APP segments (EXIF with 0xFF bytes included)", () => {
    expect(imageDimensions(jpegImage(800, 16))).toEqual({ width: 800, height: 16, format: "jpeg" });
    expect(imageDimensions(jpegImage(24, 1200, { exifBytes: 3000 }))).toEqual({ width: 24, height: 1200, format: "jpeg" });
    expect(imageDimensions(jpegImage(320, 240, { progressive: true }))).toEqual({ width: 320, height: 240, format: "jpeg" });
  });

  it("reads GIF's logical screen", () => {
    expect(imageDimensions(gifImage(501, 2))).toEqual({ width: 501, height: 2, format: "gif" });
  });

  it("reads WebP: lossless VP8L, extended VP8X, lossy VP8", () => {
    expect(imageDimensions(webpLosslessImage(16383, 7))).toEqual({ width: 16383, height: 7, format: "webp" });
    expect(imageDimensions(webpLosslessImage(1, 1))).toEqual({ width: 1, height: 1, format: "webp" });
    expect(imageDimensions(webpExtendedImage(20000, 500))).toEqual({ width: 20000, height: 500, format: "webp" });
    expect(imageDimensions(webpLossyHeader(1000, 750))).toEqual({ width: 1000, height: 750, format: "webp" });
  });

  it("answers null when the bytes end before the size", () => {
    const cases: [Uint8Array, number][] = [
      [pngImage(600, 600), 24],
      [gifImage(600, 1), 10],
      [jpegImage(600, 600), 0],
      [jpegImage(600, 600, { exifBytes: 5000 }), 0],
      [webpLosslessImage(600, 600), 25],
      [webpExtendedImage(600, 600), 30],
      [webpLossyHeader(600, 600), 30],
    ];
    for (const [image, needed] of cases) {
      const full = imageDimensions(image);
      expect(full?.width).toBe(600);
      // Every prefix shorter than the size's last byte is null, never a wrong size.
      const cut = needed || image.findIndex((_, i) => imageDimensions(image.subarray(0, i + 1)) !== null) + 1;
      expect(cut).toBeGreaterThan(0);
      for (let n = 0; n < cut; n++) expect(imageDimensions(image.subarray(0, n))).toBeNull();
      expect(imageDimensions(image.subarray(0, cut))).toEqual(full);
    }
    // The EXIF block pushes the JPEG's size past the first 5 KiB.
    expect(imageDimensions(jpegImage(600, 600, { exifBytes: 5000 }).subarray(0, 5000))).toBeNull();
  });

  it("answers null for what is not an image it knows", () => {
    expect(imageDimensions(new TextEncoder().encode("<!doctype html><html><body>not found</body></html>"))).toBeNull();
    expect(imageDimensions(new Uint8Array(0))).toBeNull();
    expect(imageDimensions(Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0, 8]))).toBeNull(); // scan before any frame
    expect(imageDimensions(Uint8Array.from([0xff, 0xd8, 0x12, 0x34]))).toBeNull(); // no marker
    const zeroWide = pngImage(5, 5);
    zeroWide.set([0, 0, 0, 0], 16);
    expect(imageDimensions(zeroWide)).toBeNull();
  });
});
