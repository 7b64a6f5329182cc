// The product list's columns: image, title (in the chosen title language, else the display title), price with its
// currency, weight, label, status, the infringement word (a red badge), owner (main accounts), creation time and the
// row actions 编辑 / 复制 / 删除. Cells stay one or two lines so virtualized rows keep one height.
import { TitleCell } from "../../components/title-cell.tsx";
import { ShieldAlert } from "lucide-react";
import type { ProductListItem } from "@shared/contract/product.ts";
import { Badge } from "@shared/ui/badge.tsx";
import { Button } from "@shared/ui/button.tsx";
import type { DataTableColumn } from "@shared/ui/data-table.tsx";
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
};

/** The title in `lang`, else the display title. */
export const titleIn = (row: Pick<ProductListItem, "title" | "titleText">, lang: string) => row.title[lang]?.trim() || row.titleText;

const weightText = (w: string | null) => {
  if (w == null || w === "") return "-";
  const n = Number(w);
  return Number.isFinite(n) ? `${n.toLocaleString("zh-CN", { maximumFractionDigits: 2 })} g` : w;
};

const actionClass = "text-primary hover:text-primary h-7 px-2";
const dangerClass = "text-destructive hover:text-destructive hover:bg-destructive/10 h-7 px-2";

export function productColumns(a: ProductRowActions): DataTableColumn<ProductListItem>[] {
  const columns: (DataTableColumn<ProductListItem> | null)[] = [
    {
      id: "image",
      header: "图片",
      width: 72,
      cell: (r) => <Thumb src={r.image ?? r.images[0]} alt={r.titleText || "商品图片"} />,
    },
    {
      id: "title",
      header: "商品标题",
      cell: (r) => {
        const title = titleIn(r, a.titleLanguage);
        return (
          <TitleCell testId={`products-row-${r.id}`} title={title} onOpen={() => a.onEdit(r)}>
            {r.platformType ? <span className="shrink-0">{platformLabel(r.platformType)}</span> : null}
            {r.sku ? <span className="truncate tabular-nums">SKU {r.sku}</span> : null}
          </TitleCell>
        );
      },
    },
    {
      id: "price",
      header: "价格",
      width: 120,
      align: "right",
      cell: (r) => <span className="whitespace-nowrap tabular-nums">{formatPrice(r.price, null, r.currency)}</span>,
    },
    {
      id: "weight",
      header: "重量",
      width: 90,
      align: "right",
      cell: (r) => <span className="whitespace-nowrap tabular-nums">{weightText(r.weight)}</span>,
    },
    {
      id: "label",
      header: "标签",
      width: 110,
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
      width: 88,
      cell: (r) => (
        <Badge variant={productStatusTones[r.status] ?? "outline"} data-testid="products-status">
          {productStatusLabel(r.status)}
        </Badge>
      ),
    },
    {
      id: "infringement",
      header: "侵权",
      width: 110,
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
          width: 110,
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
      width: 104,
      cell: (r) => <DateCell iso={r.creationTime} stacked />,
    },
    {
      id: "actions",
      header: "操作",
      width: 156,
      cell: (r) => (
        <div className="-ml-2 flex items-center gap-0.5 whitespace-nowrap">
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
