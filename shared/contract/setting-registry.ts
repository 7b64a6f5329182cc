// Every host setting the product reads (issue 28: 系统配置 listed nothing until the host typed a key). One entry per key:
// its Chinese name and meaning, the kind of value, what a missing or blank value means, and the rule a new value must
// pass. The server reads settings only by these keys (SettingKeys; values.ts takes no other), refuses a value that
// breaks its rule, and lists them with their values (SystemConfigSetting/GetKnownSettings) for the 系统配置 screen.
// A blank value always means the default: the readers already treat blank as unset.
import { z } from "zod";
import { commissionRateBasisPoints } from "./agency.ts";
import { receivingAccountList } from "./receiving-accounts.ts";
import { MAX_PACKAGE_COUNT } from "./subaccount-orders.ts";

const SETTING_KINDS = ["boolean", "integer", "percent", "nameList", "choice", "url", "text", "secret", "faq", "receivingAccounts"] as const;
export type SettingKind = (typeof SETTING_KINDS)[number];

/** What each kind is called on the screen. */
export const settingKindNames: Record<SettingKind, string> = {
  boolean: "开关",
  integer: "整数",
  percent: "百分比",
  nameList: "公司名列表",
  choice: "选项",
  url: "网址",
  text: "文本",
  secret: "密钥",
  faq: "常见问题",
  receivingAccounts: "收款账户",
};

export type SettingDefinition = {
  key: string;
  /** 名称. */
  name: string;
  /** 含义: what it changes, in the seller's or host's words. */
  description: string;
  kind: SettingKind;
  /** What an unset or blank value means (默认值). */
  defaultText: string;
  options?: readonly { value: string; label: string }[];
  min?: number;
  max?: number;
  /** The screen that also edits it, when it has one of its own. */
  editedAt?: string;
};

/** Every key the product reads, by the name code uses. */
export const SettingKeys = {
  selfRegistrationEnabled: "Account.IsSelfRegistrationEnabled",
  newVersionTenants: "Console.NewVersionTenants",
  financeHiddenTenants: "Console.FinanceHiddenTenants",
  faq: "Console.Faq",
  translateProvider: "Translate.Provider",
  translateUrl: "Translate.Url",
  translateApiKey: "Translate.ApiKey",
  translateModel: "Translate.Model",
  freeSubAccounts: "SubAccount.FreeCount",
  agencyCommissionRate: "Agency.CommissionRate",
  receivingAccounts: "Wallet.ReceivingAccounts",
  sandboxOrderInterval: "Sandbox.OrderIntervalMinutes",
} as const;
export type SettingKey = (typeof SettingKeys)[keyof typeof SettingKeys];

const K = SettingKeys;
export const SETTING_REGISTRY: readonly (SettingDefinition & { key: SettingKey })[] = [
  {
    key: K.selfRegistrationEnabled,
    name: "开放注册",
    description: "是否允许新公司在登录页自行注册；关闭后只能由平台管理员开通账号",
    kind: "boolean",
    defaultText: "关闭（内置演示库首次启动时设为开启）",
  },
  {
    key: K.newVersionTenants,
    name: "新版页面名单",
    description: "可见新版页面（如刊登中心）的公司名，逗号分隔；为空时所有公司都可见",
    kind: "nameList",
    defaultText: "空：所有公司可见",
  },
  {
    key: K.financeHiddenTenants,
    name: "隐藏财务中心的公司",
    description: "这些公司的子账号看不到财务中心（主账号始终可见），逗号分隔",
    kind: "nameList",
    defaultText: "空：子账号都可见",
  },
  {
    key: K.faq,
    name: "常见问题",
    description: "帮助中心 /faq/list 显示的问题与答案",
    kind: "faq",
    defaultText: "空：不显示常见问题",
    editedAt: "常见问题页（/faq/list）",
  },
  {
    key: K.translateProvider,
    name: "翻译服务",
    description: "商品标题、描述和类目名翻译使用的服务；未配置时翻译不可用，类目用内置中文名",
    kind: "choice",
    options: [
      { value: "libretranslate", label: "LibreTranslate（须填服务地址）" },
      { value: "deepl", label: "DeepL（须填 API Key）" },
      { value: "google", label: "Google 翻译（须填 API Key）" },
      { value: "openai", label: "OpenAI 兼容接口（须填 API Key）" },
    ],
    defaultText: "未配置",
  },
  {
    key: K.translateUrl,
    name: "翻译服务地址",
    description: "翻译服务的 http(s) 地址：LibreTranslate 必填，其他服务不填时用官方地址",
    kind: "url",
    defaultText: "官方地址",
  },
  {
    key: K.translateApiKey,
    name: "翻译 API Key",
    description: "DeepL、Google、OpenAI 的 API Key；加密保存，仅平台管理员可见",
    kind: "secret",
    defaultText: "空",
  },
  {
    key: K.translateModel,
    name: "翻译模型",
    description: "OpenAI 兼容接口使用的模型名；自定义地址时必填",
    kind: "text",
    max: 100,
    defaultText: "gpt-4o-mini",
  },
  {
    key: K.freeSubAccounts,
    name: "免费子账号数",
    description: "每个公司不购买套餐时可启用的子账号数；购买子账号套餐在此基础上增加。为空时不限制，套餐也就不能购买",
    kind: "integer",
    min: 0,
    max: MAX_PACKAGE_COUNT,
    defaultText: "空：不限制",
    editedAt: "子账号套餐页（/admin/package）",
  },
  {
    key: K.agencyCommissionRate,
    name: "推广佣金比例",
    description: "被推荐公司每笔购买，推荐公司获得的佣金占价格的百分比（0–100，最多两位小数，向下取整到分）",
    kind: "percent",
    min: 0,
    max: 100,
    defaultText: "空：无佣金",
  },
  {
    key: K.receivingAccounts,
    name: "平台收款账户",
    description: "卖家充值时转账的收款账户（户名、银行/支付宝/微信、账号、收款码），在充值对话框中显示",
    kind: "receivingAccounts",
    defaultText: "空：充值对话框不显示收款账户",
  },
  {
    key: K.sandboxOrderInterval,
    name: "沙箱下单间隔（分钟）",
    description: "内置美客多沙箱给每个已授权店铺自动下单的节奏：每隔这么多分钟平均 0.85 单；值保存在沙箱中，未启用沙箱时不可设置",
    kind: "integer",
    min: 1,
    max: 1440,
    defaultText: "30",
    editedAt: "沙箱页",
  },
];

