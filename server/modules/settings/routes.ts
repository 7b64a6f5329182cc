// System configuration (spec §7 SystemConfigSetting) and currency rates (spec §7 Currency), declared in
// shared/api/settings.ts. Reads are open to every logged-in user; changes are the host's.
import type { Registrar } from "../../http/calls.ts";
import { currencyCalls, settingsCalls as calls } from "#shared/api/settings.ts";
import type { SettingService } from "./service.ts";

export function registerSettings(r: Registrar, { settings }: { settings: SettingService }) {
  r.handle(calls.getValueByKey, { handler: (ctx, { query }) => settings.getValueByKey(ctx, query.key) });
  r.handle(calls.getPublicSettings, { handler: (ctx) => settings.getPublicSettings(ctx) });
  r.handle(calls.get, { handler: (ctx, { query }) => settings.getByKey(ctx, query.key) });
  r.handle(calls.getList, { handler: (ctx, { query }) => settings.getList(ctx, query) });
  r.handle(calls.createOrUpdate, { handler: (ctx, { body }) => settings.createOrUpdate(ctx, body) });
  r.handle(calls.getKnownSettings, { handler: (ctx) => settings.getKnownSettings(ctx) });
  r.handle(calls.setValueByKey, { handler: (ctx, { body }) => settings.setValueByKey(ctx, body) });
  r.handle(calls.delete, { handler: (ctx, { query }) => settings.deleteSetting(ctx, query.id) });

  r.handle(currencyCalls.getAllCurrency, { handler: (ctx) => settings.getAllCurrency(ctx) });
  r.handle(currencyCalls.createOrUpdateCurrency, { handler: (ctx, { body }) => settings.createOrUpdateCurrency(ctx, body) });
  r.handle(currencyCalls.deleteCurrency, { handler: (ctx, { query }) => settings.deleteCurrency(ctx, query.id) });
}
