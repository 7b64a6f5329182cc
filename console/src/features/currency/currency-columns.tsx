// Columns of the currency-rate table; the host gets an actions column (edit, delete; the base currency cannot be
// deleted).
import { Pencil, Trash2 } from "lucide-react";
import type { Currency } from "#shared/contract/settings.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { isBaseCurrency, rateText } from "./schemas.ts";

export type CurrencyRowActions = { onEdit: (c: Currency) => void; onDelete: (c: Currency) => void };

export function currencyColumns(actions: CurrencyRowActions | null): DataTableColumn<Currency>[] {
  const columns: DataTableColumn<Currency>[] = [
    {
      id: "code",
      header: "币种代码",
      width: 140,
      cell: (c) => (
        <span className="flex items-center gap-2">
          <span className="font-mono font-medium" data-testid="currency-code-cell">
            {c.code}
          </span>
          {isBaseCurrency(c) ? <Badge variant="secondary">基准</Badge> : null}
        </span>
      ),
    },
    { id: "zh", header: "名称", width: 160, cell: (c) => c.zh },
    {
      id: "rate",
      header: "汇率",
      cell: (c) => (
        <span className="tabular-nums" data-testid="currency-rate-text">
          {rateText(c)}
        </span>
      ),
    },
    {
      id: "creationTime",
      header: "创建时间",
      width: 180,
      cell: (c) => <span className="text-muted-foreground tabular-nums">{formatDateTime(c.creationTime)}</span>,
    },
  ];
  if (!actions) return columns;
  columns.push({
    id: "actions",
    header: "操作",
    width: 170,
    cell: (c) => (
      <div className="-ml-2 flex items-center">
        <Button variant="ghost" size="sm" className="text-primary" onClick={() => actions.onEdit(c)} data-testid="currency-edit">
          <Pencil />
          编辑
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="text-destructive hover:text-destructive"
          disabled={isBaseCurrency(c)}
          title={isBaseCurrency(c) ? "基准币种不能删除" : undefined}
          onClick={() => actions.onDelete(c)}
          data-testid="currency-delete"
        >
          <Trash2 />
          删除
        </Button>
      </div>
    ),
  });
  return columns;
}
