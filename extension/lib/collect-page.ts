// The collect button's page logic, shared by every platform's content script: wait until the product can be read
// (page scripts fill their data late), show the button, mark an item already collected, and send the product through
// the background worker on a press (which opens the side panel too), or when the side panel asks for it; on an item
// already collected, list the ready orders waiting for it.
import { browser } from "wxt/browser";
import type { ContentScriptContext } from "wxt/utils/content-script-context";
import { extract } from "#shared/extract/extract.ts";
import { incompleteWarning, type ExtractResult } from "#shared/extract/product.ts";
import type { Adapter, Snapshot } from "#shared/extract/snapshot.ts";
import { mountCollectButton } from "./collect-button.ts";
import { sendMessage } from "./messaging.ts";
import { CHANNEL, type CollectOutcome } from "./protocol.ts";
import { requestGlobals } from "./page-globals.ts";

/** How long to wait for a late page to show its product, and how often to look. */
const WAIT_MS = 15_000;
const POLL_MS = 600;

const blockedMessages = { login: "请先在该网站登录后再采集", captcha: "该页面需要完成验证码后再采集" } as const;

/** "部分字段未采集: 价格、规格" for a partial result, else nothing. */
function incompleteNote(r: ExtractResult): string | undefined {
  return r.status === "partial" && r.incompleteFields?.length ? incompleteWarning(r.incompleteFields) : undefined;
}

async function readProductPage(adapter: Adapter): Promise<ExtractResult> {
  const snapshot: Snapshot = {
    url: location.href,
    capturedAt: new Date().toISOString(),
    html: document.documentElement.outerHTML,
    globals: await requestGlobals(adapter.globals),
  };
  return extract(snapshot, { adapters: [adapter] });
}

export async function runCollector(ctx: ContentScriptContext, adapter: Adapter) {
  if (!adapter.match(new URL(location.href))) return; // a non-product page of the platform
  let result: ExtractResult | null = null;

  const ui = mountCollectButton(() => {
    // The side panel opens with the press: the message leaves now, inside the click (Chrome opens a side panel only
    // from a user gesture), and the panel shows the product once the collection below has stored it.
    sendMessage("openSidePanel").catch(() => undefined);
    void onCollect();
  });
  ctx.onInvalidated(ui.remove);
  ui.render({ kind: "waiting" });

  // The side panel opened on this page before anything was collected asks for the collection (as a press would).
  const onPanelAsks = (message: unknown, sender: { id?: string }, sendResponse: (r: unknown) => void) => {
    const m = message as { channel?: unknown; type?: unknown } | null;
    if (sender.id !== browser.runtime.id || m?.channel !== CHANNEL || m.type !== "collectNow") return false;
    onCollect().then(sendResponse, () => sendResponse(null));
    return true;
  };
  browser.runtime.onMessage.addListener(onPanelAsks);
  ctx.onInvalidated(() => browser.runtime.onMessage.removeListener(onPanelAsks));

  // A press and the panel's request at once make one collection.
  let inFlight: Promise<CollectOutcome | null> | null = null;
  function onCollect(): Promise<CollectOutcome | null> {
    inFlight ??= collect().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  async function collect(): Promise<CollectOutcome | null> {
    // Read again at the press: the user may have picked another variant or the page may have loaded more.
    const fresh = await readProductPage(adapter);
    if (fresh.product) result = fresh;
    if (!result?.product) return null;
    ui.render({ kind: "sending" });
    try {
      const { product, sources, missingFields, warnings, incompleteFields } = result;
      const answer = await sendMessage("collect", { ...product, sources, missingFields, warnings, incompleteFields });
      ui.render({ kind: "done", outcome: answer.outcome, message: answer.message, incomplete: incompleteNote(result) });
      return answer;
    } catch (e) {
      const message = e instanceof Error ? e.message : "采集失败";
      ui.render({ kind: "done", outcome: "refused", message });
      return { outcome: "refused", message, collectionId: null };
    }
  }

  const started = Date.now();
  while (ctx.isValid && Date.now() - started < WAIT_MS) {
    const r = await readProductPage(adapter);
    if (r.product) {
      result = r;
      break;
    }
    if (r.status === "blocked") {
      ui.render({ kind: "blocked", message: blockedMessages[r.block ?? "captcha"] });
      return;
    }
    await new Promise<void>((resolve) => ctx.setTimeout(() => resolve(), POLL_MS));
  }
  if (!result?.product) {
    ui.render({ kind: "blocked", message: "未能识别该页面的商品信息" });
    return;
  }
  const collected = await sendMessage("isCollected", { platform: result.product.platform, itemId: result.product.itemId }).catch(
    () => false,
  );
  ui.render({ kind: "ready", collected, incomplete: incompleteNote(result) });
  // A collected offer: the orders waiting for it (a courtesy: nothing shows when it cannot be read).
  if (collected) {
    const item = { platform: result.product.platform, itemId: result.product.itemId };
    ui.showOrders(await sendMessage("waitingOrders", item).catch(() => null));
  }
}
