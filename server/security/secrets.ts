// Secrets at rest (RELIABILITY.md: marketplace tokens, provider keys): AES-256-GCM under a key derived (HKDF-SHA256)
// from the server's own secret, the token signing key (TOKEN_SIGNING_KEY or DATA_DIR/token-signing.key). Each value is
// bound to where it is stored (`context`, e.g. the table, row and column): a ciphertext copied into another row does not
// decrypt. Stored form: "v1.<iv>.<tag>.<ciphertext>" in base64url. Replacing the signing key makes stored secrets
// unreadable (the shops then need authorizing again), so keep it with the data.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";

export type SecretBox = {
  encrypt(plain: string, context: string): string;
  /** Throws when the value was not made by this key for this context (tampered, moved, or another key). */
  decrypt(stored: string, context: string): string;
};

export class SecretError extends Error {}

/** The 32-byte key for one purpose, derived from the server secret. */
export function secretKeyFrom(serverSecret: string, purpose = "erp/secrets/v1"): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(serverSecret, "utf8"), Buffer.alloc(0), purpose, 32));
}

export function encryptSecret(key: Buffer, plain: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

export function decryptSecret(key: Buffer, stored: string, context: string): string {
  const parts = stored.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretError("not an encrypted secret");
  const [, iv, tag, data] = parts.map((p) => Buffer.from(p, "base64url"));
  if (iv.length !== 12 || tag.length !== 16) throw new SecretError("not an encrypted secret");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretError("the secret does not decrypt with this key and context");
  }
}

export function createSecretBox(serverSecret: string): SecretBox {
  const key = secretKeyFrom(serverSecret);
  return {
    encrypt: (plain, context) => encryptSecret(key, plain, context),
    decrypt: (stored, context) => decryptSecret(key, stored, context),
  };
}
