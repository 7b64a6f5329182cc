// The orders screen in real Chromium against the real server (`npm start` on a fresh DATA_DIR, a fresh database on
// PostgreSQL) and the Mercado Libre sandbox in its own process, so the test can use the sandbox's control API: the demo
// seller connects a sandbox shop (GetAuthUrl, the sandbox's consent form, AuthBack) and the sandbox sends its
// notifications to the app's MeliCallback. With /order/list open, a paid order is created in the sandbox: the
// notification brings it in and the row appears without a reload, marked 新. Its label cannot be printed yet (the
// shipment is handling). The sandbox clock moves 2 hours on: the shipment becomes ready_to_ship, its notification
// moves the row to 待打单 live; the order opens in the drawer (lines, address, profit breakdown) and its label downloads
// as a PDF; 批量打单 makes the ready orders' labels one PDF (a task, then its download), and 采购单 marks the order's
// line bought. 拉取订单 runs FetchOrders as a task with its progress shown. The workbench then shows today's order.
// Last, an order paid 30 hours ago (the sandbox's clock set back) whose parcel is still handling shows its shipping
// deadline as overdue (已超时, red), beside one paid now that is not. Screenshots go to e2e/artifacts/orders-*.png.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OrderStatus, TaskStatus } from "#shared/contract/enums.ts";
import { EVENTS_PATH, type ProgressEvent } from "#shared/contract/events.ts";
import { allowDownloads, launchChromium, openConsolePage } from "./browser.ts";
import { accessToken, type AppProcess, callApi, repoRoot, startFreshApp, until } from "./app-process.ts";
import { connectSeller, sandboxEnv, startSandboxProcess, type SandboxProcess } from "./publish-rig.ts";

const artifacts = join(repoRoot, "e2e/artifacts");
const NICKNAME = "TIENDA_PEDIDOS_E2E";

let sandbox: SandboxProcess;
let app: AppProcess;
let browser: Browser;
let demo: { tenant: string; user: string; password: string };
let token: string;
let sellerId: number;
const cleanups: (() => unknown)[] = [];

type Row = { id: string; orderNo: string; orderStatus: number; labelReady: boolean; mustSendTime: string | null };
const orderByNo = async (no: string) =>
  (await callApi<{ items: Row[] }>(app.url, token, "GET", `/api/Order/GetOrders?OrderNo=${no}`)).items[0] ?? null;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  sandbox = await startSandboxProcess();
  cleanups.unshift(() => sandbox.proc.kill());
  const started = await startFreshApp("orders", {
    ...sandboxEnv(sandbox.url),
  });
  app = started.app;
  cleanups.unshift(started.stop);
  demo = app.firstStart.demo!;
  token = await accessToken(app.url, demo.user, demo.password, demo.tenant);
  await connectSeller(app.url, token, { nickname: NICKNAME, site: "MLM" });
  ({ id: sellerId } = await sandbox.ctl<{ id: number }>("POST", "sellers", { nickname: NICKNAME }));
  await sandbox.ctl("POST", "notifications", { url: `${app.url}/api/Meli/MeliCallback` });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups) await c();
});

/** The session's event stream as the console reads it; `events` fills as progress events arrive. */
async function openEvents(bearer: string) {
  const abort = new AbortController();
  const res = await fetch(app.url + EVENTS_PATH, { headers: { authorization: `Bearer ${bearer}` }, signal: abort.signal });
  expect(res.status).toBe(200);
  const events: ProgressEvent[] = [];
  void (async () => {
    let buffer = "";
    try {
      for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) {
        buffer += chunk;
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const lines = buffer.slice(0, cut).split("\n");
          buffer = buffer.slice(cut + 2);
          const data = lines.find((l) => l.startsWith("data: "));
          if (lines.includes("event: progress") && data) events.push(JSON.parse(data.slice(6)) as ProgressEvent);
        }
      }
    } catch {
      // closed
    }
  })();
  cleanups.unshift(() => abort.abort());
  return events;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) as `${string}.png`, fullPage: true });

