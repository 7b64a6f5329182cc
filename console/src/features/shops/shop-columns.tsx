// The shop table's columns: the shop (alias, Mercado Libre nickname, seller id; e-mail on hover), its site, status (a
// shop needing authorization says why and offers 重新授权), currency, pricing rules, the order-receiving switch, owner
// (main accounts), when it was connected, and the row actions 定价规则 / 停用·启用 / 分配. Below, the shops of one
// account group as the 账号分组 tab lists them.
import { KeyRound } from "lucide-react";
import { MeliAccountStatus } from "#shared/contract/enums.ts";
import type { ShopAccount } from "#shared/contract/meli.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { Switch } from "#shared/ui/switch.tsx";
import { DateCell } from "../../components/list/date-cell.tsx";
import { accountStatusLabel, accountStatusTones, shopTitle, siteCodeHint, siteName } from "./names.ts";
import { pricingSummary } from "./pricing-form.ts";

export type ShopRowActions = {
  onEditPricing: (shop: ShopAccount) => void;
  onToggleEnabled: (shop: ShopAccount, enable: boolean) => void;
  onToggleReceive: (shop: ShopAccount, enable: boolean) => void;
  onReauthorize: (shop: ShopAccount) => void;
  /** Main accounts only; null hides the owner column and the 分配 action. */
  onAssign: ((shop: ShopAccount) => void) | null;
  /** Shops whose order-receiving switch is on its way to the server. */
  pendingReceive: ReadonlySet<string>;
};

const actionClass = "text-primary hover:text-primary h-7 px-2";
const dangerClass = "text-destructive hover:text-destructive hover:bg-destructive/10 h-7 px-2";
const muted = (text: string) => <span className="text-muted-foreground">{text}</span>;

export function StatusCell({ shop, onReauthorize }: { shop: ShopAccount; onReauthorize: (shop: ShopAccount) => void }) {
  const needsAuth = shop.status === MeliAccountStatus.NeedsAuthorization;
  return (
    <div className="flex min-w-0 flex-col items-start gap-1">
      <Badge variant={accountStatusTones[shop.status] ?? "outline"} data-testid="shops-status" data-status={shop.status}>
        {accountStatusLabel(shop.status)}
      </Badge>
      {needsAuth && shop.statusMessage ? (
        <span className="text-destructive line-clamp-2 text-xs" title={shop.statusMessage} data-testid="shops-status-message">
          {shop.statusMessage}
        </span>
      ) : null}
      {needsAuth ? (
        <Button
          variant="link"
          size="sm"
          className="h-6 px-0 text-xs"
          onClick={() => onReauthorize(shop)}
          data-testid={`shops-row-reauthorize-${shop.id}`}
        >
          <KeyRound />
          重新授权
        </Button>
      ) : null}
    </div>
  );
}

