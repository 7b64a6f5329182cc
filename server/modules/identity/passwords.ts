// Password hashing with scrypt (node:crypto, no native build). Stored as scrypt$N$r$p$salt$hash.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(pw, salt, len, opts, (err, key) => (err ? reject(err) : resolve(key))));

/** scrypt's cost (N) a new hash gets unless the config says otherwise (PASSWORD_HASH_COST). */
export const DEFAULT_HASH_COST = 16384;
const r = 8;
const p = 1;

/**
 * Hashes passwords at one cost. A hash keeps its own cost, so verifying reads it from the hash and a changed setting
 * never locks anyone out. The tests' servers use a low cost: a test run makes thousands of accounts and logins.
 */
export function createPasswordHasher(N = DEFAULT_HASH_COST) {
  return {
    /** A hash no password matches, verified for a name with no account so it takes as long as a wrong password. */
    unmatchableHash: `scrypt$${N}$${r}$${p}$${Buffer.alloc(16).toString("base64")}$${Buffer.alloc(32).toString("base64")}`,
    async hash(password: string): Promise<string> {
      const salt = randomBytes(16);
      const key = await scrypt(password, salt, 32, { N, r, p });
      return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
    },
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [n, rr, pp] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], "base64");
  const expected = Buffer.from(parts[5], "base64");
  const key = await scrypt(password, salt, expected.length, { N: n, r: rr, p: pp, maxmem: 64 * 1024 * 1024 });
  return timingSafeEqual(key, expected);
}

/** A readable random password for generated accounts: letters and digits, always both. */
export function generatePassword(length = 14): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out.slice(0, length - 2) + "a" + String(bytes[0] % 10);
}
