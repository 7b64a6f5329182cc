// The popup: a login form while logged out; who is logged in (GetUserInfo, through the background) and 退出登录
// while logged in, with 打开商品侧边栏 (the side panel of the current window). Every call goes through the background
// worker's message protocol.
import { useEffect, useState, type FormEvent } from "react";
import { browser } from "wxt/browser";
import type { UserInfo } from "#shared/contract/users.ts";
import { sendMessage } from "../../lib/messaging.ts";
import type { Status } from "../../lib/protocol.ts";

type View = { kind: "loading" } | { kind: "loggedOut"; status: Status } | { kind: "loggedIn"; status: Status; me: UserInfo | null };

const errorText = (e: unknown) => (e instanceof Error && e.message ? e.message : "操作失败");

export function App() {
  const [view, setView] = useState<View>({ kind: "loading" });
  const [error, setError] = useState<string | null>(null);

  async function show(status: Status) {
    if (!status.loggedIn) return setView({ kind: "loggedOut", status });
    setView({ kind: "loggedIn", status, me: null });
    try {
      const me = await sendMessage("getUserInfo");
      setView({ kind: "loggedIn", status, me });
    } catch (e) {
      // A 401 ended the session in the background: back to the form.
      const next = await sendMessage("getStatus");
      if (!next.loggedIn) setView({ kind: "loggedOut", status: next });
      setError(errorText(e));
    }
  }

  useEffect(() => {
    sendMessage("getStatus").then(show, (e) => {
      setError(errorText(e));
      setView({ kind: "loggedOut", status: { loggedIn: false, userName: null, tenantName: null, serverUrl: "", tenant: "" } });
    });
  }, []);

  return (
    <main className="popup">
      <header className="popup-header">Mercado ERP 采集助手</header>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {view.kind === "loading" && <p className="muted">加载中...</p>}
      {view.kind === "loggedOut" && (
        <LoginForm
          status={view.status}
          onLoggedIn={(s) => {
            setError(null);
            void show(s);
          }}
          onError={setError}
        />
      )}
      {view.kind === "loggedIn" && (
        <LoggedIn
          status={view.status}
          me={view.me}
          onLoggedOut={(s) => {
            setError(null);
            setView({ kind: "loggedOut", status: s });
          }}
          onError={setError}
        />
      )}
    </main>
  );
}

function LoginForm({ status, onLoggedIn, onError }: { status: Status; onLoggedIn: (s: Status) => void; onError: (m: string) => void }) {
  const [serverUrl, setServerUrl] = useState(status.serverUrl);
  const [tenant, setTenant] = useState(status.tenant);
  const [userName, setUserName] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      onLoggedIn(await sendMessage("login", { serverUrl, tenant, userName, password }));
    } catch (err) {
      onError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit}>
      <label>
        服务器地址
        <input
          value={serverUrl}
          onChange={(e) => setServerUrl(e.target.value)}
          placeholder="https://erp.example.com"
          required
          autoComplete="url"
        />
      </label>
      <label>
        公司名
        <input value={tenant} onChange={(e) => setTenant(e.target.value)} placeholder="平台管理员留空" autoComplete="organization" />
      </label>
      <label>
        用户名
        <input value={userName} onChange={(e) => setUserName(e.target.value)} required autoComplete="username" />
      </label>
      <label>
        密码
        <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} required autoComplete="current-password" />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? "登录中..." : "登录"}
      </button>
    </form>
  );
}

function LoggedIn({
  status,
  me,
  onLoggedOut,
  onError,
}: {
  status: Status;
  me: UserInfo | null;
  onLoggedOut: (s: Status) => void;
  onError: (m: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState(0);
  // The window the popup belongs to, read ahead: the side panel must open inside the click (a user gesture).
  const [windowId, setWindowId] = useState<number | null>(null);

  useEffect(() => {
    browser.windows.getCurrent().then(
      (w) => setWindowId(w.id ?? null),
      () => undefined,
    );
    sendMessage("getQueue").then(
      (q) => setPending(q.pending),
      () => undefined,
    );
  }, []);

  async function flush() {
    setBusy(true);
    try {
      setPending((await sendMessage("flushQueue")).pending);
    } catch (err) {
      onError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  async function logout() {
    setBusy(true);
    try {
      onLoggedOut(await sendMessage("logout"));
    } catch (err) {
      onError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  const role = me ? (me.isHost ? "平台管理员" : me.isMainAccount ? "主账号" : "子账号") : null;
  return (
    <section className="who">
      <dl>
        <dt>用户</dt>
        <dd>
          {me?.name || me?.userName || status.userName}
          {role && <span className="tag">{role}</span>}
        </dd>
        <dt>公司</dt>
        <dd>{(me ? me.tenantName : status.tenantName) ?? "平台"}</dd>
        <dt>服务器</dt>
        <dd className="url">{status.serverUrl}</dd>
      </dl>
      {pending > 0 ? (
        <p className="queue">
          待发送采集 <b>{pending}</b> 个
          <button type="button" onClick={flush} disabled={busy}>
            立即发送
          </button>
        </p>
      ) : null}
      <div className="actions">
        <button type="button" className="secondary" onClick={logout} disabled={busy}>
          退出登录
        </button>
        <button
          type="button"
          disabled={windowId === null}
          onClick={() => {
            if (windowId === null) return;
            void browser.sidePanel.open({ windowId }).then(
              () => window.close(),
              () => onError("无法打开侧边栏"),
            );
          }}
          data-testid="popup-open-panel"
        >
          打开商品侧边栏
        </button>
      </div>
    </section>
  );
}
