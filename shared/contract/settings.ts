// System configuration settings and currency rates (spec §3 Other, §7 SystemConfigSetting and Currency). Any logged-in
// user reads them; only the host changes them.
import { z } from "zod";
import { id, pagedQuery, text } from "./common.ts";

/** A setting's key: letters, digits and _ . : - (e.g. Console.Faq). */
const settingKey = z
  .string()
  .trim()
  .min(1, "键不能为空")
  .max(128, "键最多128个字符")
  .regex(/^[A-Za-z0-9_.:-]+$/, "键只能包含字母、数字和 _ . : -");

export const setting = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string(),
  value: z.string(),
  description: z.string().nullable(),
  creationTime: z.string(),
  lastModificationTime: z.string().nullable(),
});
export type Setting = z.infer<typeof setting>;

/** Reading by key: an unknown or malformed key is simply not there (null, or 404 for Get). */
export const settingKeyQuery = z.object({ key: z.string().trim().min(1).max(128) });

export const getSettingListQuery = pagedQuery(["name", "key", "creationTime", "lastModificationTime"]).extend({
  /** Matches name, key, value and description. */
  Search: z.string().max(100).optional(),
});

/** What the screens before login may know of the host's settings (GetPublicSettings, anonymous): the login screen
 *  offers 注册 only when self-registration is open. */
export const publicSettings = z.object({
  /** Account.IsSelfRegistrationEnabled: a new company may sign itself up (POST /api/account/register). */
  selfRegistrationEnabled: z.boolean(),
});
export type PublicSettings = z.infer<typeof publicSettings>;

export const MAX_SETTING_VALUE_LENGTH = 65_536;

/** Without id a setting is created (its key must be new); with id that setting is updated. */
export const createOrUpdateSettingInput = z.object({
  id: id.nullable().optional(),
  name: z.string().trim().min(1, "名称不能为空").max(128, "名称最多128个字符"),
  key: settingKey,
  value: z.string().max(MAX_SETTING_VALUE_LENGTH, "值过长"),
  description: text(500).nullable().optional(),
});
export type CreateOrUpdateSettingInput = z.input<typeof createOrUpdateSettingInput>;

export const deleteByIdQuery = z.object({ id });

/** Currency rate (spec §3): rate is CNY for one unit of the currency, as a decimal string (CNY itself is "1"). */
export const currency = z.object({
  id: z.string(),
  creationTime: z.string(),
  code: z.string(),
  zh: z.string(),
  rate: z.string(),
});
export type Currency = z.infer<typeof currency>;

export const BASE_CURRENCY = "CNY";

/** A positive decimal with at most 10 integer digits and 8 decimals, as a number or a string; read as a string. */
const rate = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : v),
  z
    .string()
    .trim()
    .regex(/^\d{1,10}(\.\d{1,8})?$/, "汇率须为最多10位整数、8位小数的数字")
    .refine((s) => /[1-9]/.test(s), "汇率必须大于0"),
);

/** Without id a currency is created (its code must be new); with id that currency is updated. */
export const createOrUpdateCurrencyInput = z.object({
  id: id.nullable().optional(),
  code: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, "币种代码须为3个大写字母"),
  zh: z.string().trim().min(1, "中文名称不能为空").max(32, "中文名称最多32个字符"),
  rate,
});