export const settingDefinition = (key: string) => SETTING_REGISTRY.find((d) => d.key === key);

const nameListItem = /^[A-Za-z0-9_.-]{2,64}$/;

/** The rule each kind's (non-blank) value must pass, as a zod schema over the stored text. */
function ruleOf(d: SettingDefinition): z.ZodType<string> {
  const s = z.string();
  switch (d.kind) {
    case "boolean":
      return s.refine((v) => ["true", "false"].includes(v.trim().toLowerCase()), "须为 true 或 false");
    case "integer":
      return s.refine(
        (v) => {
          const n = Number(v.trim());
          return /^\d+$/.test(v.trim()) && n >= (d.min ?? 0) && n <= (d.max ?? Number.MAX_SAFE_INTEGER);
        },
        `须为 ${d.min ?? 0} 到 ${d.max} 之间的整数`,
      );
    case "percent":
      return s.refine(
        (v) => /^\d{1,3}(\.\d{1,2})?%?$/.test(v.trim()) && (commissionRateBasisPoints(v) > 0 || Number(v.trim().replace("%", "")) === 0),
        "须为 0 到 100 之间、最多两位小数的数字",
      );
    case "nameList":
      return s.refine(
        (v) => v.split(/[,;\n\r，；、]+/).every((n) => !n.trim() || nameListItem.test(n.trim())),
        "公司名须为 2–64 个字母、数字或 _ . -，用逗号分隔",
      );
    case "choice":
      return s.refine(
        (v) => (d.options ?? []).some((o) => o.value === v.trim().toLowerCase()),
        `须为 ${(d.options ?? []).map((o) => o.value).join("、")} 之一`,
      );
    case "url":
      return s.refine((v) => /^https?:\/\/[^\s/]+/i.test(v.trim()) && URL.canParse(v.trim()), "须为 http:// 或 https:// 开头的网址");
    case "text":
    case "secret":
      return s.max(d.max ?? 1000, `最多 ${d.max ?? 1000} 个字符`);
    case "faq":
      return s;
    case "receivingAccounts":
      return s.superRefine((v, ctx) => {
        let json: unknown;
        try {
          json = JSON.parse(v);
        } catch {
          ctx.addIssue({ code: "custom", message: "须为 JSON 数组" });
          return;
        }
        const r = receivingAccountList.safeParse(json);
        if (!r.success) {
          const first = r.error.issues[0];
          const at = typeof first.path[0] === "number" ? `第 ${first.path[0] + 1} 个账户：` : "";
          ctx.addIssue({ code: "custom", message: `${at}${first.message}` });
        }
      });
  }
}

/** Why `value` is refused for `key`, or null when it may be stored (blank: the default; unknown keys: free). */
export function settingValueError(key: string, value: string): string | null {
  const d = settingDefinition(key);
  if (!d || !value.trim()) return null;
  const r = ruleOf(d).safeParse(value);
  return r.success ? null : `${d.name}（${d.key}）${r.error.issues[0].message}`;
}

/** A known setting with its value now (GetKnownSettings, host only). */
export const knownSetting = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(SETTING_KINDS),
  kindName: z.string(),
  defaultText: z.string(),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  editedAt: z.string().optional(),
  /** The stored value, null when unset (the default applies). */
  value: z.string().nullable(),
  lastModificationTime: z.string().nullable(),
});
export type KnownSetting = z.infer<typeof knownSetting>;

/** SetValueByKey (host): a known key's value; null or blank removes it, so the default applies. */
export const setSettingValueInput = z.object({
  key: z.string().refine((k) => !!settingDefinition(k), "不是系统读取的配置键"),
  value: z.string().max(65_536, "值过长").nullable(),
});
export type SetSettingValueInput = z.input<typeof setSettingValueInput>;
