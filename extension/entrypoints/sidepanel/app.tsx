// The side panel (issue 17): the product of the page in the active tab, editable and publishable without leaving the
// page. It follows the active tab of its window (or the tab named by ?tabId=, when the page is opened as a tab) and
// talks only to the background worker through the message protocol; the worker pushes a tab's collection progress,
// the login state and the offline edits being sent.
import { useEffect, useRef, useState } from "react";
import { browser } from "wxt/browser";
import { tabReadiness } from "../../lib/panel-tabs.ts";
import { sendMessage } from "../../lib/messaging.ts";
import type { Push, Status, TabView } from "../../lib/protocol.ts";
import type { RecentProduct } from "../../lib/storage.ts";
import { PUSH_CHANNEL } from "../../lib/wire.ts";
import { ProductLoader } from "./product.tsx";
import { askStatus, askTab, firstTab, pinnedTab } from "./start.ts";
import { errorText } from "./ui.tsx";

/** The tab the panel shows: the pinned one (?tabId=), else the active tab of the panel's window, followed. */
function useFollowedTab(): number | null {
  const [tabId, setTabId] = useState<number | null>(pinnedTab);
  useEffect(() => {
    if (pinnedTab !== null) return;
    let windowId: number | undefined;
    void firstTab.then((t) => {
      windowId = t?.windowId;
      if (t) setTabId(t.id);
    });
    const onActivated = (info: { tabId: number; windowId: number }) => {
      if (windowId === undefined || info.windowId === windowId) setTabId(info.tabId);
    };
    browser.tabs.onActivated.addListener(onActivated);
    return () => browser.tabs.onActivated.removeListener(onActivated);
  }, []);
  return tabId;
}

