// Every area's calls, registered on the app in this order, each given the services it uses.
import type { Services } from "../deps.ts";
import type { Registrar } from "../http/calls.ts";
import { registerAccount } from "./account/routes.ts";
import { registerCategories } from "./categories/routes.ts";
import { registerCollects } from "./collects/routes.ts";
import { registerGtin } from "./gtin/routes.ts";
import { registerHosted } from "./hosted/routes.ts";
import { registerInfringement } from "./infringement/routes.ts";
import { registerListingEdits, registerListings, registerListingSync } from "./listings/routes.ts";
import { registerMeli } from "./meli/routes.ts";
import { registerMeliLogs } from "./meli-logs/routes.ts";
import { registerProducts } from "./products/routes.ts";
import { registerPublishing } from "./publishing/routes.ts";
import { registerSettings } from "./settings/routes.ts";
import { registerTasks } from "./tasks/routes.ts";
import { registerTenancy } from "./tenancy/routes.ts";
import { registerUsers } from "./users/routes.ts";
import { registerOrders } from "./orders/routes.ts";
import { registerFreight } from "./freight/routes.ts";
import { registerSelection } from "./selection/routes.ts";
import { registerSizeCharts } from "./size-charts/routes.ts";
import { registerWorkbench } from "./workbench/routes.ts";

export function registerModules(r: Registrar, services: Services) {
  registerAccount(r, services);
  registerTenancy(r, services);
  registerUsers(r, services);
  registerHosted(r, services);
  registerSettings(r, services);
  registerTasks(r, services);
  registerWorkbench(r, services);
  registerCollects(r, services);
  registerInfringement(r, services);
  registerProducts(r, services);
  registerMeli(r, services);
  registerCategories(r, services);
  registerGtin(r, services);
  registerMeliLogs(r, services);
  registerPublishing(r, services);
  registerListings(r);
  registerListingEdits(r, services);
  registerListingSync(r, services);
  registerOrders(r, services);
  registerFreight(r, services);
  registerSizeCharts(r, services);
  registerSelection(r, services);
}
