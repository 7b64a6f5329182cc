// A small preview of an uploaded image, made once at upload (sharp: libvips decodes on its own threads, off the event
// loop, and reads the whole image, so a file whose header passed but whose data is broken is refused here too). Lists
// and the review screen show the preview; the original stays for the reviewer who opens it.
import { badRequest } from "./errors.ts";
import { IMAGE_LIMITS } from "./upload.ts";

/** The preview's longest side, in pixels: sharp on a 2× screen in the largest place a preview is shown (the review dialog's column). */
export const PREVIEW_MAX_SIDE = 480;

/** A WebP at most PREVIEW_MAX_SIDE on its longest side (never enlarged), turned upright; 400 when the image cannot be read. */
export async function makeImagePreview(buf: Buffer, what: string): Promise<Buffer> {
  // sharp (libvips) is loaded with the first upload, not at every start (0.3 s of CPU).
  const { default: sharp } = await import("sharp");
  try {
    return await sharp(buf, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: "error" })
      .rotate()
      .resize(PREVIEW_MAX_SIDE, PREVIEW_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 72 })
      .toBuffer();
  } catch {
    throw badRequest(`图片内容已损坏，无法读取，请重新上传${what}`);
  }
}
