// @vitest-environment happy-dom
// The shop centre's components as a user meets them: the connect dialog, the status cell of a shop needing
// authorization, the bulk bar, the pricing dialog saving through the API, and the list page reporting a return from
// Mercado Libre's authorization (the server answered by a stubbed fetch).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ShopAccount } from "#shared/contract/meli.ts";
import type { UserInfo } from "#shared/contract/users.ts";
import { sectionRoutes, type AppRoute } from "#shared/routes/table.ts";
import { useToastStore } from "#shared/ui/toast.tsx";
import { useUserStore } from "../../stores/user.ts";
import { ConnectDialog } from "./connect-dialog.tsx";
import { PricingDialog } from "./pricing-dialog.tsx";
import { ShopBulkBar } from "./shop-bulk-bar.tsx";
import { StatusCell } from "./shop-columns.tsx";
import ShopListPage from "./shop-list-page.tsx";

const ME = "3f0c8a52-1b7e-4c1d-9a43-2f6f0e9b7a11";
const SUB = "9b1e7c44-5a2d-4f6e-8c3b-7d9a0e1f2b33";

const shop = (over: Partial<ShopAccount> = {}): ShopAccount => ({
  id: "0b7e4c1d-1111-4c1d-9a43-2f6f0e9b7a11",
  group: "g1",
  groupName: "SELLER_MX",
  ownerId: SUB,
  ownerName: "sales1",
  alias: null,
  site: 1,
  name: "SELLER_MX",
  email: null,
  corp: null,
  status: 1,
  statusMessage: null,
  isCbt: false,
  custId: "1800000017",
  isFull: false,
  adjustRate: null,
  tinyPrice: null,
  limitMinPrice: null,
  limitMaxPrice: null,
  currency: "MXN",
  brand: null,
  creationTime: "2026-01-02T03:04:05Z",
  isRecieveOrder: true,
  sort: 0,
  overPrice: null,
  minMargin: null,
  autoReprice: false,
  autoRepriceMaxPercent: null,
  lastModificationTime: null,
  ...over,
});
const needsAuth = shop({ status: 3, statusMessage: "美客多授权已失效，请重新授权" });

type Answer = (url: URL, init: RequestInit) => unknown;
let answers: Record<string, Answer>;
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(String(input), "http://erp.test");
  const answer = answers[url.pathname];
  if (!answer) return new Response(JSON.stringify({ error: { message: "no" } }), { status: 404 });
  return new Response(JSON.stringify({ result: answer(url, init ?? {}) }), {
    status: 200,
    headers: { "content-type": "application/json" },
  });
});

function withClient(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const toasts = () => useToastStore.getState().toasts.map((t) => `${t.type}:${t.message}`);

beforeEach(() => {
  answers = {};
  fetchMock.mockClear();
  vi.stubGlobal("fetch", fetchMock);
  useToastStore.setState({ toasts: [] });
  useUserStore.getState().reset();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("ConnectDialog", () => {
  const users = [
    { id: ME, name: "demo（主账号）" },
    { id: SUB, name: "sales1" },
  ];

  it("asks for a site, then starts with the chosen sites for the main account itself", async () => {
    const onSubmit = vi.fn();
    const target = { kind: "new" } as const;
    const dialog = (list: typeof users) => (
      <ConnectDialog target={target} users={list} selfId={ME} pending={false} onSubmit={onSubmit} onClose={() => {}} />
    );
    const { rerender } = render(dialog(users));
    expect(screen.getByText("绑定美客多店铺")).toBeTruthy();
    expect(screen.getByTestId("shops-connect-owner").textContent).toContain("demo（主账号）");
    fireEvent.click(screen.getByTestId("shops-connect-submit"));
    await screen.findByText("请至少选择一个站点");
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("shops-connect-site-1").querySelector("button")!);
    fireEvent.click(screen.getByTestId("shops-connect-site-5").querySelector("button")!);
    // The page passes a new owner list on every render; the choices stay.
    rerender(dialog([...users]));
    fireEvent.click(screen.getByTestId("shops-connect-submit"));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ sites: [1, 5], uid: ME }));
  });

  it("authorizing again: the shop's sites are chosen and its owner kept", async () => {
    const onSubmit = vi.fn();
    render(
      <ConnectDialog
        target={{ kind: "reauthorize", shopName: "主店", sites: [2], ownerId: SUB }}
        users={users}
        selfId={ME}
        pending={false}
        onSubmit={onSubmit}
        onClose={() => {}}
      />,
    );
    expect(screen.getByText("重新授权店铺「主店」")).toBeTruthy();
    expect(screen.queryByTestId("shops-connect-owner")).toBeNull();
    expect(screen.getByTestId("shops-connect-site-2").querySelector("button")!.getAttribute("data-state")).toBe("checked");
    fireEvent.click(screen.getByTestId("shops-connect-submit"));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ sites: [2], uid: SUB }));
  });

  it("a sub-account connects shops for itself: no owner choice", async () => {
    const onSubmit = vi.fn();
    render(<ConnectDialog target={{ kind: "new" }} users={null} selfId={SUB} pending={false} onSubmit={onSubmit} onClose={() => {}} />);
    expect(screen.queryByTestId("shops-connect-owner")).toBeNull();
    fireEvent.click(screen.getByTestId("shops-connect-site-3").querySelector("button")!);
    fireEvent.click(screen.getByTestId("shops-connect-submit"));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ sites: [3] }));
  });
});

