// System configuration (spec §7 SystemConfigSetting) and currency rates (spec §7 Currency). Reads for every logged-in
// user; changes for the host.
import { z } from "zod";
import { pagedResult } from "../contract/common.ts";
import {
  createOrUpdateCurrencyInput,
  createOrUpdateSettingInput,
  currency,
  deleteByIdQuery,
  getSettingListQuery,
  publicSettings,
  setting,
  settingKeyQuery,
} from "../contract/settings.ts";
import { knownSetting, setSettingValueInput } from "../contract/setting-registry.ts";
import { call } from "./define.ts";

const group = "SystemConfigSetting";

export const settingsCalls = {
  getValueByKey: call({
    group,
    name: "GetValueByKey",
    method: "GET",
    access: "user",
    summary: "A setting's value, or null when the key is not set",
    query: settingKeyQuery,
    result: z.string().nullable(),
  }),
  get: call({
    group,
    name: "Get",
    method: "GET",
    access: "user",
    summary: "A setting by key (404 when not set)",
    query: settingKeyQuery,
    result: setting,
  }),
  getPublicSettings: call({
    group,
    name: "GetPublicSettings",
    method: "GET",
    access: "anonymous",
    summary: "登录前可读的配置：是否开放自助注册（登录页据此显示“注册”）",
    result: publicSettings,
  }),
  getList: call({
    group,
    name: "GetList",
    method: "GET",
    access: "host",
    summary: "The stored settings, a page of them",
    query: getSettingListQuery,
    result: pagedResult(setting),
  }),
  createOrUpdate: call({
    group,
    name: "CreateOrUpdate",
    method: "POST",
    access: "host",
    summary: "Creates a setting (new key) or, with id, updates it",
    body: createOrUpdateSettingInput,
    result: setting,
  }),
  delete: call({
    group,
    name: "Delete",
    method: "DELETE",
    access: "host",
    summary: "Deletes a setting by id (404 when there is none)",
    query: deleteByIdQuery,
  }),
  getKnownSettings: call({
    group,
    name: "GetKnownSettings",
    method: "GET",
    access: "host",
    summary: "Every setting the product reads: its meaning, kind, default and value now (null: unset)",
    result: z.array(knownSetting),
  }),
  setValueByKey: call({
    group,
    name: "SetValueByKey",
    method: "POST",
    access: "host",
    summary: "Sets a known setting's value after its rule (400 stores nothing); null or blank removes it (the default applies)",
    body: setSettingValueInput,
    result: knownSetting,
  }),
};

const currencyGroup = "Currency";

export const currencyCalls = {
  getAllCurrency: call({
    group: currencyGroup,
    name: "GetAllCurrency",
    method: "GET",
    access: "user",
    summary: "Every currency rate (CNY for one unit), CNY first",
    result: z.array(currency),
  }),
  createOrUpdateCurrency: call({
    group: currencyGroup,
    name: "CreateOrUpdateCurrency",
    method: "POST",
    access: "host",
    summary: "Creates a currency (new code) or, with id, updates it; CNY keeps rate 1",
    body: createOrUpdateCurrencyInput,
    result: currency,
  }),
  deleteCurrency: call({
    group: currencyGroup,
    name: "DeleteCurrency",
    method: "DELETE",
    access: "host",
    summary: "Deletes a currency (not CNY)",
    query: deleteByIdQuery,
  }),
};
