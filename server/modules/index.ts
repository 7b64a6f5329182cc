// Every area's calls, registered on the app in this order.
import type { AppDeps } from "../app.ts";
import type { Registrar } from "../http/calls.ts";
import { registerAccount } from "./account/routes.ts";
import { registerCategories } from "./categories/routes.ts";
import { registerCollects } from "./collects/routes.ts";
import { registerHosted } from "./hosted/routes.ts";
import { registerInfringement } from "./infringement/routes.ts";
import { registerMeli } from "./meli/routes.ts";
import { registerProducts } from "./products/routes.ts";
import { registerSettings } from "./settings/routes.ts";
import { registerTasks } from "./tasks/routes.ts";
import { registerTenancy } from "./tenancy/routes.ts";
import { registerUsers } from "./users/routes.ts";
import { registerWorkbench } from "./workbench/routes.ts";

export const modules: ((r: Registrar, deps: AppDeps) => void)[] = [
  registerAccount,
  registerTenancy,
  registerUsers,
  registerHosted,
  registerSettings,
  registerTasks,
  registerWorkbench,
  registerCollects,
  registerInfringement,
  registerProducts,
  registerMeli,
  registerCategories,
];
