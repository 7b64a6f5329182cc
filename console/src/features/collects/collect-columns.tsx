// The collection list's columns: image, title (with its language and source item id), platform, price, status
// with the infringement flag and the mark of a partial collection, owner and creation time and the row actions (view/edit, source link, delete).
import { TitleCell } from "../../components/title-cell.tsx";
import { ExternalLink, ShieldAlert, TriangleAlert } from "lucide-react";
import type { CollectListItem } from "#shared/contract/collect.ts";
import { incompleteWarning } from "#shared/extract/product.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { formatDateTime, formatPrice } from "../../lib/format.ts";
import { Thumb } from "../../components/list/thumb.tsx";
import { platformLabel } from "../../lib/labels.ts";
import { languageLabels, titleOf } from "./format.ts";
import { collectStatusLabel, collectStatusTones } from "./labels.ts";

export type CollectRowActions = {
  onEdit: (row: CollectListItem) => void;
  onDelete: (row: CollectListItem) => void;
  /** Show the owner column (main accounts see everyone's collections). */
  showOwner: boolean;
};

const actionClass = "text-primary hover:text-primary h-7 px-2";
const dangerClass = "text-destructive hover:text-destructive hover:bg-destructive/10 h-7 px-2";

export function collectColumns(a: CollectRowActions): DataTableColumn<CollectListItem>[] {
  return [
    {
      id: "image",
      header: "图片",
      width: 72,
      cell: (r) => <Thumb src={r.image ?? r.images[0]} alt={titleOf(r.title).text || "商品图片"} />,
    },
    {
      id: "title",
      header: "商品标题",
      cell: (r) => {
        const { text, language } = titleOf(r.title);
        return (
          <TitleCell testId={`collects-row-${r.id}`} title={text} onOpen={() => a.onEdit(r)}>
            {language && language !== "zh" ? <span className="shrink-0">{languageLabels[language] ?? language}</span> : null}
            <span className="truncate tabular-nums" title="商品ID">
              ID {r.sku}
            </span>
          </TitleCell>
        );
      },
    },
    {
      id: "platform",
      header: "平台",
      width: 88,
      cell: (r) => <Badge variant="outline">{platformLabel(r.platformType)}</Badge>,
    },
    {
      id: "price",
      header: "价格",
      width: 130,
      align: "right",
      cell: (r) => {
        // A range shows its upper end on a second line, so the column stays narrow.
        const hasRange = !!r.priceMax && Number(r.priceMax) > Number(r.price);
        return (
          <div className="flex flex-col items-end whitespace-nowrap tabular-nums">
            <span>{formatPrice(r.price, null, r.currency)}</span>
            {hasRange ? <span className="text-muted-foreground text-xs">~ {formatPrice(r.priceMax, null, null)}</span> : null}
          </div>
        );
      },
    },
    {
      id: "status",
      header: "状态",
      width: 130,
      cell: (r) => (
        <div className="flex flex-col items-start gap-1">
          <Badge variant={collectStatusTones[r.status] ?? "outline"} data-testid="collects-status">
            {collectStatusLabel(r.status)}
          </Badge>
          {r.infringementWord ? (
            <Badge variant="destructive" title={`标题含侵权词：${r.infringementWord}`} data-testid="collects-infringement">
              <ShieldAlert />
              <span className="max-w-20 truncate">侵权：{r.infringementWord}</span>
            </Badge>
          ) : null}
          {r.incompleteFields.length ? (
            <Badge variant="warning" title={incompleteWarning(r.incompleteFields)} data-testid="collects-incomplete">
              <TriangleAlert />
              部分字段未采集
            </Badge>
          ) : null}
        </div>
      ),
    },
    {
      id: "created",
      header: a.showOwner ? "采集人 / 时间" : "采集时间",
      width: 150,
      cell: (r) => (
        <div className="flex min-w-0 flex-col text-xs whitespace-nowrap tabular-nums">
          {a.showOwner ? <span className="text-foreground truncate text-sm">{r.owner ?? "-"}</span> : null}
          <span className="text-muted-foreground">{formatDateTime(r.creationTime)}</span>
        </div>
      ),
    },
    {
      id: "actions",
      header: "操作",
      width: 190,
      cell: (r) => (
        <div className="-ml-2 flex items-center gap-0.5 whitespace-nowrap">
          <Button variant="ghost" size="sm" className={actionClass} onClick={() => a.onEdit(r)} data-testid={`collects-row-edit-${r.id}`}>
            查看/编辑
          </Button>
          <Button variant="ghost" size="sm" className={actionClass} asChild>
            <a href={r.sourceUrl} target="_blank" rel="noopener noreferrer" title={r.sourceUrl} data-testid={`collects-row-source-${r.id}`}>
              源链接
              <ExternalLink className="size-3" />
            </a>
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className={dangerClass}
            onClick={() => a.onDelete(r)}
            data-testid={`collects-row-delete-${r.id}`}
          >
            删除
          </Button>
        </div>
      ),
    },
  ];
}
