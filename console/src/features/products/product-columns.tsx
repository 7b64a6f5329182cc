// The product list's columns: image, title (in the chosen title language, else the display title; it takes the free
// width and wraps to two lines), source platform and SKU (hidden until the user shows it), price with its currency,
// weight, label, status, the infringement word (a red badge), owner (main accounts), creation time and the row actions
// 编辑 / 复制 / 删除. Cells stay within two lines so virtualized rows keep one height; the fixed widths are as narrow
// as their content allows, so the title keeps ~250px at 1440px.
import { TitleCell } from "../../components/title-cell.tsx";
import { ShieldAlert } from "lucide-react";
import type { ProductListItem } from "#shared/contract/product.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import type { TableDensity } from "#shared/ui/data-table-view.tsx";
import { Thumb } from "../../components/list/thumb.tsx";
import { DateCell } from "../../components/list/date-cell.tsx";
import { formatPrice } from "../../lib/format.ts";
import { platformLabel } from "../../lib/labels.ts";
import { productStatusLabel, productStatusTones } from "./product-names.ts";

export type ProductRowActions = {
  onEdit: (row: ProductListItem) => void;
  onCopy: (row: ProductListItem) => void;
  onDelete: (row: ProductListItem) => void;
  /** The language titles are shown in (config store productTitleLanguage). */
  titleLanguage: string;
  /** Main accounts see every owner's products. */
  showOwner: boolean;
  density: TableDensity;
};

/** The title in `lang`, else the display title. */
export const titleIn = (row: Pick<ProductListItem, "title" | "titleText">, lang: string) => row.title[lang]?.trim() || row.titleText;

const weightText = (w: string | null) => {
  if (w == null || w === "") return "-";
  const n = Number(w);
  return Number.isFinite(n) ? `${n.toLocaleString("zh-CN", { maximumFractionDigits: 2 })} g` : w;
};

const actionClass = "text-primary hover:text-primary h-7 px-1.5";
const dangerClass = "text-destructive hover:text-destructive hover:bg-destructive/10 h-7 px-1.5";

export function productColumns(a: ProductRowActions): DataTableColumn<ProductListItem>[] {
  const compact = a.density === "compact";
  const columns: (DataTableColumn<ProductListItem> | null)[] = [
    {
      id: "image",
      header: "图片",
      width: compact ? 60 : 72,
      cell: (r) => <Thumb src={r.image ?? r.images[0]} alt={r.titleText || "商品图片"} size={compact ? 36 : 48} />,
    },
    {
      id: "title",
      header: "商品标题",
      hideable: false,
      cell: (r) => (
        <TitleCell testId={`products-row-${r.id}`} title={titleIn(r, a.titleLanguage)} onOpen={() => a.onEdit(r)} dense={compact} />
      ),
    },
    {
      id: "source",
      header: "来源 / SKU",
      width: 130,
      defaultHidden: true,
      cell: (r) => (
        <div className="text-muted-foreground flex min-w-0 flex-col text-xs">
          <span className="truncate">{r.platformType ? platformLabel(r.platformType) : "-"}</span>
          {r.sku ? (
            <span className="truncate tabular-nums" title={r.sku}>
              {r.sku}
            </span>
          ) : null}
        </div>
      ),
    },
    {
      id: "price",
      header: "价格",
      width: 104,
      align: "right",
      cell: (r) => <span className="whitespace-nowrap tabular-nums">{formatPrice(r.price, null, r.currency)}</span>,
    },
    {
      id: "weight",
      header: "重量",
      width: 80,
      align: "right",
      cell: (r) => <span className="whitespace-nowrap tabular-nums">{weightText(r.weight)}</span>,
    },
    {
      id: "label",
      header: "标签",
      width: 96,
      cell: (r) =>
        r.labelName ? (
          <Badge variant="outline" className="max-w-full" title={r.labelName}>
            <span className="truncate">{r.labelName}</span>
          </Badge>
        ) : (
          <span className="text-muted-foreground">-</span>
        ),
    },
    {
      id: "status",
      header: "状态",
      width: 84,
      cell: (r) => (
        <Badge variant={productStatusTones[r.status] ?? "outline"} data-testid="products-status">
          {productStatusLabel(r.status)}
        </Badge>
      ),
    },
    {
      id: "infringement",
      header: "侵权",
      width: 96,
      cell: (r) =>
        r.infringementWord ? (
          <Badge variant="destructive" className="max-w-full" title={`含侵权词：${r.infringementWord}`} data-testid="products-infringement">
            <ShieldAlert />
            <span className="truncate">{r.infringementWord}</span>
          </Badge>
        ) : (
          <span className="text-muted-foreground">-</span>
        ),
    },
    a.showOwner
      ? {
          id: "owner",
          header: "所属账号",
          width: 96,
          cell: (r) => (
            <span className="truncate" title={r.owner ?? undefined}>
              {r.owner ?? "-"}
            </span>
          ),
        }
      : null,
    {
      id: "created",
      header: "创建时间",
      width: 96,
      cell: (r) => <DateCell iso={r.creationTime} stacked />,
    },
    {
      id: "actions",
      header: "操作",
      width: 136,
      hideable: false,
      movable: false,
      cell: (r) => (
        <div className="-ml-1.5 flex items-center gap-0.5 whitespace-nowrap">
          <Button variant="ghost" size="sm" className={actionClass} onClick={() => a.onEdit(r)} data-testid={`products-row-edit-${r.id}`}>
            编辑
          </Button>
          <Button variant="ghost" size="sm" className={actionClass} onClick={() => a.onCopy(r)} data-testid={`products-row-copy-${r.id}`}>
            复制
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className={dangerClass}
            onClick={() => a.onDelete(r)}
            data-testid={`products-row-delete-${r.id}`}
          >
            删除
          </Button>
        </div>
      ),
    },
  ];
  return columns.filter((c): c is DataTableColumn<ProductListItem> => c !== null);
}
