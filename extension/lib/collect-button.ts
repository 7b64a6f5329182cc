// The collect button on a product page: a small fixed panel in a shadow root, so the page's CSS cannot reach
// it and it cannot restyle the page. Plain DOM: content scripts stay small and start fast. On a collected offer's page
// it lists the ready orders waiting for that offer above the button.
import type { WaitingOrders } from "./protocol.ts";

export type ButtonState =
  | { kind: "waiting" }
  | { kind: "ready"; collected: boolean; incomplete?: string }
  | { kind: "sending" }
  | { kind: "done"; outcome: string; message: string; incomplete?: string }
  | { kind: "blocked"; message: string };

const STYLE = `
:host { all: initial; }
.panel { position: fixed; right: 24px; bottom: 96px; z-index: 2147483647; display: flex; flex-direction: column; align-items: flex-end;
  gap: 6px; font: 14px/1.4 system-ui, "PingFang SC", "Microsoft YaHei", sans-serif; }
button { all: unset; cursor: pointer; padding: 10px 18px; border-radius: 999px; color: #fff; background: #2563eb;
  box-shadow: 0 4px 14px rgba(37, 99, 235, .35); font-weight: 600; }
button[disabled] { cursor: default; opacity: .65; }
button.done { background: #16a34a; box-shadow: 0 4px 14px rgba(22, 163, 74, .35); }
button.warn { background: #d97706; }
.note { max-width: 260px; padding: 6px 10px; border-radius: 8px; background: rgba(15, 23, 42, .88); color: #fff; font-size: 12px; }
.note:empty { display: none; }
.orders { max-width: 280px; padding: 8px 10px; border-radius: 8px; background: #fff; color: #0f172a; font-size: 12px;
  box-shadow: 0 4px 14px rgba(15, 23, 42, .18); }
.orders:empty { display: none; }
.orders b { display: block; margin-bottom: 4px; }
.orders li { list-style: none; font-variant-numeric: tabular-nums; }
.orders ul { margin: 0; padding: 0; }
.orders .bought { color: #16a34a; }
`;

/** How many of the waiting order lines the panel lists. */
const SHOWN_LINES = 5;

const labels = { collect: "采集到 ERP", collected: "已采集 · 再次采集", sending: "采集中…", waiting: "识别商品中…" };

export function mountCollectButton(onCollect: () => void) {
  const host = document.createElement("mercado-erp-collect");
  const shadow = host.attachShadow({ mode: "open" });
  const style = document.createElement("style");
  style.textContent = STYLE;
  const panel = document.createElement("div");
  panel.className = "panel";
  const button = document.createElement("button");
  button.setAttribute("part", "button");
  const note = document.createElement("div");
  note.className = "note";
  note.setAttribute("role", "status");
  const orders = document.createElement("div");
  orders.className = "orders";
  orders.setAttribute("part", "orders");
  panel.append(orders, note, button);
  shadow.append(style, panel);
  document.documentElement.append(host);
  button.addEventListener("click", () => {
    if (!button.disabled) onCollect();
  });

  function render(state: ButtonState) {
    host.dataset.state = state.kind;
    button.className = "";
    button.disabled = false;
    note.textContent = "";
    switch (state.kind) {
      case "waiting":
        button.textContent = labels.waiting;
        button.disabled = true;
        break;
      case "ready":
        button.textContent = state.collected ? labels.collected : labels.collect;
        if (state.collected) button.className = state.incomplete ? "warn" : "done";
        host.dataset.collected = String(state.collected);
        note.textContent = state.incomplete ?? "";
        break;
      case "sending":
        button.textContent = labels.sending;
        button.disabled = true;
        break;
      case "done": {
        const stored = state.outcome === "collected" || state.outcome === "already";
        host.dataset.outcome = state.outcome;
        // A product stored without some of what the page shows is orange, never a plain success.
        if (stored && state.incomplete) host.dataset.partial = "true";
        else delete host.dataset.partial;
        button.textContent = stored ? labels.collected : labels.collect;
        button.className = stored && !state.incomplete ? "done" : "warn";
        note.textContent = stored && state.incomplete ? `${state.message} · ${state.incomplete}` : state.message;
        break;
      }
      case "blocked":
        button.textContent = labels.collect;
        button.className = "warn";
        note.textContent = state.message;
        break;
    }
  }

  /** The ready orders waiting for this offer (a collected source page): how many, and the first lines. */
  function showOrders(w: WaitingOrders | null) {
    orders.replaceChildren();
    if (!w?.lines.length) return;
    const title = document.createElement("b");
    title.textContent = `待采购订单 ${w.orders} 个 · 共 ${w.quantity} 件${w.bought ? `（已采购 ${w.bought} 件）` : ""}`;
    const list = document.createElement("ul");
    for (const l of w.lines.slice(0, SHOWN_LINES)) {
      const li = document.createElement("li");
      li.textContent = `${l.orderNo} × ${l.quantity}${l.variant ? ` · ${l.variant}` : ""}${l.bought ? " · 已采购" : ""}`;
      if (l.bought) li.className = "bought";
      list.append(li);
    }
    if (w.lines.length > SHOWN_LINES) {
      const more = document.createElement("li");
      more.textContent = `…等 ${w.lines.length} 行，在 ERP 的采购单中查看全部`;
      list.append(more);
    }
    orders.append(title, list);
  }

  return { host, render, showOrders, remove: () => host.remove() };
}
