// The set-up the browser tests of publishing share: `npm start` on a fresh DATA_DIR (a fresh database on PostgreSQL)
// with the demo content (a sandbox shop on Mexico, synced categories), the demo seller's token, GTIN codes in its pool,
// and the demo tenant listed for the new-version screens (the publish records, spec §2); and the attribute values a
// publish request sends for a category's required attributes.
import { expect } from "vitest";
import { ean13s } from "../server/testing/publish-kit.ts";
import { accessToken, type AppProcess, callApi, startFreshApp, until } from "./app-process.ts";

/** Celulares y Teléfonos > Accesorios > Baterías Externas, on Mexico. */
export const DEMO_CATEGORY = "MLM188064";

const ADMIN_PASSWORD = "Admin-e2e-2026";

export type DemoProduct = { id: string; images: string[] };
export type Attribute = {
  id: string;
  valueType: string;
  tags: string[];
  values: { id: string; name: string }[];
  defaultUnit: string | null;
};

export type DemoPublishing = {
  app: AppProcess;
  stop: () => Promise<void>;
  demo: { tenant: string; user: string; password: string };
  token: string;
  /** An API call as the demo seller. */
  call: <T>(method: string, path: string, body?: unknown) => Promise<T>;
};

export async function startDemoPublishing(name: string, o: { codes: number; firstCode: number }): Promise<DemoPublishing> {
  const { app, stop } = await startFreshApp(name, { DEMO_DATA: "1", ADMIN_PASSWORD });
  try {
    return await prepare(app, stop, o);
  } catch (e) {
    await stop();
    throw e;
  }
}

async function prepare(app: AppProcess, stop: () => Promise<void>, o: { codes: number; firstCode: number }): Promise<DemoPublishing> {
  const demo = app.firstStart.demo!;
  const token = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  const call = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);
  await until(
    "demo products",
    () => call<{ items: DemoProduct[] }>("POST", "/api/Product/GetProductsByPage", { maxResultCount: 100 }),
    (p) => p.items.length >= 16,
  );
  const codes = ean13s(o.codes, o.firstCode);
  expect(await call("POST", "/api/MeliCode/SetCodes", { codes })).toMatchObject({ added: codes.length });
  return { app, stop, demo, token, call };
}

/** A value for every required attribute the publisher does not fill itself, as the publish screen's form asks them. */
export function requiredValues(attrs: Attribute[]) {
  const filled = new Set(["GTIN", "EMPTY_GTIN_REASON", "SELLER_SKU", "ITEM_CONDITION"]);
  return attrs
    .filter((a) => a.tags.includes("required") && !filled.has(a.id) && !a.id.startsWith("PACKAGE_"))
    .map((a) =>
      a.values.length
        ? { id: a.id, valueId: a.values[0].id, valueName: a.values[0].name }
        : {
            id: a.id,
            valueId: null,
            valueName: a.valueType === "number_unit" ? `10 ${a.defaultUnit ?? "cm"}` : a.valueType === "number" ? "1" : "X1",
          },
    );
}
