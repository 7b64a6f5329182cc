// GTIN pool calls (spec §7 MeliCode).
import { clearCodesResult, codeCount, setCodesInput, setCodesResult } from "../contract/gtin.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const meliCodeCalls = {
  setCodes: call({ method: "POST", path: "/api/MeliCode/SetCodes", body: setCodesInput, result: setCodesResult }),
  getCodeCnt: call({ method: "GET", path: "/api/MeliCode/GetCodeCnt", result: codeCount }),
  clearCode: call({ method: "DELETE", path: "/api/MeliCode/ClearCode", result: clearCodesResult }),
};

export const createMeliCodeApi = (client: ApiClient) => bindCalls(client, meliCodeCalls);
export type MeliCodeApi = ReturnType<typeof createMeliCodeApi>;
