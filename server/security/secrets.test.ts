// Secrets at rest: AES-256-GCM under a key derived from the server secret, bound to where the value is stored.
import { describe, expect, it } from "vitest";
import { createSecretBox, decryptSecret, encryptSecret, SecretError, secretKeyFrom } from "./secrets.ts";

const SERVER_SECRET = "a-server-secret-of-at-least-32-characters!";

describe("secrets at rest", () => {
  it("round-trips, and never stores the plain text or the same bytes twice", () => {
    const box = createSecretBox(SERVER_SECRET);
    const a = box.encrypt("APP_USR-123-token", "table:row:column");
    const b = box.encrypt("APP_USR-123-token", "table:row:column");
    expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(a).not.toContain("APP_USR");
    expect(a).not.toBe(b);
    expect(box.decrypt(a, "table:row:column")).toBe("APP_USR-123-token");
    expect(box.decrypt(box.encrypt("", "c"), "c")).toBe("");
    expect(box.decrypt(box.encrypt("令牌 ✓", "c"), "c")).toBe("令牌 ✓");
  });

  it("refuses another context (a value moved to another row), another key, and any change", () => {
    const key = secretKeyFrom(SERVER_SECRET);
    const stored = encryptSecret(key, "secret", "t:1:access_token");
    expect(() => decryptSecret(key, stored, "t:2:access_token")).toThrow(SecretError);
    expect(() => decryptSecret(secretKeyFrom(SERVER_SECRET + "x"), stored, "t:1:access_token")).toThrow(SecretError);
    const [v, iv, tag, data] = stored.split(".");
    const flipped = Buffer.from(data, "base64url");
    flipped[0] ^= 1;
    expect(() => decryptSecret(key, [v, iv, tag, flipped.toString("base64url")].join("."), "t:1:access_token")).toThrow(SecretError);
    expect(() => decryptSecret(key, "secret", "t:1:access_token")).toThrow("not an encrypted secret");
    expect(() => decryptSecret(key, `v2.${iv}.${tag}.${data}`, "t:1:access_token")).toThrow(SecretError);
  });

  it("derives a different key per purpose", () => {
    expect(secretKeyFrom(SERVER_SECRET, "a").equals(secretKeyFrom(SERVER_SECRET, "b"))).toBe(false);
    expect(secretKeyFrom(SERVER_SECRET)).toHaveLength(32);
  });
});
