import type { AppDeps } from "../../app.ts";
import type { Registrar } from "../../http/calls.ts";

export function registerTasks(r: Registrar, deps: AppDeps) {
  void r;
  void deps;
}
