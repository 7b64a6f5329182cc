// /shops/list (spec §2, shop centre): the seller's Mercado Libre shops. 绑定店铺 goes through Mercado Libre's
// authorization page (a window of its own, or this one when the browser blocks it) and comes back with the result,
// either as a message from that window or as ?auth= on this route; both show the server's message and refresh the
// list and the user cache. Tab 店铺列表: filters kept in the URL, server paging, per-shop pricing rules, enable/disable,
// order receiving, assigning (main accounts) and the same for the chosen shops at once. Tab 账号分组: GetMeliAccGroup.
import { ExternalLink, Plus, Store, TriangleAlert } from "lucide-react";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import type { AccountGroupResponse, ShopAccount } from "#shared/contract/meli.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { Empty } from "#shared/ui/empty.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#shared/ui/tabs.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar } from "../../components/list/list-toolbar.tsx";
import { useOwnerFilterOptions } from "../../components/list/owner-filter.ts";
import { useListSelection } from "../../components/list/use-list-selection.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState, useReplaceSearchParams } from "../../components/list/use-list-url-state.ts";
import { useUserStore } from "../../stores/user.ts";
import { useConnectShop } from "./api/connect-shop.ts";
import { useEnableAccount, useEnableReceiveOrder, useRefreshShops } from "./api/edit-shops.ts";
import { useShopAccounts } from "./api/get-shops.ts";
import { AssignDialog, type AssignTarget } from "./assign-dialog.tsx";
import { ConnectDialog, type ConnectTarget } from "./connect-dialog.tsx";
import { readAuthReturn, stripAuthParams, watchAuthWindow, type AuthResult } from "./meli-auth.ts";
import { shopTitle } from "./names.ts";
import { BatchPricingDialog, PricingDialog } from "./pricing-dialog.tsx";
import { readShopsTab, SHOP_PAGE_SIZES, shopListSchema, toAccountsQuery, writeShopsTab, type ShopsTab } from "./search-params.ts";
import { ShopBulkBar, type ShopBulkAction } from "./shop-bulk-bar.tsx";
import { shopColumns } from "./shop-columns.tsx";
import { shopFilters } from "./shop-filters.ts";
import { ShopGroups } from "./shop-groups.tsx";

type Group = AccountGroupResponse["groups"][number];

/** The sites a re-authorization asks for: a global seller's marketplaces go with CBT, so the page offers them. */
const reauthSites = (isCbt: boolean, sites: number[]) => (isCbt ? [5, ...sites.filter((s) => s !== 5)] : sites);

/** The server's words on the result, long enough to be read. */
function showAuthResult(r: AuthResult) {
  if (r.ok) toast.success(r.message, { duration: 8000 });
  else toast.error(r.message, { duration: 12000 });
}

