// System configuration (spec §7 SystemConfigSetting) and currency rates (spec §7 Currency). Reads are open to every
// logged-in user; changes are the host's.
import { z } from "zod";
import type { Registrar } from "../../http/calls.ts";
import { pagedResult } from "#shared/contract/common.ts";
import {
  createOrUpdateCurrencyInput,
  createOrUpdateSettingInput,
  currency,
  deleteByIdQuery,
  getSettingListQuery,
  publicSettings,
  setting,
  settingKeyQuery,
} from "#shared/contract/settings.ts";
import { knownSetting, setSettingValueInput } from "#shared/contract/setting-registry.ts";
import type { SettingService } from "./service.ts";

export function registerSettings(r: Registrar, { settings }: { settings: SettingService }) {
  const group = "SystemConfigSetting";
  r.call({
    group,
    name: "GetValueByKey",
    method: "GET",
    access: "user",
    summary: "A setting's value, or null when the key is not set",
    query: settingKeyQuery,
    result: z.string().nullable(),
    handler: (ctx, { query }) => settings.getValueByKey(ctx, query.key),
  });
  r.call({
    group,
    name: "GetPublicSettings",
    method: "GET",
    access: "anonymous",
    summary: "登录前可读的配置：是否开放自助注册（登录页据此显示“注册”）",
    result: publicSettings,
    handler: (ctx) => settings.getPublicSettings(ctx),
  });
  r.call({
    group,
    name: "Get",
    method: "GET",
    access: "user",
    summary: "A setting by key (404 when not set)",
    query: settingKeyQuery,
    result: setting,
    handler: (ctx, { query }) => settings.getByKey(ctx, query.key),
  });
  r.call({
    group,
    name: "GetList",
    method: "GET",
    access: "host",
    query: getSettingListQuery,
    result: pagedResult(setting),
    handler: (ctx, { query }) => settings.getList(ctx, query),
  });
  r.call({
    group,
    name: "CreateOrUpdate",
    method: "POST",
    access: "host",
    summary: "Creates a setting (new key) or, with id, updates it",
    body: createOrUpdateSettingInput,
    result: setting,
    handler: (ctx, { body }) => settings.createOrUpdate(ctx, body),
  });
  r.call({
    group,
    name: "GetKnownSettings",
    method: "GET",
    access: "host",
    summary: "Every setting the product reads: its meaning, kind, default and value now (null: unset)",
    result: z.array(knownSetting),
    handler: (ctx) => settings.getKnownSettings(ctx),
  });
  r.call({
    group,
    name: "SetValueByKey",
    method: "POST",
    access: "host",
    summary: "Sets a known setting's value after its rule (400 stores nothing); null or blank removes it (the default applies)",
    body: setSettingValueInput,
    result: knownSetting,
    handler: (ctx, { body }) => settings.setValueByKey(ctx, body),
  });
  r.call({
    group,
    name: "Delete",
    method: "DELETE",
    access: "host",
    query: deleteByIdQuery,
    handler: (ctx, { query }) => settings.deleteSetting(ctx, query.id),
  });

  r.call({
    group: "Currency",
    name: "GetAllCurrency",
    method: "GET",
    access: "user",
    summary: "Every currency rate (CNY for one unit), CNY first",
    result: z.array(currency),
    handler: (ctx) => settings.getAllCurrency(ctx),
  });
  r.call({
    group: "Currency",
    name: "CreateOrUpdateCurrency",
    method: "POST",
    access: "host",
    summary: "Creates a currency (new code) or, with id, updates it; CNY keeps rate 1",
    body: createOrUpdateCurrencyInput,
    result: currency,
    handler: (ctx, { body }) => settings.createOrUpdateCurrency(ctx, body),
  });
  r.call({
    group: "Currency",
    name: "DeleteCurrency",
    method: "DELETE",
    access: "host",
    summary: "Deletes a currency (not CNY)",
    query: deleteByIdQuery,
    handler: (ctx, { query }) => settings.deleteCurrency(ctx, query.id),
  });
}
