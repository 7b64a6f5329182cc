// /proudcts/sensitives (spec §2, cached): the infringement words. Two lists: the tenant's own (我的侵权词) and the
// host's default list that applies to every tenant (默认侵权词); the host sees only the default list and keeps it.
// Searched and paged on the server (list, search and page in the URL); words added one per line (添加侵权词) or from a file (导入), the chosen ones
// deleted. A tenant's own list is edited by its main account only; sub-accounts (and tenants on the default list)
// read only.
import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Tabs, TabsList, TabsTrigger } from "#shared/ui/tabs.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListSelection } from "../../components/list/use-list-selection.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { useUserStore } from "../../stores/user.ts";
import { useDeleteInfringementWords } from "./api/edit-infringement-words.ts";
import { useInfringementWords, type WordList } from "./api/get-infringement-words.ts";
import { SensitivesAddDialog } from "./sensitives-add-dialog.tsx";
import { sensitivesColumns } from "./sensitives-columns.tsx";
import { SensitivesImportButton } from "./sensitives-import-button.tsx";
import { sensitivesListSchema, toWordQuery } from "./sensitives-search-params.ts";

const listNames: Record<WordList, string> = { mine: "我的侵权词", default: "默认侵权词" };

const filters: ListFilters = [
  { kind: "search", key: "q", label: "搜索侵权词", maxLength: 100, className: "sm:w-64", testId: "sensitives-search" },
];

export default function SensitivesPage({ route }: PageProps) {
  const isHost = useUserStore((s) => s.isHost);
  const isMainAccount = useUserStore((s) => s.isMainAccount);

  const listState = useListUrlState(sensitivesListSchema, useTabSearchParams(route.path));
  const { state } = listState;
  // The host keeps only the default list.
  const tab: WordList = isHost ? "default" : state.tab;
  const editable = tab === "default" ? isHost : isMainAccount && !isHost;

  const list = useInfringementWords(tab, toWordQuery(state));
  const table = listTable(list, listState);
  const { rows } = table;

  // A new list or search starts at the first page (the list state) with nothing chosen.
  const selection = useListSelection(listState.filterKey);
  const { selected, setSelected } = selection;

  // A page past the end (after a delete) moves to the last page.
  useKeepPageInRange(state, settledTotal(list), listState.setPage);

  const [adding, setAdding] = useState(false);
  const remove = useDeleteInfringementWords();

  async function onDeleteSelected() {
    const ids = [...selected];
    if (!ids.length) return;
    const ok = await confirm({
      title: `确认删除选中的 ${ids.length.toLocaleString("zh-CN")} 个侵权词吗？`,
      description: "删除后无法恢复；已筛查过的商品需要重新筛查才会更新。",
      tone: "danger",
      confirmText: "删除",
    });
    if (!ok) return;
    remove.mutate(ids, {
      onSuccess: ({ count }) => {
        toast.success(`已删除 ${count.toLocaleString("zh-CN")} 个侵权词`);
        setSelected(new Set());
      },
    });
  }

  const description = isHost
    ? "默认侵权词对所有公司生效，商品筛查时与各公司自己的侵权词一起使用。"
    : tab === "default"
      ? "平台维护的默认侵权词，对所有公司生效，只能查看。"
      : editable
        ? "公司自己的侵权词，商品筛查时与默认侵权词一起使用。"
        : "公司自己的侵权词，由主账号维护；子账号只能查看。";

  return (
    <Card data-testid="products-sensitives-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        <RefreshButton fetching={list.isFetching} onRefresh={list.refetch} data-testid="sensitives-refresh" />
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <Tabs value={tab} onValueChange={(v) => listState.update({ tab: v as WordList })}>
          <TabsList>
            {isHost ? null : (
              <TabsTrigger value="mine" data-testid="sensitives-tab-mine">
                {listNames.mine}
              </TabsTrigger>
            )}
            <TabsTrigger value="default" data-testid="sensitives-tab-default">
              {listNames.default}
            </TabsTrigger>
          </TabsList>
        </Tabs>

        <ListToolbar filters={filters} state={state} onChange={listState.update}>
          {editable ? (
            <div className="ml-auto flex flex-wrap items-center gap-2">
              <Button
                variant="outline"
                className="text-destructive hover:text-destructive"
                disabled={!selected.size || remove.isPending}
                onClick={() => void onDeleteSelected()}
                data-testid="sensitives-delete-selected"
              >
                <Trash2 />
                删除所选{selected.size ? `（${selected.size}）` : ""}
              </Button>
              <SensitivesImportButton />
              <Button onClick={() => setAdding(true)} data-testid="sensitives-add">
                <Plus />
                添加侵权词
              </Button>
            </div>
          ) : (
            <span className="text-muted-foreground ml-auto text-xs" data-testid="sensitives-readonly">
              只读
            </span>
          )}
        </ListToolbar>

        <DataTable
          aria-label={`${listNames[tab]}列表`}
          columns={sensitivesColumns}
          {...table}
          rowKey={(w) => w.id}
          emptyText={state.q.trim() ? "没有符合条件的侵权词" : editable ? "还没有侵权词，点击“添加侵权词”或“导入”添加" : "暂无侵权词"}
          selection={editable ? selection.table(rows.map((w) => w.id)) : undefined}
        />
      </CardContent>
      {editable ? <SensitivesAddDialog open={adding} onOpenChange={setAdding} listName={listNames[tab]} /> : null}
    </Card>
  );
}
