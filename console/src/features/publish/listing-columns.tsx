// The listing centre's columns: image, title (with the reason it is not live or Mercado Libre's warning under it), site,
// item id with its permalink (a cross-border row also names its global item and opens its other sites), price and
// stock (edited in place), sold, views, health, status with the last sync under it, and the row actions. Cells stay within two lines so
// virtualized rows keep one height.
import { ChevronDown, ChevronRight, ExternalLink, MoreHorizontal, Pencil } from "lucide-react";
import { useRef, useState, type KeyboardEvent } from "react";
import type { ListingRow } from "#shared/contract/listings.ts";
import { ListingStatus } from "#shared/contract/enums.ts";
import { MELI_SITES } from "#shared/contract/meli.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import type { TableDensity } from "#shared/ui/data-table-view.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "#shared/ui/dropdown-menu.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { Thumb } from "../../components/list/thumb.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { listingStatusLabel, listingStatusTones, siteName } from "./publish-names.ts";

/** A row of the table: a listing, or (cross-border) one of another row's sites opened under it. */
export type ListingTableRow = ListingRow & { parentId?: string };
export const tableRowKey = (r: ListingTableRow) => (r.parentId ? `${r.parentId}/${r.id}` : r.id);

export type ListingRowActions = {
  density: TableDensity;
  isCbt: boolean;
  expanded: Set<string>;
  onToggleSites: (row: ListingTableRow) => void;
  onSavePrice: (row: ListingTableRow, price: number) => Promise<void>;
  onSaveStock: (row: ListingTableRow, stock: number) => Promise<void>;
  onSync: (row: ListingTableRow) => void;
  onUpDown: (row: ListingTableRow, status: typeof ListingStatus.Active | typeof ListingStatus.Paused) => void;
  onEditTitle: (row: ListingTableRow) => void;
  onLogs: (row: ListingTableRow) => void;
  onDelete: (row: ListingTableRow) => void;
  onRemoveRecord: (row: ListingTableRow) => void;
};

/** Listings an edit can reach: on Mercado Libre and not closed (the server's ON_MARKET). */
const isOnMarket = (r: Pick<ListingRow, "itemId" | "status">) =>
  !!r.itemId && (r.status === ListingStatus.Active || r.status === ListingStatus.Paused || r.status === ListingStatus.UnderReview);

const siteCode = (site: number) => MELI_SITES[site as keyof typeof MELI_SITES]?.code.toUpperCase() ?? String(site);
const amountText = (v: number | null, currency?: string | null) =>
  v === null ? "-" : `${v.toLocaleString("zh-CN", { maximumFractionDigits: 2 })}${currency ? ` ${currency}` : ""}`;
const healthText = (h: number | null) => (h === null ? "-" : `${Math.round(h * 100)}%`);

/** A number edited in place: the pencil opens an input; Enter or leaving it saves, Esc cancels. */
function InlineNumber(p: {
  value: number | null;
  text: string;
  integer?: boolean;
  disabled?: boolean;
  testId: string;
  label: string;
  onSave: (v: number) => Promise<void>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Enter saves, and the input then loses focus: the second commit must not send the change again.
  const committing = useRef(false);
  const parse = (s: string) => {
    const n = Number(s.trim());
    if (!s.trim() || !Number.isFinite(n) || n < 0 || (p.integer && !Number.isInteger(n))) return null;
    return n;
  };
  async function commit() {
    if (draft === null || committing.current) return;
    const n = parse(draft);
    if (n === null || n === p.value) return setDraft(null);
    committing.current = true;
    setSaving(true);
    try {
      await p.onSave(n);
    } finally {
      committing.current = false;
      setSaving(false);
      setDraft(null);
    }
  }
  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "Enter") void commit();
    if (e.key === "Escape") setDraft(null);
  }
  if (draft !== null)
    return (
      <Input
        autoFocus
        value={draft}
        inputMode="decimal"
        aria-label={p.label}
        aria-invalid={parse(draft) === null}
        className="h-7 w-full px-1.5 text-right text-xs tabular-nums"
        disabled={saving}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKey}
        onBlur={() => void commit()}
        data-testid={`${p.testId}-input`}
      />
    );
  return (
    <div className="group flex items-center justify-end gap-1">
      {saving ? <Spinner className="size-3" /> : null}
      <span className="text-xs whitespace-nowrap tabular-nums" data-testid={p.testId}>
        {p.text}
      </span>
      {p.disabled ? null : (
        <button
          type="button"
          aria-label={p.label}
          className="text-muted-foreground hover:text-primary opacity-40 group-hover:opacity-100"
          onClick={() => setDraft(p.value === null ? "" : String(p.value))}
          data-testid={`${p.testId}-edit`}
        >
          <Pencil className="size-3" />
        </button>
      )}
    </div>
  );
}