export function App() {
  const [status, setStatus] = useState<Status | null>(null);
  const [error, setError] = useState<string | null>(null);
  const tabId = useFollowedTab();
  const [tab, setTab] = useState<TabView | null>(null);
  const [recent, setRecent] = useState<RecentProduct[]>([]);
  /** A product chosen from the recent list, shown instead of the tab's until the tab changes. */
  const [chosen, setChosen] = useState<string | null>(null);
  const [pendingEdits, setPendingEdits] = useState(0);
  /** Bumped when queued edits reached the server (the product shown is read again); refused: some were refused. */
  const [flushed, setFlushed] = useState({ n: 0, refused: 0 });
  const tabRef = useRef(tabId);
  tabRef.current = tabId;

  useEffect(() => {
    const onPush = (message: unknown) => {
      const m = message as Push | null;
      if (m?.channel !== PUSH_CHANNEL) return;
      if (m.kind === "tab" && m.tab.tabId === tabRef.current) setTab(m.tab);
      if (m.kind === "status") setStatus(m.status);
      if (m.kind === "edits") {
        setPendingEdits(m.pending);
        if (m.sent > 0) setFlushed((f) => ({ n: f.n + 1, refused: m.refused }));
      }
    };
    browser.runtime.onMessage.addListener(onPush);
    askStatus().then(
      (s) => {
        performance.mark("panel:status");
        setStatus(s);
      },
      (e: unknown) => setError(errorText(e)),
    );
    return () => browser.runtime.onMessage.removeListener(onPush);
  }, []);

  const loggedIn = !!status?.loggedIn;
  useEffect(() => {
    if (!loggedIn) return;
    sendMessage("getRecent").then(setRecent, () => undefined);
    sendMessage("getEdits").then(
      (r) => setPendingEdits(r.pending),
      () => undefined,
    );
  }, [loggedIn, tab?.productId, chosen]);

  // The tab's state is asked at once, beside the login state (it needs no login): one round trip less before the product.
  // Asked again once logged in, without dropping what is shown (a product already opening stays).
  const shownTab = useRef<number | null>(null);
  useEffect(() => {
    if (shownTab.current !== tabId) {
      shownTab.current = tabId;
      setChosen(null);
      setTab(null);
    }
    if (tabId === null) return;
    let live = true;
    askTab(tabId).then(
      (t) => {
        performance.mark("panel:tab");
        if (live) setTab(t);
      },
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [tabId, loggedIn]);

  const readiness = tabReadiness(tab);
  const itemKey = tab?.item ? `${tabId}:${tab.item.platform}:${tab.item.itemId}` : null;
  /** The item the seller asked to collect from the panel (采集并编辑). */
  const [collectAsked, setCollectAsked] = useState<string | null>(null);
  const opening = readiness === "ready" || readiness === "waiting" || (readiness === "collect" && collectAsked === itemKey);
  return (
    <main className="panel" data-testid="panel" data-tab={tabId ?? ""}>
      <header className="bar">
        <b>Mercado ERP</b>
        {status?.loggedIn ? <span className="muted">{status.userName}</span> : null}
        {pendingEdits > 0 ? (
          <button
            type="button"
            className="chip warn"
            title="离线时保存的修改，恢复连接后自动提交"
            onClick={() => void sendMessage("flushEdits").then((r) => setPendingEdits(r.pending))}
            data-testid="panel-edits-pending"
          >
            待提交 {pendingEdits}
          </button>
        ) : null}
        {loggedIn && recent.length ? (
          <select
            className="recent"
            aria-label="最近商品"
            value={chosen ?? ""}
            onChange={(e) => setChosen(e.target.value || null)}
            data-testid="panel-recent"
          >
            <option value="">{chosen ? "返回当前页面" : "最近商品"}</option>
            {recent.map((r) => (
              <option key={r.id} value={r.id}>
                {r.title || `商品 ${r.id.slice(0, 8)}`}
              </option>
            ))}
          </select>
        ) : null}
      </header>
      {error ? (
        <p className="notice error" role="alert">
          {error}
        </p>
      ) : null}
      {!status ? <p className="muted pad">加载中…</p> : null}
      {status && !status.loggedIn ? <LoginPrompt /> : null}
      {loggedIn && chosen ? <ProductLoader key={`p:${chosen}`} source={{ productId: chosen }} flushed={flushed} /> : null}
      {loggedIn && !chosen && tabId !== null ? (
        <>
          {readiness === "none" ? (
            <div className="empty" data-testid="panel-state" data-state="none">
              <p>当前页面没有可编辑的商品。</p>
              <p className="muted">打开 1688、淘宝、速卖通等商品页，点击页面右下角的「采集到 ERP」，商品会显示在这里。</p>
            </div>
          ) : null}
          {readiness === "blocked" ? (
            <div className="empty" data-testid="panel-state" data-state="blocked">
              <p className={tab?.phase === "queued" ? "notice warn" : "notice error"}>{tab?.message ?? "该商品暂时无法打开"}</p>
            </div>
          ) : null}
          {readiness === "collect" && !opening ? (
            <div className="empty" data-testid="panel-state" data-state="collect">
              <p>该商品尚未采集。</p>
              <button type="button" onClick={() => setCollectAsked(itemKey)} data-testid="panel-collect">
                采集并编辑
              </button>
            </div>
          ) : null}
          {/* A collection under way: the worker answers once it has ended (the loader stays while it does). */}
          {opening && tab?.item ? <ProductLoader key={`t:${itemKey}`} source={{ tabId }} flushed={flushed} core={tab.core} /> : null}
        </>
      ) : null}
    </main>
  );
}

function LoginPrompt() {
  const [hint, setHint] = useState(false);
  return (
    <div className="empty" data-testid="panel-state" data-state="logged-out">
      <p>请先登录采集助手。</p>
      <button
        type="button"
        onClick={() => {
          // Chrome opens the popup from an extension page when it can; otherwise the toolbar icon does.
          const open = (browser.action as { openPopup?: () => Promise<void> }).openPopup;
          if (open) open().catch(() => setHint(true));
          else setHint(true);
        }}
        data-testid="panel-login"
      >
        打开登录窗口
      </button>
      {hint ? <p className="muted">请点击浏览器工具栏中的 Mercado ERP 图标登录。</p> : null}
    </div>
  );
}
