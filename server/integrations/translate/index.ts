// The translator the host configured: Translate.Provider picks the adapter, Translate.Url, Translate.ApiKey and
// Translate.Model configure it (host settings, read through db/settings.ts; nothing comes from the environment).
// Without a provider, or with one that lacks what it needs, the call fails with a message the seller can act on.
import type { Tx } from "../../db/client.ts";
import { readSettingValues, SettingKeys } from "../../db/settings.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { createDeepL } from "./deepl.ts";
import { createGoogle } from "./google.ts";
import { createLibreTranslate } from "./libretranslate.ts";
import { createOpenAI, openaiDefaultUrl } from "./openai.ts";
import { providerNames, TranslationError, type ProviderName, type Translator, type TranslatorOptions } from "./types.ts";

export type TranslateSettings = { provider: string | null; url: string | null; apiKey: string | null; model: string | null };

const misconfigured = (provider: ProviderName | null, what: string) =>
  new TranslationError("misconfigured", provider, null, { message: `翻译服务配置有误：${what}，请联系管理员在系统设置中检查翻译服务配置` });

export async function readTranslateSettings(tx: Tx, secrets: SecretBox): Promise<TranslateSettings> {
  const k = SettingKeys;
  const v = await readSettingValues(tx, secrets, [k.translateProvider, k.translateUrl, k.translateApiKey, k.translateModel]);
  return { provider: v[k.translateProvider], url: v[k.translateUrl], apiKey: v[k.translateApiKey], model: v[k.translateModel] };
}

/** The adapter for these settings; throws TranslationError when they do not describe a usable provider. */
export function createTranslator(settings: TranslateSettings, options: TranslatorOptions = {}): Translator {
  const name = settings.provider?.trim().toLowerCase() ?? "";
  if (!name) throw new TranslationError("not-configured", null);
  if (!(providerNames as readonly string[]).includes(name))
    throw misconfigured(null, `不支持的翻译服务“${settings.provider!.trim()}”（Translate.Provider 可选 ${providerNames.join("、")}）`);
  const provider = name as ProviderName;
  const url = settings.url?.trim() || null;
  const apiKey = settings.apiKey?.trim() || null;
  const model = settings.model?.trim() || null;
  if (url) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      // answered below
    }
    if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
      throw misconfigured(provider, "服务地址（Translate.Url）不是有效的 http(s) 地址");
  }
  switch (provider) {
    case "libretranslate":
      if (!url) throw misconfigured(provider, "LibreTranslate 需要服务地址（Translate.Url）");
      return createLibreTranslate({ url, apiKey }, options);
    case "deepl":
      if (!apiKey) throw misconfigured(provider, "DeepL 需要 API Key（Translate.ApiKey）");
      return createDeepL({ apiKey, url }, options);
    case "google":
      if (!apiKey) throw misconfigured(provider, "Google 翻译需要 API Key（Translate.ApiKey）");
      return createGoogle({ apiKey, url }, options);
    case "openai":
      if (!apiKey && (!url || new URL(url).origin === openaiDefaultUrl))
        throw misconfigured(provider, "OpenAI 需要 API Key（Translate.ApiKey）");
      if (url && new URL(url).origin !== openaiDefaultUrl && !model)
        throw misconfigured(provider, "自定义地址需要模型名称（Translate.Model）");
      return createOpenAI({ url, apiKey, model }, options);
  }
}

/** The translator of the host's settings, read in the caller's transaction. */
export async function translatorFromSettings(tx: Tx, secrets: SecretBox, options: TranslatorOptions = {}): Promise<Translator> {
  return createTranslator(await readTranslateSettings(tx, secrets), options);
}