export function listingColumns(a: ListingRowActions): DataTableColumn<ListingTableRow>[] {
  const compact = a.density === "compact";
  return [
    {
      id: "image",
      header: "图片",
      width: compact ? 56 : 72,
      cell: (r) => (r.parentId ? null : <Thumb src={r.image} alt={r.title || "商品图片"} size={compact ? 36 : 48} />),
    },
    {
      id: "title",
      header: "标题",
      hideable: false,
      cell: (r) => (
        <div className={cn("flex min-w-0 flex-col gap-0.5", r.parentId && "border-l-2 pl-2")} data-testid={`listing-row-${r.id}`}>
          <span className="line-clamp-1 text-xs font-medium" title={r.title ?? ""}>
            {r.title || r.productTitle || "-"}
          </span>
          {r.reason ? (
            <span className="text-destructive line-clamp-1 text-xs" title={r.reason} data-testid="listing-reason">
              {r.reason}
            </span>
          ) : r.warningMessage ? (
            <span className="text-warning line-clamp-1 text-xs" title={r.warningMessage} data-testid="listing-warning">
              {r.warningMessage}
            </span>
          ) : (
            <span className="text-muted-foreground line-clamp-1 text-xs">{r.cateName ?? r.cateId ?? ""}</span>
          )}
        </div>
      ),
    },
    {
      id: "site",
      header: "站点",
      width: 76,
      cell: (r) => (
        <Badge variant="outline" className="px-1.5 text-[11px]" title={siteName(r.site)} data-testid="listing-site">
          {siteCode(r.site)} {siteName(r.site).slice(0, 3)}
        </Badge>
      ),
    },
    {
      id: "item",
      header: a.isCbt ? "商品ID / 全球ID" : "商品ID",
      width: 150,
      cell: (r) => (
        <div className="flex min-w-0 flex-col text-xs">
          {r.itemId ? (
            r.permalink ? (
              <a
                href={r.permalink}
                target="_blank"
                rel="noreferrer"
                className="text-primary inline-flex items-center gap-1 truncate hover:underline"
                data-testid="listing-item"
              >
                {r.itemId}
                <ExternalLink className="size-3 shrink-0" />
              </a>
            ) : (
              <span data-testid="listing-item">{r.itemId}</span>
            )
          ) : (
            <span className="text-muted-foreground">-</span>
          )}
          {a.isCbt && r.cbtId && !r.parentId ? (
            <button
              type="button"
              className="text-muted-foreground hover:text-primary inline-flex items-center gap-0.5 truncate text-left"
              onClick={() => a.onToggleSites(r)}
              aria-expanded={a.expanded.has(r.id)}
              title="展开该全球商品的各站点"
              data-testid={`listing-sites-${r.id}`}
            >
              {a.expanded.has(r.id) ? <ChevronDown className="size-3" /> : <ChevronRight className="size-3" />}
              {r.cbtId}
            </button>
          ) : null}
        </div>
      ),
    },
    {
      id: "price",
      header: "价格",
      width: 120,
      align: "right",
      cell: (r) => (
        <InlineNumber
          value={r.price}
          text={amountText(r.price, r.currency)}
          disabled={!isOnMarket(r)}
          label="修改价格"
          testId={`listing-price-${r.id}`}
          onSave={(v) => a.onSavePrice(r, v)}
        />
      ),
    },
    {
      id: "stock",
      header: "库存",
      width: 76,
      align: "right",
      cell: (r) => (
        <InlineNumber
          value={r.stock}
          text={amountText(r.stock)}
          integer
          disabled={!isOnMarket(r)}
          label="修改库存"
          testId={`listing-stock-${r.id}`}
          onSave={(v) => a.onSaveStock(r, v)}
        />
      ),
    },
    {
      id: "orders",
      header: "销量",
      width: 60,
      align: "right",
      cell: (r) => <span className="text-xs tabular-nums">{r.orders}</span>,
    },
    {
      id: "views",
      header: "浏览",
      width: 64,
      align: "right",
      cell: (r) => <span className="text-xs tabular-nums">{r.views}</span>,
    },
    {
      id: "health",
      header: "健康度",
      width: 64,
      align: "right",
      defaultHidden: true,
      cell: (r) => <span className="text-xs tabular-nums">{healthText(r.health)}</span>,
    },
    {
      id: "status",
      header: "状态 / 同步",
      width: 112,
      cell: (r) => (
        <div className="flex flex-col items-start gap-0.5">
          <Badge variant={listingStatusTones[r.status] ?? "outline"} data-testid="listing-status" data-status={r.status}>
            {listingStatusLabel(r.status)}
          </Badge>
          <span className="text-muted-foreground text-[11px] tabular-nums" title={`最后同步：${formatDateTime(r.syncTime)}`}>
            {r.syncTime ? formatDateTime(r.syncTime).slice(5, 16) : "未同步"}
          </span>
        </div>
      ),
    },
    {
      id: "actions",
      header: "操作",
      width: 150,
      cell: (r) => {
        const onMarket = isOnMarket(r);
        return (
          <div className="-ml-2 flex items-center">
            {r.status === ListingStatus.Paused ? (
              <Button
                variant="ghost"
                size="sm"
                className="text-primary h-7 px-1.5"
                onClick={() => a.onUpDown(r, ListingStatus.Active)}
                data-testid={`listing-up-${r.id}`}
              >
                上架
              </Button>
            ) : (
              <Button
                variant="ghost"
                size="sm"
                className="text-primary h-7 px-1.5"
                disabled={!onMarket}
                onClick={() => a.onUpDown(r, ListingStatus.Paused)}
                data-testid={`listing-down-${r.id}`}
              >
                下架
              </Button>
            )}
            <Button
              variant="ghost"
              size="sm"
              className="text-primary h-7 px-1.5"
              disabled={!r.itemId}
              onClick={() => a.onSync(r)}
              data-testid={`listing-sync-${r.id}`}
            >
              同步
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className="text-primary h-7 px-1.5"
              onClick={() => a.onLogs(r)}
              data-testid={`listing-logs-${r.id}`}
            >
              日志
            </Button>
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" size="icon" className="size-7" aria-label="更多操作" data-testid={`listing-more-${r.id}`}>
                  <MoreHorizontal className="size-4" />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuItem disabled={!onMarket} onSelect={() => a.onEditTitle(r)}>
                  修改标题
                </DropdownMenuItem>
                <DropdownMenuSeparator />
                <DropdownMenuItem
                  disabled={!r.itemId || r.status === ListingStatus.Closed}
                  className="text-destructive"
                  onSelect={() => a.onDelete(r)}
                  data-testid={`listing-delete-${r.id}`}
                >
                  在美客多删除
                </DropdownMenuItem>
                <DropdownMenuItem onSelect={() => a.onRemoveRecord(r)} data-testid={`listing-remove-${r.id}`}>
                  仅移除记录
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          </div>
        );
      },
    },
  ];
}
