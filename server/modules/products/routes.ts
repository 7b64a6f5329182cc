// The product centre's calls (spec §7 Product, ProductLabel): each part registers its own calls.
import type { AppDeps } from "../../app.ts";
import type { Registrar } from "../../http/calls.ts";
import { registerProductBulk } from "./bulk.ts";
import { registerProductCore } from "./core-routes.ts";
import { registerProductExport } from "./export.ts";
import { registerProductExtensions } from "./extensions.ts";
import { registerProductLabels } from "./labels.ts";
import { registerPredictWeight } from "./predict-weight.ts";
import { registerProductTranslate } from "./translate.ts";

export function registerProducts(r: Registrar, deps: AppDeps) {
  registerProductExtensions();
  registerProductCore(r);
  registerProductBulk(r, deps);
  registerProductExport(r, deps);
  registerProductLabels(r, deps);
  registerPredictWeight(r, deps);
  registerProductTranslate(r, deps);
}