export function shopColumns(a: ShopRowActions): DataTableColumn<ShopAccount>[] {
  const columns: (DataTableColumn<ShopAccount> | null)[] = [
    {
      id: "shop",
      header: "店铺",
      cell: (s) => (
        <div className="flex min-w-0 flex-col" data-testid={`shops-row-${s.id}`} data-cust-id={s.custId}>
          <span className="truncate font-medium" title={shopTitle(s)} data-testid="shops-row-title">
            {shopTitle(s)}
          </span>
          {s.alias?.trim() ? (
            <span className="text-muted-foreground truncate text-xs" title={s.name}>
              昵称 {s.name}
            </span>
          ) : null}
          <span className="text-muted-foreground truncate text-xs tabular-nums" title={s.email ?? undefined}>
            卖家ID {s.custId}
          </span>
        </div>
      ),
    },
    {
      id: "site",
      header: "站点",
      width: 120,
      cell: (s) => (
        <div className="flex flex-wrap items-center gap-1">
          <Badge variant="outline" data-testid="shops-site" data-site={s.site}>
            {siteName(s.site)}
            <span className="text-muted-foreground font-normal">{siteCodeHint(s.site)}</span>
          </Badge>
          {s.isCbt ? (
            <Badge variant="default" title="跨境（CBT）全球卖家的站点店铺">
              CBT
            </Badge>
          ) : null}
          {s.isFull ? (
            <Badge variant="secondary" title="美客多 Full 仓发货">
              Full
            </Badge>
          ) : null}
        </div>
      ),
    },
    {
      id: "status",
      header: "状态",
      width: 130,
      cell: (s) => <StatusCell shop={s} onReauthorize={a.onReauthorize} />,
    },
    { id: "currency", header: "币种", width: 60, cell: (s) => <span className="tabular-nums">{s.currency}</span> },
    {
      id: "pricing",
      header: "定价规则",
      width: 170,
      cell: (s) => {
        const lines = pricingSummary(s);
        return (
          <div className="flex flex-col gap-0.5 text-xs" data-testid="shops-pricing-summary">
            {lines.length ? lines.map((l) => <span key={l}>{l}</span>) : muted("未设置")}
            {s.brand ? <span className="text-muted-foreground truncate">品牌 {s.brand}</span> : null}
            {s.sort !== 0 ? <span className="text-muted-foreground">排序 {s.sort}</span> : null}
          </div>
        );
      },
    },
    {
      id: "receive",
      header: "接单",
      width: 64,
      cell: (s) => (
        <Switch
          checked={s.isRecieveOrder}
          disabled={a.pendingReceive.has(s.id)}
          onCheckedChange={(on) => a.onToggleReceive(s, on)}
          aria-label={s.isRecieveOrder ? `关闭 ${shopTitle(s)} 的接单` : `开启 ${shopTitle(s)} 的接单`}
          data-testid={`shops-row-receive-${s.id}`}
        />
      ),
    },
    a.onAssign
      ? {
          id: "owner",
          header: "所属业务员",
          width: 100,
          cell: (s) => (
            <span className="truncate" title={s.ownerName ?? undefined}>
              {s.ownerName ?? "未知业务员"}
            </span>
          ),
        }
      : null,
    {
      id: "created",
      header: "绑定时间",
      width: 100,
      cell: (s) => <DateCell iso={s.creationTime} stacked />,
    },
    {
      id: "actions",
      header: "操作",
      width: a.onAssign ? 156 : 116,
      cell: (s) => {
        const disabled = s.status === MeliAccountStatus.Disabled;
        const onAssign = a.onAssign;
        return (
          <div className="-ml-2 flex items-center gap-0.5 whitespace-nowrap">
            <Button
              variant="ghost"
              size="sm"
              className={actionClass}
              onClick={() => a.onEditPricing(s)}
              data-testid={`shops-row-pricing-${s.id}`}
            >
              定价规则
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className={disabled ? actionClass : dangerClass}
              onClick={() => a.onToggleEnabled(s, disabled)}
              data-testid={`shops-row-enable-${s.id}`}
            >
              {disabled ? "启用" : "停用"}
            </Button>
            {onAssign ? (
              <Button
                variant="ghost"
                size="sm"
                className={actionClass}
                onClick={() => onAssign(s)}
                data-testid={`shops-row-assign-${s.id}`}
              >
                分配
              </Button>
            ) : null}
          </div>
        );
      },
    },
  ];
  return columns.filter((c): c is DataTableColumn<ShopAccount> => c !== null);
}

/** The shops of one account group (账号分组): site, shop, status, seller id, currency, order receiving, owner. */
export const groupShopColumns: DataTableColumn<ShopAccount>[] = [
  {
    id: "site",
    header: "站点",
    width: 130,
    cell: (s) => (
      <Badge variant="outline">
        {siteName(s.site)}
        <span className="text-muted-foreground font-normal">{siteCodeHint(s.site)}</span>
      </Badge>
    ),
  },
  { id: "shop", header: "店铺", cell: (s) => <span className="truncate">{shopTitle(s)}</span> },
  {
    id: "status",
    header: "状态",
    width: 110,
    cell: (s) => <Badge variant={accountStatusTones[s.status] ?? "outline"}>{accountStatusLabel(s.status)}</Badge>,
  },
  { id: "custId", header: "卖家ID", width: 120, cell: (s) => <span className="text-xs tabular-nums">{s.custId}</span> },
  { id: "currency", header: "币种", width: 70, cell: (s) => s.currency },
  {
    id: "receive",
    header: "接单",
    width: 80,
    cell: (s) =>
      s.isRecieveOrder ? (
        <span className="text-success text-xs">已开启</span>
      ) : (
        <span className="text-muted-foreground text-xs">未开启</span>
      ),
  },
  { id: "owner", header: "所属业务员", width: 120, cell: (s) => s.ownerName ?? "未知业务员" },
];
