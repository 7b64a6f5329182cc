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
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

const setting_ = (name: string) => `/api/SystemConfigSetting/${name}`;
const currency_ = (name: string) => `/api/Currency/${name}`;

export const settingsCalls = {
  /** The value, or null when the key is not set. */
  getValueByKey: call({ method: "GET", path: setting_("GetValueByKey"), query: settingKeyQuery, result: z.string().nullable() }),
  /** The setting; 404 when the key is not set. */
  get: call({ method: "GET", path: setting_("Get"), query: settingKeyQuery, result: setting }),
  /** What the login screen may know before login (anonymous): whether self-registration is open. */
  getPublicSettings: call({ method: "GET", path: setting_("GetPublicSettings"), result: publicSettings }),
  getList: call({ method: "GET", path: setting_("GetList"), query: getSettingListQuery, result: pagedResult(setting) }),
  createOrUpdate: call({ method: "POST", path: setting_("CreateOrUpdate"), body: createOrUpdateSettingInput, result: setting }),
  delete: call({ method: "DELETE", path: setting_("Delete"), query: deleteByIdQuery }),
  /** Every setting the product reads, with its meaning and value now (host). */
  getKnownSettings: call({ method: "GET", path: setting_("GetKnownSettings"), result: z.array(knownSetting) }),
  /** A known setting's value (host); null or blank removes it. */
  setValueByKey: call({ method: "POST", path: setting_("SetValueByKey"), body: setSettingValueInput, result: knownSetting }),
};

export const currencyCalls = {
  getAllCurrency: call({ method: "GET", path: currency_("GetAllCurrency"), result: z.array(currency) }),
  createOrUpdateCurrency: call({
    method: "POST",
    path: currency_("CreateOrUpdateCurrency"),
    body: createOrUpdateCurrencyInput,
    result: currency,
  }),
  deleteCurrency: call({ method: "DELETE", path: currency_("DeleteCurrency"), query: deleteByIdQuery }),
};

export const createSettingsApi = (client: ApiClient) => bindCalls(client, settingsCalls);
export const createCurrencyApi = (client: ApiClient) => bindCalls(client, currencyCalls);
export type SettingsApi = ReturnType<typeof createSettingsApi>;
export type CurrencyApi = ReturnType<typeof createCurrencyApi>;
