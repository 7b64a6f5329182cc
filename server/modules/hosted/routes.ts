import type { AppDeps } from "../../app.ts";
import type { Registrar } from "../../http/calls.ts";

export function registerHosted(r: Registrar, deps: AppDeps) {
  void r;
  void deps;
}
