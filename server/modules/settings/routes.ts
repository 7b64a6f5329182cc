// System configuration (spec §7 SystemConfigSetting) and currency rates (spec §7 Currency), declared in
// shared/api/settings.ts. Reads are open to every logged-in user; changes are the host's.
import type { Tx } from "../../db/client.ts";
import type { Registrar } from "../../http/calls.ts";
import { currencyCalls, settingsCalls as calls } from "#shared/api/settings.ts";
import type { SettingService } from "./service.ts";

/** The listings' margin recompute (listings/margin-job.ts), told of a rate's change in the saving call's transaction. */
type Margins = { changed(tx: Tx, change: { reason: "rate"; currency: string }): Promise<unknown> };

export function registerSettings(r: Registrar, { settings, margins }: { settings: SettingService; margins: Margins }) {
  r.handle(calls.getValueByKey, { handler: (ctx, { query }) => settings.getValueByKey(ctx, query.key) });
  r.handle(calls.getPublicSettings, { handler: (ctx) => settings.getPublicSettings(ctx) });
  r.handle(calls.get, { handler: (ctx, { query }) => settings.getByKey(ctx, query.key) });
  r.handle(calls.getList, { handler: (ctx, { query }) => settings.getList(ctx, query) });
  r.handle(calls.createOrUpdate, { handler: (ctx, { body }) => settings.createOrUpdate(ctx, body) });
  r.handle(calls.getKnownSettings, { handler: (ctx) => settings.getKnownSettings(ctx) });
  r.handle(calls.setValueByKey, { handler: (ctx, { body }) => settings.setValueByKey(ctx, body) });
  r.handle(calls.delete, { handler: (ctx, { query }) => settings.deleteSetting(ctx, query.id) });

  r.handle(currencyCalls.getAllCurrency, { handler: (ctx) => settings.getAllCurrency(ctx) });
  const rateChanged = (tx: Tx) => (currency: string) => margins.changed(tx, { reason: "rate", currency });
  r.handle(currencyCalls.createOrUpdateCurrency, {
    handler: (ctx, { body }) => settings.createOrUpdateCurrency(ctx, body, rateChanged(ctx.tx)),
  });
  r.handle(currencyCalls.deleteCurrency, {
    handler: async (ctx, { query }) => {
      await rateChanged(ctx.tx)(await settings.deleteCurrency(ctx, query.id));
    },
  });
}
