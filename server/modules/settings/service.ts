// System configuration settings (spec §7 SystemConfigSetting): host-maintained key/value pairs that every area reads
// through db/settings.ts. Settings are platform data (no tenant), readable by any logged-in user, changed only by the host;
// secrets (API keys of providers and the like, see isSecretSettingKey) are readable by the host only.
import { randomUUID } from "node:crypto";
import { and, asc, eq, ilike, ne, or } from "drizzle-orm";
import type { z } from "zod";
import { settings } from "../../db/schema.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError, forbidden, notFound } from "../../http/errors.ts";
import type { PagedResult } from "#shared/contract/common.ts";
import type { createOrUpdateSettingInput, getSettingListQuery, PublicSettings, Setting } from "#shared/contract/settings.ts";
import { containsPattern, orderBy, pageOf } from "../../db/query.ts";
import { isSecretSettingKey, isSelfRegistrationEnabled, readStoredValue, settingValueOf, storedSettingValue } from "../../db/settings.ts";
import { assertValidValue, createKnownSettings, type RuntimeSetting } from "./known.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { createOrUpdateCurrency, deleteCurrency, getAllCurrency } from "./currency.ts";

type SettingRow = typeof settings.$inferSelect;

function toSetting(secrets: SecretBox, s: SettingRow): Setting {
  return {
    id: s.id,
    name: s.name,
    key: s.key,
    value: settingValueOf(secrets, s.key, s.value),
    description: s.description,
    creationTime: s.creationTime.toISOString(),
    lastModificationTime: s.lastModificationTime ? s.lastModificationTime.toISOString() : null,
  };
}

function checkReadable(ctx: CallContext, key: string) {
  if (!ctx.user?.isHost && isSecretSettingKey(key)) throw forbidden("仅平台管理员可以查看此配置");
}

/** Settings and currency rates; secret settings are sealed with `secrets` at rest. */
export function createSettingService({ secrets, runtime }: { secrets: SecretBox; runtime?: RuntimeSetting[] }) {
  async function getValueByKey(ctx: CallContext, key: string): Promise<string | null> {
    checkReadable(ctx, key);
    return readStoredValue(ctx.tx, secrets, key);
  }

  /** What the login screen may know before login (anonymous); nothing else of the settings is read here. */
  async function getPublicSettings(ctx: CallContext): Promise<PublicSettings> {
    return { selfRegistrationEnabled: await isSelfRegistrationEnabled(ctx.tx) };
  }

  async function getByKey(ctx: CallContext, key: string): Promise<Setting> {
    checkReadable(ctx, key);
    const rows = await ctx.tx.select().from(settings).where(eq(settings.key, key)).limit(1);
    if (!rows[0]) throw notFound(`配置 ${key} 不存在`);
    return toSetting(secrets, rows[0]);
  }

  const sortColumns = {
    name: settings.name,
    key: settings.key,
    creationTime: settings.creationTime,
    lastModificationTime: settings.lastModificationTime,
  };

  async function getList(ctx: CallContext, q: z.output<typeof getSettingListQuery>): Promise<PagedResult<Setting>> {
    const search = q.Search?.trim();
    const where = search
      ? or(
          ilike(settings.name, containsPattern(search)),
          ilike(settings.key, containsPattern(search)),
          ilike(settings.value, containsPattern(search)),
          ilike(settings.description, containsPattern(search)),
        )
      : undefined;
    return pageOf(
      ctx.tx,
      settings,
      where,
      { skip: q.SkipCount, take: q.MaxResultCount, order: [orderBy(q.Sorting, sortColumns, asc(settings.key)), asc(settings.id)] },
      (row) => toSetting(secrets, row),
    );
  }

  async function createOrUpdate(ctx: CallContext, body: z.output<typeof createOrUpdateSettingInput>): Promise<Setting> {
    assertValidValue(body.key, body.value);
    if (body.id) {
      const current = await ctx.tx.select({ id: settings.id }).from(settings).where(eq(settings.id, body.id)).limit(1);
      if (!current[0]) throw notFound("配置不存在");
    }
    const taken = await ctx.tx
      .select({ id: settings.id })
      .from(settings)
      .where(body.id ? and(eq(settings.key, body.key), ne(settings.id, body.id)) : eq(settings.key, body.key))
      .limit(1);
    if (taken.length) throw businessError(`键 ${body.key} 已存在`, "DuplicateSettingKey");
    const values = {
      name: body.name,
      key: body.key,
      value: storedSettingValue(secrets, body.key, body.value),
      description: body.description ?? null,
    };
    if (body.id) {
      const [row] = await ctx.tx
        .update(settings)
        .set({ ...values, lastModificationTime: new Date(), lastModifierId: ctx.user!.id })
        .where(eq(settings.id, body.id))
        .returning();
      return toSetting(secrets, row);
    }
    const [row] = await ctx.tx
      .insert(settings)
      .values({ id: randomUUID(), ...values, creatorId: ctx.user!.id })
      .returning();
    return toSetting(secrets, row);
  }

  async function deleteSetting(ctx: CallContext, id: string): Promise<void> {
    const rows = await ctx.tx.delete(settings).where(eq(settings.id, id)).returning({ id: settings.id });
    if (!rows.length) throw notFound("配置不存在");
  }
  return {
    getValueByKey,
    getPublicSettings,
    getByKey,
    getList,
    createOrUpdate,
    deleteSetting,
    ...createKnownSettings({ secrets, runtime }),
    getAllCurrency,
    createOrUpdateCurrency,
    deleteCurrency,
  };
}

export type SettingService = ReturnType<typeof createSettingService>;
