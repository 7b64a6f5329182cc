// /user/currency: the currency rates (CNY for one unit of each currency) used to convert prices. Everyone reads them;
// the host adds, edits and deletes (deleting asks first). The list is short, so the search filters on this page.
import { Info, Plus, RotateCw, Search } from "lucide-react";
import { useState } from "react";
import type { Currency } from "#shared/contract/settings.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable, DataTableToolbar } from "#shared/ui/data-table.tsx";
import { Input } from "#shared/ui/input.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { useUserStore } from "../../stores/user.ts";
import { useCurrencies } from "./api/get-currencies.ts";
import { useDeleteCurrency } from "./api/edit-currencies.ts";
import { currencyColumns } from "./currency-columns.tsx";
import { CurrencyDialog, type CurrencyDialogState } from "./currency-dialog.tsx";
import { filterCurrencies } from "./schemas.ts";

export default function CurrencyPage({ route }: PageProps) {
  const isHost = useUserStore((s) => s.isHost);
  const currencies = useCurrencies();
  const remove = useDeleteCurrency();
  const [search, setSearch] = useState("");
  const [dialog, setDialog] = useState<CurrencyDialogState>(null);

  async function onDelete(c: Currency) {
    const ok = await confirm({
      title: `确认删除币种 ${c.code}（${c.zh}）吗？`,
      description: "删除后将无法再按该币种换算价格，此操作不可恢复。",
      tone: "danger",
      confirmText: "删除",
    });
    if (!ok) return;
    remove.mutate(c.id, { onSuccess: () => toast.success(`币种 ${c.code} 已删除`) });
  }

  const columns = currencyColumns(
    isHost ? { onEdit: (c) => setDialog({ mode: "edit", currency: c }), onDelete: (c) => void onDelete(c) } : null,
  );
  const rows = filterCurrencies(currencies.data ?? [], search);

  return (
    <Card data-testid="currency-page" data-readonly={!isHost || undefined}>
      <CardHeader className="border-b pb-4">
        <CardTitle>{route.meta.title}</CardTitle>
        <CardDescription>汇率表示 1 单位外币可兑换的人民币（CNY）金额，用于产品价格换算。</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 pt-4">
        {!isHost ? (
          <div
            className="bg-accent text-accent-foreground flex items-center gap-2 rounded-md px-3 py-2 text-sm"
            data-testid="currency-readonly-note"
          >
            <Info aria-hidden="true" className="size-4 shrink-0" />
            汇率由平台统一维护，如需调整请联系平台管理员。
          </div>
        ) : null}
        <DataTableToolbar>
          <div className="relative w-full sm:w-64">
            <Search
              aria-hidden="true"
              className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
            />
            <Input
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="搜索币种代码或名称"
              aria-label="搜索币种"
              className="pl-8"
              data-testid="currency-search"
            />
          </div>
          <Button variant="outline" onClick={() => void currencies.refetch()} disabled={currencies.isFetching}>
            <RotateCw className={currencies.isFetching ? "animate-spin" : undefined} />
            刷新
          </Button>
          {isHost ? (
            <Button className="ml-auto" onClick={() => setDialog({ mode: "create" })} data-testid="currency-create">
              <Plus />
              新增币种
            </Button>
          ) : null}
        </DataTableToolbar>
        <DataTable
          aria-label="汇率列表"
          columns={columns}
          rows={rows}
          rowKey={(c) => c.id}
          loading={currencies.isFetching}
          emptyText={search.trim() ? "没有匹配的币种" : "暂无汇率"}
        />
        {currencies.data ? <p className="text-muted-foreground text-xs">共 {currencies.data.length} 个币种</p> : null}
      </CardContent>
      {isHost ? <CurrencyDialog state={dialog} onClose={() => setDialog(null)} /> : null}
    </Card>
  );
}