describe("StatusCell and ShopBulkBar", () => {
  it("a shop needing authorization says why and offers 重新授权", () => {
    const onReauthorize = vi.fn();
    const { rerender } = render(<StatusCell shop={needsAuth} onReauthorize={onReauthorize} />);
    expect(screen.getByTestId("shops-status").textContent).toBe("需重新授权");
    expect(screen.getByTestId("shops-status-message").textContent).toBe("美客多授权已失效，请重新授权");
    fireEvent.click(screen.getByTestId(`shops-row-reauthorize-${needsAuth.id}`));
    expect(onReauthorize).toHaveBeenCalledWith(needsAuth);
    rerender(<StatusCell shop={shop({ status: 2 })} onReauthorize={onReauthorize} />);
    expect(screen.getByTestId("shops-status").textContent).toBe("已停用");
    expect(screen.queryByText("重新授权")).toBeNull();
  });

  it("offers the bulk actions once shops are chosen; assigning only to main accounts", () => {
    const onAction = vi.fn();
    const { rerender } = render(<ShopBulkBar selectedCount={0} canAssign={false} onClear={() => {}} onAction={onAction} />);
    expect((screen.getByTestId("shops-bulk-pricing") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId("shops-bulk-assign")).toBeNull();
    rerender(<ShopBulkBar selectedCount={2} canAssign onClear={() => {}} onAction={onAction} />);
    expect(screen.getByTestId("shops-selected-count").textContent).toBe("已选择 2 个店铺");
    fireEvent.click(screen.getByTestId("shops-bulk-assign"));
    fireEvent.click(screen.getByTestId("shops-bulk-disable"));
    expect(onAction.mock.calls).toEqual([["assign"], ["disable"]]);
  });
});

describe("PricingDialog", () => {
  it("checks the rules, then saves them with UpdateAccount", async () => {
    const s = shop({ adjustRate: 1.2 });
    answers["/api/MeliAccount/UpdateAccount"] = (_u, init) => ({ ...s, ...JSON.parse(String(init.body)).info });
    answers["/api/User/GetUserInitCache"] = () => ({ accs: [], subUsers: [], moduleAuths: [], groups: [] });
    const onClose = vi.fn();
    render(withClient(<PricingDialog shop={s} onClose={onClose} />));
    expect((screen.getByTestId("shops-pricing-adjustRate") as HTMLInputElement).value).toBe("1.2");
    fireEvent.change(screen.getByTestId("shops-pricing-tinyPrice"), { target: { value: "1" } });
    fireEvent.click(screen.getByTestId("shops-pricing-submit"));
    await screen.findByText("价格尾数应在 0 到 0.99 之间");
    fireEvent.change(screen.getByTestId("shops-pricing-tinyPrice"), { target: { value: "0.5" } });
    fireEvent.change(screen.getByTestId("shops-pricing-alias"), { target: { value: "主店" } });
    expect((screen.getByTestId("shops-pricing-minMargin") as HTMLInputElement).placeholder).toBe("默认 10");
    fireEvent.change(screen.getByTestId("shops-pricing-minMargin"), { target: { value: "15" } });
    // 自动调价: the day's bound is typed once the switch is on.
    const bound = screen.getByTestId("shops-pricing-autoRepriceMaxPercent") as HTMLInputElement;
    expect(bound.disabled).toBe(true);
    fireEvent.click(screen.getByTestId("shops-pricing-autoReprice"));
    await waitFor(() => expect(bound.disabled).toBe(false));
    fireEvent.change(bound, { target: { value: "8" } });
    fireEvent.click(screen.getByTestId("shops-pricing-submit"));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [, init] = fetchMock.mock.calls.find(([u]) => String(u).includes("UpdateAccount"))!;
    expect(JSON.parse(String(init!.body))).toEqual({
      id: s.id,
      info: {
        alias: "主店",
        adjustRate: 1.2,
        overPrice: null,
        tinyPrice: 0.5,
        limitMinPrice: null,
        limitMaxPrice: null,
        brand: null,
        sort: 0,
        minMargin: 15,
        autoReprice: true,
        autoRepriceMaxPercent: 8,
      },
    });
    expect(toasts()).toContain("success:店铺「主店」的定价规则已保存");
  });
});

describe("ShopListPage", () => {
  const route = sectionRoutes.flatMap((s) => s.children).find((r) => r.path === "/shops/list") as AppRoute;

  function Where() {
    const location = useLocation();
    return <output data-testid="where">{location.pathname + location.search}</output>;
  }

  it("reports a return from the authorization page once, drops it from the URL and refreshes the user cache", async () => {
    useUserStore.setState({
      isMainAccount: true,
      userInfo: { id: ME, userName: "demo" } as UserInfo,
      userCache: { accs: [], subUsers: [{ id: SUB, name: "sales1" }], moduleAuths: [] },
    });
    answers["/api/MeliAccount/GetAccounts"] = () => ({ items: [needsAuth], totalCount: 1 });
    answers["/api/User/GetUserInitCache"] = () => ({
      accs: [{ groupId: "g1", name: "SELLER_MX", alias: null, brand: null }],
      subUsers: [{ id: SUB, name: "sales1" }],
      moduleAuths: [],
      groups: [{ groupId: "g1", name: "SELLER_MX", alias: null, brand: null, sites: [1] }],
    });
    const message = "美客多账号「SELLER_MX」授权成功：已新增 1 个店铺（墨西哥）";
    render(
      withClient(
        <MemoryRouter initialEntries={[`/shops/list?site=1&auth=success&groupId=g1&added=1&message=${encodeURIComponent(message)}`]}>
          <ShopListPage route={route} />
          <Where />
        </MemoryRouter>,
      ),
    );
    await waitFor(() => expect(screen.getByTestId("where").textContent).toBe("/shops/list?site=1"));
    expect(toasts()).toEqual([`success:${message}`]);
    await waitFor(() => expect(useUserStore.getState().userCache.accs.map((a) => a.name)).toEqual(["SELLER_MX"]));

    // The listed shop needs authorizing again: its action opens the connect dialog for its site.
    await screen.findByTestId(`shops-row-${needsAuth.id}`);
    expect(screen.getByTestId("shops-row-title").textContent).toBe("SELLER_MX");
    expect(screen.getByText("sales1")).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId(`shops-row-reauthorize-${needsAuth.id}`)));
    expect(screen.getByText("重新授权店铺「SELLER_MX」")).toBeTruthy();
    expect(screen.getByTestId("shops-connect-site-1").querySelector("button")!.getAttribute("data-state")).toBe("checked");
    const accountCalls = fetchMock.mock.calls
      .filter(([u]) => String(u).includes("GetAccounts"))
      .map(([u]) => new URL(String(u), "http://x").search);
    expect(accountCalls[0]).toBe("?Site=1&SkipCount=0&MaxResultCount=20");
  });

  it("shows the empty state with a connect button when there are no shops", async () => {
    answers["/api/MeliAccount/GetAccounts"] = () => ({ items: [], totalCount: 0 });
    render(
      withClient(
        <MemoryRouter initialEntries={["/shops/list"]}>
          <ShopListPage route={route} />
        </MemoryRouter>,
      ),
    );
    await screen.findByTestId("shops-empty");
    expect(screen.getByText("还没有绑定店铺")).toBeTruthy();
    fireEvent.click(screen.getByTestId("shops-empty-connect"));
    expect(await screen.findByText("绑定美客多店铺")).toBeTruthy();
  });
});
