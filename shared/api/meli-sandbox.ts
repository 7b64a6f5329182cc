// The host's 沙箱 page calls on the built-in Mercado Libre sandbox (host only; MELI_API_URL unset): what the sandbox
// holds, and what the host makes happen there. With MELI_API_URL set GetSandbox answers enabled=false and the others 404.
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
import { call } from "./define.ts";

const group = "MeliSandbox";

export const meliSandboxCalls = {
  getSandbox: call({
    group,
    name: "GetSandbox",
    method: "GET",
    access: "host",
    summary:
      "The built-in sandbox's sellers, their active items, the newest orders, its clock and order pace (enabled=false when MELI_API_URL is set)",
    result: sandboxState,
  }),
  createOrder: call({
    group,
    name: "CreateOrder",
    method: "POST",
    access: "host",
    summary: "An order for a sandbox item, paid and ready to ship (its label prints)",
    body: createSandboxOrderBody,
    result: sandboxOrder,
  }),
  moveClock: call({
    group,
    name: "MoveClock",
    method: "POST",
    access: "host",
    summary: "Moves the sandbox's clock on: orders appear, shipments move on, tokens expire",
    body: moveSandboxClockBody,
    result: moveSandboxClockResult,
  }),
  sendNotification: call({
    group,
    name: "SendNotification",
    method: "POST",
    access: "host",
    summary: "Sends one Mercado Libre notification (orders_v2, items, shipments) for a sandbox order or item to this app",
    body: sendSandboxNotificationBody,
    result: sendSandboxNotificationResult,
  }),
  refuseCalls: call({
    group,
    name: "RefuseCalls",
    method: "POST",
    access: "host",
    summary: "The sandbox answers its next calls with 429 Too Many Requests",
    body: refuseSandboxCallsBody,
    result: refuseSandboxCallsResult,
  }),
  setOrderRate: call({
    group,
    name: "SetOrderRate",
    method: "POST",
    access: "host",
    summary: "How often connected sandbox sellers get orders by themselves (0-2 per interval)",
    body: setSandboxOrderRateBody,
    result: setSandboxOrderRateResult,
  }),
};
