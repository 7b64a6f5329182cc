// Connecting a shop through Mercado Libre's authorization page. The console opens the page in a window of its own (a
// blank one is opened first, while the click still counts as the user's, then pointed at the URL GetAuthUrl answers);
// when the browser blocks the window the page opens in this one instead. Mercado Libre sends the seller back to
// AuthBack, which either posts {type: "meli-auth", ...} to this window and closes its own, or (no opener) leads to
// /#/shops/list?auth=success|failed&reason=&message=&groupId=&added=&updated=. Both arrive here as an AuthResult.

export type AuthResult = {
  ok: boolean;
  /** Why it failed (forged, expired, used, denied, exchange, limit, other-tenant, site, owner, error), else null. */
  reason: string | null;
  message: string;
  groupId: string | null;
  /** Shops added and shops whose authorization was renewed (from the return URL only). */
  added: number | null;
  updated: number | null;
};

/** The query keys AuthBack's return URL carries; removed once read, so a reload does not report it again. */
const AUTH_PARAM_KEYS = ["auth", "reason", "message", "groupId", "added", "updated"] as const;

const defaultMessage = (ok: boolean) => (ok ? "店铺授权成功" : "店铺授权失败，请重新授权");
const count = (v: string | null) => (v !== null && /^\d{1,6}$/.test(v) ? Number(v) : null);
const text = (v: unknown, max: number) => (typeof v === "string" && v.trim() ? v.trim().slice(0, max) : null);

/** The result in a return URL's query, or null when the URL is not a return from AuthBack. */
export function readAuthReturn(p: URLSearchParams): AuthResult | null {
  const auth = p.get("auth");
  if (auth !== "success" && auth !== "failed") return null;
  const ok = auth === "success";
  return {
    ok,
    reason: ok ? null : text(p.get("reason"), 50),
    message: text(p.get("message"), 1000) ?? defaultMessage(ok),
    groupId: text(p.get("groupId"), 64),
    added: count(p.get("added")),
    updated: count(p.get("updated")),
  };
}

export function stripAuthParams(p: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(p);
  for (const key of AUTH_PARAM_KEYS) next.delete(key);
  return next;
}

/** AuthBack's message to its opener, or null for any other message (other windows and extensions post too). */
export function parseAuthMessage(data: unknown): AuthResult | null {
  if (typeof data !== "object" || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d.type !== "meli-auth" || typeof d.ok !== "boolean") return null;
  return {
    ok: d.ok,
    reason: d.ok ? null : text(d.reason, 50),
    message: text(d.message, 1000) ?? defaultMessage(d.ok),
    groupId: text(d.groupId, 64),
    added: null,
    updated: null,
  };
}

export const AUTH_WINDOW_NAME = "meli-auth";
const AUTH_WINDOW_FEATURES = "popup,width=1000,height=760";

/** What startAuthorization needs of the browser (the window in production; a fake in tests). */
export type AuthHost = {
  open: (url: string, target: string, features: string) => Window | null;
  assign: (url: string) => void;
};

const browserHost = (): AuthHost => ({
  open: (url, target, features) => window.open(url, target, features),
  assign: (url) => window.location.assign(url),
});

export type AuthStart = { mode: "popup"; popup: Window } | { mode: "same-window" };

/**
 * Opens the authorization page: a window is opened at once (before the URL is known, so the browser still sees the
 * user's click), then sent to the URL; without a window the page opens here. A failed GetAuthUrl closes the window and
 * rethrows (the caller's error handler shows it).
 */
export async function startAuthorization(getUrl: () => Promise<string>, host: AuthHost = browserHost()): Promise<AuthStart> {
  let popup: Window | null = null;
  try {
    popup = host.open("about:blank", AUTH_WINDOW_NAME, AUTH_WINDOW_FEATURES);
  } catch {
    popup = null;
  }
  if (popup) showWaiting(popup);
  let url: string;
  try {
    url = await getUrl();
  } catch (error) {
    popup?.close();
    throw error;
  }
  if (popup && !popup.closed) {
    popup.location.href = url;
    return { mode: "popup", popup };
  }
  host.assign(url);
  return { mode: "same-window" };
}

/** A line in the blank window while the URL is on its way (it is ours, same origin, until it navigates). */
function showWaiting(popup: Window) {
  try {
    popup.document.title = "美客多授权";
    popup.document.body.style.cssText = "font-family:system-ui,sans-serif;color:#555;padding:48px;text-align:center";
    popup.document.body.textContent = "正在打开美客多授权页面……";
  } catch {
    // Not ours to write into (some browsers): the window stays blank for a moment.
  }
}

/**
 * Follows an authorization window: `onResult` for AuthBack's message from this origin, `onClosed` when the window
 * closes without one (the seller closed it, or the message could not reach us). Answers the function that stops it.
 */
export function watchAuthWindow(
  popup: Window,
  onResult: (r: AuthResult) => void,
  onClosed: () => void,
  pollMs = 500,
  win: Window = window,
): () => void {
  let done = false;
  const stop = () => {
    done = true;
    win.removeEventListener("message", onMessage);
    clearInterval(timer);
  };
  function onMessage(e: MessageEvent) {
    if (done || e.origin !== win.location.origin) return;
    const result = parseAuthMessage(e.data);
    if (!result) return;
    stop();
    onResult(result);
  }
  win.addEventListener("message", onMessage);
  const timer = setInterval(() => {
    if (done || !popup.closed) return;
    // A message posted just before the window closed is delivered first; give it that turn.
    setTimeout(() => {
      if (done) return;
      stop();
      onClosed();
    }, 300);
    clearInterval(timer);
  }, pollMs);
  return stop;
}
