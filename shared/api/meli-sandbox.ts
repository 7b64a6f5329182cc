// The host's 沙箱 page calls (host only; the built-in sandbox only).
import {
  createSandboxOrderBody,
  moveSandboxClockBody,
  moveSandboxClockResult,
  refuseSandboxCallsBody,
  refuseSandboxCallsResult,
  sandboxOrder,
  sandboxState,
  sendSandboxNotificationBody,
  sendSandboxNotificationResult,
  setSandboxOrderRateBody,
  setSandboxOrderRateResult,
} from "../contract/meli-sandbox.ts";
import type { ApiClient } from "./client.ts";
import { bindCalls, call } from "./define.ts";

export const meliSandboxCalls = {
  getSandbox: call({ method: "GET", path: "/api/MeliSandbox/GetSandbox", result: sandboxState }),
  createOrder: call({ method: "POST", path: "/api/MeliSandbox/CreateOrder", body: createSandboxOrderBody, result: sandboxOrder }),
  moveClock: call({ method: "POST", path: "/api/MeliSandbox/MoveClock", body: moveSandboxClockBody, result: moveSandboxClockResult }),
  sendNotification: call({
    method: "POST",
    path: "/api/MeliSandbox/SendNotification",
    body: sendSandboxNotificationBody,
    result: sendSandboxNotificationResult,
  }),
  refuseCalls: call({
    method: "POST",
    path: "/api/MeliSandbox/RefuseCalls",
    body: refuseSandboxCallsBody,
    result: refuseSandboxCallsResult,
  }),
  setOrderRate: call({
    method: "POST",
    path: "/api/MeliSandbox/SetOrderRate",
    body: setSandboxOrderRateBody,
    result: setSandboxOrderRateResult,
  }),
};

export const createMeliSandboxApi = (client: ApiClient) => bindCalls(client, meliSandboxCalls);
export type MeliSandboxApi = ReturnType<typeof createMeliSandboxApi>;
