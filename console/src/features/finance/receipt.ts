// The receipt image's checks before it is sent: the types and size the server takes (it checks the bytes again: the
// type here is only the browser's guess from the name).
import { MAX_RECEIPT_BYTES } from "#shared/contract/wallet.ts";

const RECEIPT_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export const RECEIPT_ACCEPT = RECEIPT_TYPES.join(",");
export const RECEIPT_MAX_MB = MAX_RECEIPT_BYTES / 1024 / 1024;

/** Why a chosen file cannot be a receipt, or null. */
export function receiptFileProblem(file: { type: string; size: number }): string | null {
  if (!(RECEIPT_TYPES as readonly string[]).includes(file.type)) return "请上传 JPG、PNG、WebP 或 GIF 格式的图片";
  if (file.size === 0) return "图片是空文件";
  if (file.size > MAX_RECEIPT_BYTES) return `图片不能超过 ${RECEIPT_MAX_MB} MB`;
  return null;
}