export default function ShopListPage({ route }: PageProps) {
  const [params, setParams] = useSearchParams();
  const tab = readShopsTab(params);
  const listState = useListUrlState(shopListSchema, useReplaceSearchParams());
  const { state, filtered } = listState;

  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const selfId = useUserStore((s) => s.userInfo?.id ?? null);
  const users = useOwnerFilterOptions();
  const refresh = useRefreshShops();

  const list = useShopAccounts(toAccountsQuery(state));
  const table = listTable(list, listState, SHOP_PAGE_SIZES);
  const { rows } = table;
  const { total } = table.pagination;

  // Chosen shops, kept across pages; a new filter starts a new selection.
  const selection = useListSelection(listState.filterKey);
  const selected = selection.selected;
  useKeepPageInRange(listState.state, settledTotal(list), listState.setPage);

  // ---- Connecting a shop.
  const [connect, setConnect] = useState<ConnectTarget | null>(null);
  const [waiting, setWaiting] = useState<Window | null>(null);
  const start = useConnectShop();
  // Effect events: the window watcher and the return handler below run on their own triggers, not on every render.
  const onAuthResult = useEffectEvent((r: AuthResult) => {
    showAuthResult(r);
    void refresh();
  });
  const onAuthWindowClosed = useEffectEvent(() => void refresh());
  const dropAuthParams = useEffectEvent(() => setParams((prev) => stripAuthParams(prev), { replace: true }));

  useEffect(() => {
    if (!waiting) return;
    return watchAuthWindow(
      waiting,
      (r) => {
        setWaiting(null);
        onAuthResult(r);
      },
      // Closed without a word (the seller gave up, or the result could not reach this window): show what is there now.
      () => {
        setWaiting(null);
        onAuthWindowClosed();
      },
    );
  }, [waiting]);

  // Back from AuthBack in this window (/#/shops/list?auth=...): report once, then drop the result from the URL.
  const authReturn = readAuthReturn(params);
  const handledReturn = useRef<string | null>(null);
  const returnKey = authReturn ? params.toString() : null;
  const onAuthReturn = useEffectEvent(() => {
    if (!authReturn || handledReturn.current === returnKey) return;
    handledReturn.current = returnKey;
    onAuthResult(authReturn);
    dropAuthParams();
  });
  useEffect(() => onAuthReturn(), [returnKey]);

  function onConnectSubmit(v: { sites: number[]; uid?: string }) {
    start.mutate(v, {
      onSuccess: (r) => {
        setConnect(null);
        if (r.mode === "popup") setWaiting(r.popup);
      },
    });
  }

  const reauthorizeShop = (s: ShopAccount) =>
    setConnect({ kind: "reauthorize", shopName: shopTitle(s), sites: reauthSites(s.isCbt, [s.site]), ownerId: s.ownerId });
  const reauthorizeGroup = (g: Group) =>
    setConnect({
      kind: "reauthorize",
      shopName: g.alias?.trim() || g.name,
      sites: reauthSites(g.isCbt, g.sites),
      ownerId: g.accs[0]?.ownerId ?? selfId ?? "",
    });

  // ---- Row and bulk actions.
  const [pricing, setPricing] = useState<ShopAccount | null>(null);
  const [batchIds, setBatchIds] = useState<string[] | null>(null);
  const [assigning, setAssigning] = useState<AssignTarget | null>(null);
  const [pendingReceive, setPendingReceive] = useState<ReadonlySet<string>>(new Set());
  const enable = useEnableAccount();
  const receive = useEnableReceiveOrder();

  async function setEnabled(ids: string[], on: boolean, name?: string) {
    const what = name ? `店铺「${name}」` : `已选择的 ${ids.length} 个店铺`;
    const ok = await confirm(
      on
        ? { title: `确认启用${what}吗？`, description: "启用后可以刊登商品、同步和接收订单。", tone: "info", confirmText: "启用" }
        : {
            title: `确认停用${what}吗？`,
            description: "停用后不再刊登、同步和接收该店铺的订单，已刊登的商品不受影响；之后可随时重新启用。",
            tone: "warning",
            confirmText: "停用",
          },
    );
    if (!ok) return;
    enable.mutate(
      { ids, enable: on },
      {
        onSuccess: (r) => {
          if (r.count === 0) toast.info(on ? "所选店铺都已是启用状态" : "所选店铺都已是停用状态");
          else toast.success(on ? `已启用 ${r.count} 个店铺` : `已停用 ${r.count} 个店铺`);
        },
      },
    );
  }

  function setReceiving(s: ShopAccount, on: boolean) {
    setPendingReceive((p) => new Set(p).add(s.id));
    receive.mutate(
      { Id: s.id, Enable: on },
      {
        onSuccess: () => toast.success(on ? `店铺「${shopTitle(s)}」已开启接单` : `店铺「${shopTitle(s)}」已关闭接单`),
        onSettled: () =>
          setPendingReceive((p) => {
            const next = new Set(p);
            next.delete(s.id);
            return next;
          }),
      },
    );
  }

  function onBulk(action: ShopBulkAction) {
    const ids = [...selected];
    if (!ids.length) return;
    if (action === "pricing") setBatchIds(ids);
    else if (action === "assign") setAssigning({ ids });
    else void setEnabled(ids, action === "enable");
  }

  const columns = shopColumns({
    onEditPricing: setPricing,
    onToggleEnabled: (s, on) => void setEnabled([s.id], on, shopTitle(s)),
    onToggleReceive: setReceiving,
    onReauthorize: reauthorizeShop,
    onAssign: isMainAccount && users ? (s) => setAssigning({ ids: [s.id], name: shopTitle(s), ownerId: s.ownerId }) : null,
    pendingReceive,
  });

  const connectButton = (testId: string) => (
    <Button onClick={() => setConnect({ kind: "new" })} data-testid={testId}>
      <Plus />
      绑定店铺
    </Button>
  );
  const noShopsYet = !filtered && !!list.data && !list.isPlaceholderData && total === 0;
  const failed = list.isError && !list.data;

  return (
    <Card data-testid="shops-list-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>绑定美客多店铺，设置各店铺的定价规则、接单开关和所属业务员。</CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <RefreshButton fetching={list.isFetching} onRefresh={() => refresh()} data-testid="shops-refresh" />
          {connectButton("shops-connect")}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        {waiting ? (
          <div
            role="status"
            className="border-primary/30 bg-primary/5 flex flex-wrap items-center gap-2 rounded-md border px-3 py-2 text-sm"
            data-testid="shops-auth-waiting"
          >
            <ExternalLink aria-hidden="true" className="text-primary size-4" />
            <span className="flex-1">正在等待美客多授权：请在新打开的窗口中登录美客多卖家账号并同意授权，完成后结果会显示在这里。</span>
            <Button variant="outline" size="sm" onClick={() => waiting.focus()}>
              切换到授权窗口
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setWaiting(null)}>
              不再等待
            </Button>
          </div>
        ) : null}
        <Tabs
          value={tab}
          onValueChange={(v) => setParams((prev) => writeShopsTab(prev, v as ShopsTab), { replace: true })}
          className="gap-4"
        >
          <TabsList>
            <TabsTrigger value="list" data-testid="shops-tab-list">
              店铺列表
            </TabsTrigger>
            <TabsTrigger value="groups" data-testid="shops-tab-groups">
              账号分组
            </TabsTrigger>
          </TabsList>
          <TabsContent value="list" className="flex flex-col gap-3">
            {failed ? (
              <Empty
                icon={<TriangleAlert aria-hidden="true" className="text-destructive size-10 stroke-1" />}
                text="店铺列表加载失败"
                action={
                  <Button variant="outline" onClick={() => void list.refetch()}>
                    重试
                  </Button>
                }
                data-testid="shops-error"
              />
            ) : noShopsYet ? (
              <Empty
                icon={<Store aria-hidden="true" className="size-10 stroke-1" />}
                text="还没有绑定店铺"
                description="绑定美客多卖家账号后即可在这里管理店铺，并把商品刊登到这些店铺。"
                action={connectButton("shops-empty-connect")}
                data-testid="shops-empty"
              />
            ) : (
              <>
                <ListToolbar
                  filters={shopFilters(isMainAccount ? users : null)}
                  {...listState.toolbar}
                  resetTestId="shops-reset"
                  testId="shops-filters"
                />
                <ShopBulkBar
                  selectedCount={selected.size}
                  canAssign={isMainAccount && !!users}
                  onClear={selection.clear}
                  onAction={onBulk}
                />
                <DataTable
                  aria-label="店铺列表"
                  columns={columns}
                  {...table}
                  rowKey={(s) => s.id}
                  emptyText="没有符合条件的店铺"
                  selection={selection.table(rows.map((s) => s.id))}
                  className="[&_table]:min-w-[1120px] [&_table]:table-fixed"
                />
              </>
            )}
          </TabsContent>
          <TabsContent value="groups">
            {tab === "groups" ? (
              <ShopGroups onReauthorize={reauthorizeGroup} connectButton={connectButton("shops-groups-connect")} />
            ) : null}
          </TabsContent>
        </Tabs>
      </CardContent>

      <ConnectDialog
        target={connect}
        users={isMainAccount ? users : null}
        selfId={selfId}
        pending={start.isPending}
        onSubmit={onConnectSubmit}
        onClose={() => setConnect(null)}
      />
      <PricingDialog shop={pricing} onClose={() => setPricing(null)} />
      <BatchPricingDialog ids={batchIds} onClose={() => setBatchIds(null)} />
      {users ? <AssignDialog target={assigning} users={users} onClose={() => setAssigning(null)} /> : null}
    </Card>
  );
}