describe("the orders screen", () => {
  it("shows a new sandbox order live, opens it and downloads its label once it is ready to ship", async () => {
    const page = await openConsolePage(browser, app.url, demo, "/order/list");
    await page.waitForSelector("[data-testid=order-list-page]");
    // The event stream is open: what arrives now is pushed, not polled.
    await page.waitForSelector("[data-testid=orders-live][data-live=true]", { timeout: 30_000 });
    await page.waitForFunction(() => document.querySelector("[data-testid=orders-total]")?.hasAttribute("data-total"));
    await shot(page, "orders-01-before");

    // A paid order in the sandbox: its notification brings it in, the server announces it on the event stream, and the
    // row appears without a reload (the list polls only every 30 s while the stream is live).
    const events = await openEvents(token);
    const created = await sandbox.ctl<{ id: number; total_amount: number }>("POST", "orders", { sellerId, status: "paid" });
    const no = String(created.id);
    await page.waitForSelector(`[data-testid=order-row-${no}]`, { timeout: 60_000 });
    expect(await page.$eval(`[data-testid=order-row-${no}]`, (e) => e.getAttribute("data-fresh"))).toBe("true");
    expect(events.some((e) => e.kind === "order")).toBe(true);
    const stored = await until(
      "the stored order",
      () => orderByNo(no),
      (r) => !!r,
    );
    expect(stored).toMatchObject({ orderNo: no, orderStatus: OrderStatus.Paid, labelReady: false });
    expect(stored!.mustSendTime).not.toBeNull();
    const row = `tr:has([data-testid=order-row-${no}])`;
    expect(await page.$eval(`${row} [data-testid=order-status]`, (e) => e.getAttribute("data-status"))).toBe(String(OrderStatus.Paid));
    expect(await page.$eval(`${row} [data-testid=order-deadline]`, (e) => e.getAttribute("data-state"))).toMatch(/^(ok|soon)$/);
    // Not ready to ship: no label yet, and the server says why.
    expect(await page.$eval(`${row} [data-testid=order-label]`, (e) => (e as HTMLButtonElement).disabled)).toBe(true);
    const early = await fetch(`${app.url}/api/Order/GetOrderLabel?orderId=${stored!.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(early.status).toBe(400);
    expect(((await early.json()) as { error: { message: string } }).error.message).toMatch(/[\u4e00-\u9fff]/);
    await shot(page, "orders-02-arrived");

    // Two hours later (the sandbox's clock) the shipment is ready to ship: its notification moves the row on, live.
    await sandbox.ctl("POST", "clock", { advanceSeconds: 2 * 3600 + 60 });
    // The sandbox sends what its clock reached on its next marketplace request (here a public one).
    expect((await fetch(`${sandbox.url}/sites`)).status).toBe(200);
    await page.waitForFunction(
      (sel, s) => document.querySelector(`${sel} [data-testid=order-status]`)?.getAttribute("data-status") === s,
      { timeout: 60_000 },
      row,
      String(OrderStatus.ReadyToShip),
    );
    expect((await orderByNo(no))!.labelReady).toBe(true);
    await page.waitForFunction(
      (sel) => !(document.querySelector(`${sel} [data-testid=order-label]`) as HTMLButtonElement).disabled,
      {},
      row,
    );
    await shot(page, "orders-03-ready");

    // The order opened: its lines, address and profit worked out.
    await page.click(`${row} [data-testid=order-open]`);
    await page.waitForSelector("[data-testid=order-drawer] [data-testid=order-item]");
    expect(await page.$$eval("[data-testid=order-drawer] [data-testid=order-item]", (els) => els.length)).toBeGreaterThanOrEqual(1);
    expect(await page.$eval("[data-testid=order-drawer-status]", (e) => e.textContent)).toBe("待打单");
    const address = await page.$eval("[data-testid=order-address]", (e) => e.textContent ?? "");
    expect(address).toContain("收件人");
    expect(address).not.toContain("尚未提供");
    expect(await page.$eval("[data-testid=order-profit-total]", (e) => e.textContent)).toMatch(/\d/);
    // The drawer has finished sliding in.
    await new Promise((r) => setTimeout(r, 600));
    await shot(page, "orders-04-detail");

    // Its label, downloaded as a PDF.
    const downloads = mkdtempSync(join(tmpdir(), "erp-orders-label-"));
    cleanups.push(() => rmSync(downloads, { recursive: true, force: true }));
    await allowDownloads(browser, page, downloads);
    await page.click("[data-testid=order-drawer-label]");
    const file = await until(
      "the label file",
      async () => readdirSync(downloads).find((f) => f.endsWith(".pdf")) ?? null,
      (f) => !!f,
      30_000,
    );
    const pdf = readFileSync(join(downloads, file!));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.length).toBeGreaterThan(200);
    await page.waitForFunction(() =>
      [...document.querySelectorAll("[data-toast-type]")].some((e) => e.textContent?.includes("面单已下载")),
    );
    await shot(page, "orders-05-label");
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-testid=order-drawer]", { hidden: true });

    // 批量打单 (issue 32): the ready orders' labels as one PDF, a task followed in its dialog, then downloaded.
    await page.click("[data-testid=orders-print-labels]");
    await page.waitForFunction(
      (done) => Number(document.querySelector("[data-testid=orders-print]")?.getAttribute("data-status")) === done,
      { timeout: 60_000 },
      TaskStatus.Succeeded,
    );
    await page.click("[data-testid=orders-print-download]");
    const printed = await until(
      "the labels PDF",
      async () => readdirSync(downloads).find((f) => f.startsWith("面单-") && f.endsWith(".pdf")) ?? null,
      (f) => !!f,
      30_000,
    );
    const labels = readFileSync(join(downloads, printed!));
    expect(labels.subarray(0, 5).toString()).toBe("%PDF-");
    // The packing list's page, then the label's.
    expect((await PDFDocument.load(labels)).getPageCount()).toBeGreaterThanOrEqual(2);
    copyFileSync(join(downloads, printed!), join(artifacts, "orders-labels.pdf"));
    await shot(page, "orders-05b-print-labels");
    await page.keyboard.press("Escape");

    // 采购单: the ready order's line, marked bought with its cost.
    await page.click("[data-testid=orders-purchase-list]");
    // The sandbox's own orders (one every 5 sandbox minutes, and its clock moved two hours) may be ready too: the line
    // of this order is found by its number.
    const lineKey = await page.waitForFunction(
      (n) =>
        [...document.querySelectorAll("[data-testid=purchase-sheet] [data-testid=purchase-line]")]
          .find((e) => e.textContent?.includes(n))
          ?.getAttribute("data-key"),
      { timeout: 30_000 },
      no,
    );
    const line = `[data-testid=purchase-sheet] [data-testid=purchase-line][data-key="${await lineKey.jsonValue()}"]`;
    await page.click(`${line} [data-testid=purchase-line-mark]`);
    await page.type(`${line} [data-testid=purchase-unit-cost]`, "12.5");
    await page.type(`${line} [data-testid=purchase-order-no]`, "CG-E2E-1");
    await page.click(`${line} [data-testid=purchase-mark-save]`);
    await page.waitForSelector(`${line} [data-testid=purchase-line-bought]`, { timeout: 30_000 });
    await new Promise((r) => setTimeout(r, 400)); // the sheet's toast
    await shot(page, "orders-05c-purchase-list");
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-testid=purchase-sheet]", { hidden: true });

    // 拉取订单: FetchOrders over the last 7 days runs as a task whose progress shows above the list, to its end.
    await page.click("[data-testid=orders-fetch]");
    await page.waitForSelector("[data-testid=orders-fetch-dialog]");
    await page.click("[data-testid=orders-fetch-submit]");
    await page.waitForSelector("[data-testid=orders-task]", { timeout: 15_000 });
    await page.waitForFunction(
      (done) => Number(document.querySelector("[data-testid=orders-task]")?.getAttribute("data-status")) === done,
      { timeout: 60_000 },
      TaskStatus.Succeeded,
    );
    await new Promise((r) => setTimeout(r, 500)); // the progress bar's last step
    await shot(page, "orders-06-fetched");

    // The workbench counts today's order (a UTC day, as the workbench's figures).
    await page.click("[data-menu-path='/dashboard/wrokbench']");
    // The page opened at login shows its figures from then (0 orders) at once and reads them again: the count rises.
    await page.waitForFunction(
      () =>
        Number(
          (document.querySelector("[data-testid=workbench-card-orders\\.today]")?.textContent ?? "").match(/今日订单\D*(\d+)/)?.[1] ?? 0,
        ) >= 1,
      { timeout: 30_000 },
    );
    await page.waitForSelector("[data-testid=workbench-order-trend]");
    await shot(page, "orders-07-workbench");
    await page.browserContext().close();
  }, 300_000);

  it("marks a paid order whose shipping deadline has passed as overdue, and one not yet due as not", async () => {
    const stored = (no: string) =>
      until(
        `order ${no}`,
        () => orderByNo(no),
        (r) => !!r,
      );
    // Not yet due: paid now, the parcel to be handed over within the sandbox's 24 hours. Its notification brings it in
    // (read before the clock goes back: the sandbox shows no order its clock has not reached).
    const due = String((await sandbox.ctl<{ id: number }>("POST", "orders", { sellerId, status: "paid" })).id);
    const dueRow = await stored(due);
    expect(dueRow).toMatchObject({ orderStatus: OrderStatus.Paid });
    expect(Date.parse(dueRow!.mustSendTime!)).toBeGreaterThan(Date.now() + 20 * 3600_000);

    // Overdue: the sandbox's clock goes back 30 hours and an order is paid then. Its handling limit (24 hours after the
    // payment) passed 6 hours ago in real time and its parcel is still handling: the sandbox ships a parcel at the
    // handling limit, so the clock stays there (this is the file's last case) and the order stays unshipped.
    const back = new Date(Date.now() - 30 * 3600_000).toISOString();
    const { now: sandboxNow } = await sandbox.ctl<{ now: string }>("POST", "clock", { set: back });
    expect(Date.now() - Date.parse(sandboxNow)).toBeGreaterThan(29 * 3600_000);
    const late = String((await sandbox.ctl<{ id: number }>("POST", "orders", { sellerId, status: "paid" })).id);
    const lateRow = await stored(late);
    expect(lateRow).toMatchObject({ orderStatus: OrderStatus.Paid, labelReady: false });
    expect(Date.parse(lateRow!.mustSendTime!)).toBeLessThan(Date.now() - 5 * 3600_000);

    const page = await openConsolePage(browser, app.url, demo, "/order/list");
    await page.waitForSelector("[data-testid=order-list-page]");
    const cell = (no: string) => `tr:has([data-testid=order-row-${no}]) [data-testid=order-deadline]`;
    await page.waitForSelector(cell(late), { timeout: 30_000 });
    await page.waitForSelector(cell(due));
    const read = (no: string) =>
      page.$eval(cell(no), (e) => {
        const note = e.querySelector("span + span");
        return {
          state: e.getAttribute("data-state"),
          text: note?.textContent ?? "",
          red: note?.classList.contains("text-destructive") ?? false,
        };
      });
    const overdue = await read(late);
    expect(overdue.state).toBe("overdue");
    expect(overdue.text).toMatch(/^已超时 (5|6)小时/);
    expect(overdue.red).toBe(true);
    const fine = await read(due);
    expect(fine.state).toMatch(/^(ok|soon)$/);
    expect(fine.text).toMatch(/^剩余 /);
    expect(fine.red).toBe(false);
    await page.$eval(cell(late), (e) => e.scrollIntoView({ block: "center" }));
    await shot(page, "orders-overdue");
    await page.browserContext().close();
  }, 180_000);
});
