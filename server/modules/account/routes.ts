import type { AppDeps } from "../../app.ts";
import type { Registrar } from "../../http/calls.ts";

export function registerAccount(r: Registrar, deps: AppDeps) {
  void r;
  void deps;
}
