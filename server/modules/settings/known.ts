// The settings the product reads (shared/contract/setting-registry.ts), listed with their values for the 系统配置 screen
// (GetKnownSettings) and set by key (SetValueByKey): a value its rule refuses is a 400 that stores nothing; null or
// blank removes the row, so the default applies. Host only (routes.ts).
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import { settings } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { AppError } from "../../http/errors.ts";
import {
  SETTING_REGISTRY,
  settingDefinition,
  settingKindNames,
  settingValueError,
  type KnownSetting,
  type SettingKey,
  type setSettingValueInput,
} from "#shared/contract/setting-registry.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { settingValueOf, storedSettingValue } from "../../db/settings.ts";

/** A value a known key's rule refuses is a 400 in the validation envelope, naming the setting; nothing is stored. */
export function assertValidValue(key: string, value: string) {
  const error = settingValueError(key, value);
  if (error) throw new AppError(400, "Your request is not valid!", "Validation", error, [{ message: error, members: ["value"] }]);
}

/**
 * A known setting whose value lives in a running part rather than the settings table (the built-in sandbox's order
 * pace): read and written through it; `write(null)` puts back its default. Throws an AppError when it cannot.
 */
export type RuntimeSetting = { key: SettingKey; read: () => string | null; write: (value: string | null) => void };

export function createKnownSettings({ secrets, runtime = [] }: { secrets: SecretBox; runtime?: RuntimeSetting[] }) {
  const runtimeOf = (key: string) => runtime.find((r) => r.key === key);

  async function getKnownSettings(ctx: CallContext): Promise<KnownSetting[]> {
    const rows = await ctx.tx
      .select()
      .from(settings)
      .where(
        inArray(
          settings.key,
          SETTING_REGISTRY.map((d) => d.key),
        ),
      );
    const byKey = new Map(rows.map((r) => [r.key, r]));
    return SETTING_REGISTRY.map((d) => {
      const row = byKey.get(d.key);
      const live = runtimeOf(d.key);
      if (live) return { ...d, options: undefined, kindName: settingKindNames[d.kind], value: live.read(), lastModificationTime: null };
      return {
        ...d,
        options: d.options ? [...d.options] : undefined,
        kindName: settingKindNames[d.kind],
        value: row ? settingValueOf(secrets, row.key, row.value) : null,
        lastModificationTime: row ? (row.lastModificationTime ?? row.creationTime).toISOString() : null,
      };
    });
  }

  async function setValueByKey(ctx: CallContext, body: z.output<typeof setSettingValueInput>): Promise<KnownSetting> {
    const d = settingDefinition(body.key)!;
    const value = body.value?.trim() ? body.value : null;
    const live = runtimeOf(d.key);
    if (live) {
      if (value !== null) assertValidValue(d.key, value);
      live.write(value);
    } else if (value === null) {
      await ctx.tx.delete(settings).where(eq(settings.key, d.key));
    } else {
      assertValidValue(d.key, value);
      const stored = storedSettingValue(secrets, d.key, value);
      await ctx.tx
        .insert(settings)
        .values({ id: randomUUID(), name: d.name, key: d.key, value: stored, description: d.description, creatorId: ctx.user!.id })
        .onConflictDoUpdate({
          target: settings.key,
          set: { value: stored, lastModificationTime: new Date(), lastModifierId: ctx.user!.id },
        });
    }
    return (await getKnownSettings(ctx)).find((k) => k.key === d.key)!;
  }

  return { getKnownSettings, setValueByKey };
}
