// Every area's calls, registered on the app in this order.
import type { AppDeps } from "../app.ts";
import type { Registrar } from "../http/calls.ts";
import { registerUsers } from "./users/routes.ts";

export const modules: ((r: Registrar, deps: AppDeps) => void)[] = [registerUsers];
