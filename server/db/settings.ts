// Reading host settings anywhere in the server (feature switches, lists the host maintains, the translator): the settings
// module's calls write them; this is the one way code reads a value (below the modules, so any layer may read one).
import { eq, inArray } from "drizzle-orm";
import type { Tx } from "./client.ts";
import { settings } from "./schema.ts";
import { SecretError, type SecretBox } from "../security/secrets.ts";
import { SettingKeys, type SettingKey } from "#shared/contract/setting-registry.ts";

/** Every key the product reads (shared/contract/setting-registry.ts: one entry per key, with its meaning and rule). */
export { SettingKeys, type SettingKey } from "#shared/contract/setting-registry.ts";

/** Keys whose values must not reach tenant users: any key with a segment or word such as Secret, ApiKey, Password,
 *  Token or PrivateKey (e.g. Translate.DeepL.ApiKey, Secret.Smtp). Areas storing credentials name them so. */
export function isSecretSettingKey(key: string): boolean {
  return /(secret|apikey|api_key|password|token|privatekey|private_key)/i.test(key);
}

/** A plain setting's value. Secret keys are read with readSettingValues (they are stored encrypted). */
export async function getSettingValue(tx: Tx, key: SettingKey): Promise<string | null> {
  if (isSecretSettingKey(key)) throw new Error(`${key} is a secret setting: read it with readSettingValues`);
  const rows = await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
  return rows[0]?.value ?? null;
}

/** Whether a new company may sign itself up (Account.IsSelfRegistrationEnabled): only an explicit true opens it. */
export async function isSelfRegistrationEnabled(tx: Tx): Promise<boolean> {
  const value = await getSettingValue(tx, SettingKeys.selfRegistrationEnabled);
  return value?.trim().toLowerCase() === "true";
}

// Secret settings (API keys, passwords) are stored encrypted (server/security/secrets.ts), bound to their key, so the
// database alone does not give them away. A value stored before encryption reads as it is until it is saved again.
const secretContext = (key: string) => `settings:${key}`;

/** The value to store for a key: encrypted for a secret key. */
export function storedSettingValue(secrets: SecretBox, key: string, value: string): string {
  return isSecretSettingKey(key) ? secrets.encrypt(value, secretContext(key)) : value;
}

/** A stored value as the host set it: decrypted for a secret key. */
export function settingValueOf(secrets: SecretBox, key: string, stored: string): string {
  if (!isSecretSettingKey(key)) return stored;
  try {
    return secrets.decrypt(stored, secretContext(key));
  } catch (e) {
    if (e instanceof SecretError) return stored;
    throw e;
  }
}

/** Several settings in one query (secret ones decrypted); a missing key reads null. Only keys the registry knows. */
export async function readSettingValues<K extends SettingKey>(
  tx: Tx,
  secrets: SecretBox,
  keys: readonly K[],
): Promise<Record<K, string | null>> {
  return readStoredValues(tx, secrets, keys);
}

/** Any stored key's value, known or not: the generic GetValueByKey call's read (settings/service.ts). */
export async function readStoredValue(tx: Tx, secrets: SecretBox, key: string): Promise<string | null> {
  return (await readStoredValues(tx, secrets, [key]))[key];
}

async function readStoredValues<K extends string>(tx: Tx, secrets: SecretBox, keys: readonly K[]): Promise<Record<K, string | null>> {
  const rows = await tx
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, [...keys]));
  const found = new Map(rows.map((r) => [r.key, settingValueOf(secrets, r.key, r.value)]));
  return Object.fromEntries(keys.map((k) => [k, found.get(k) ?? null])) as Record<K, string | null>;
}
