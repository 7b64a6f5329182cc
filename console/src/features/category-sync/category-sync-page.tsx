// /admin/category_sync (host only; the spec has no route for it): the category sync of every site. Per site the tree
// version and what the last sync stored (categories, attributes, fees, Chinese names) with a 同步 button; 同步全部站点
// and 补充中文名 (AckCategory); the running task's progress, live; and a searchable table of one site's categories with
// the Chinese name beside the site's own name, where a category's reference name is edited and a category (with its
// subtree) is enabled or disabled for the picker; 全部启用/全部停用 change the whole site after a confirmation.
import { Ban, CircleCheck, Languages, RefreshCw } from "lucide-react";
import { useState } from "react";
import { z } from "zod";
import type { MeliCategory } from "#shared/contract/category.ts";
import { MELI_SITES } from "#shared/contract/meli.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card } from "#shared/ui/card.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable, PAGE_SIZE_OPTIONS } from "#shared/ui/data-table.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { choiceParam, pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState, useReplaceSearchParams } from "../../components/list/use-list-url-state.ts";
import { isTaskDone } from "../../lib/task-queries.ts";
import { useCategories, type CategoryListQuery } from "./api/get-categories.ts";
import { useLatestTask } from "./api/get-latest-task.ts";
import { useSyncStatus } from "./api/get-sync-status.ts";
import { useStartChineseNames, useStartSync } from "./api/start-sync.ts";
import { allStatusConfirm, useUpdateCategoryStatus } from "./api/update-status.ts";
import { categoryColumns } from "./category-columns.tsx";
import { ReferDialog } from "./refer-dialog.tsx";
import { siteColumns, siteLabel } from "./site-columns.tsx";
import { SyncTaskStatus } from "./sync-task-status.tsx";

const SITES = Object.keys(MELI_SITES);

/** ?site=&q=&page=&size= */
const categoryListSchema = z.object({
  site: choiceParam(SITES, SITES[0]),
  q: textParam(200),
  page: pageParam(),
  size: pageSizeParam(PAGE_SIZE_OPTIONS, 20),
});

const filters: ListFilters = [
  {
    kind: "facet",
    key: "site",
    label: "站点",
    options: SITES.map((s) => ({ value: s, label: siteLabel(Number(s)) })),
    className: "w-40",
    testId: "category-site",
  },
  {
    kind: "search",
    key: "q",
    label: "搜索类目",
    placeholder: "中文名、站点名称、参考名或类目ID",
    maxLength: 200,
    className: "sm:w-80",
    testId: "category-search",
  },
];

/** The toast of a started job: the server answers the job already running instead of a second one. */
const startedText = (started: boolean, what: string) => (started ? `已开始${what}` : "已有类目任务在进行，显示其进度");

export default function CategorySyncPage(_props: PageProps) {
  const status = useSyncStatus();
  const latest = useLatestTask();
  const running = !!latest.data && !isTaskDone(latest.data);
  const sync = useStartSync({ mutationConfig: { onSuccess: (r) => toast.success(startedText(r.started, "同步类目")) } });
  const chinese = useStartChineseNames({ mutationConfig: { onSuccess: (r) => toast.success(startedText(r.started, "补充中文名")) } });
  const busy = running || sync.isPending || chinese.isPending;

  const listState = useListUrlState(categoryListSchema, useReplaceSearchParams());
  const { state, filtered } = listState;
  const query: CategoryListQuery = {
    site: Number(state.site),
    ...(state.q.trim() ? { Filter: state.q.trim() } : {}),
    SkipCount: (state.page - 1) * state.size,
    MaxResultCount: state.size,
  };
  const categories = useCategories(query);
  useKeepPageInRange(listState.state, settledTotal(categories), listState.setPage);
  const [editing, setEditing] = useState<MeliCategory | null>(null);
  const statusChange = useUpdateCategoryStatus({
    mutationConfig: { onSuccess: (r, change) => toast.success(`已${change.enable ? "启用" : "停用"} ${r.count} 个类目`) },
  });
  const site = Number(state.site);
  const setAll = async (enable: boolean) => {
    if (await confirm(allStatusConfirm(siteLabel(site), enable))) statusChange.mutate({ site, enable, all: true });
  };

  return (
    <div className="flex flex-col gap-4" data-testid="category-sync-page">
      <Card className="flex flex-col gap-3 p-4">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-base font-semibold">类目同步</h2>
          <span className="text-muted-foreground text-sm">从美客多读取各站点的类目树、属性和费用；中文名由翻译服务补充</span>
          <div className="ml-auto flex gap-2">
            <RefreshButton fetching={status.isFetching} onRefresh={() => void status.refetch()} data-testid="category-sync-refresh" />
            <Button variant="outline" disabled={busy} onClick={() => chinese.mutate()} data-testid="category-ack">
              <Languages />
              补充中文名
            </Button>
            <Button disabled={busy} loading={sync.isPending} onClick={() => sync.mutate(undefined)} data-testid="category-sync-all">
              <RefreshCw />
              同步全部站点
            </Button>
          </div>
        </div>
        <SyncTaskStatus task={latest.data} />
        <DataTable
          aria-label="站点类目同步状态"
          columns={siteColumns((site) => sync.mutate(site), busy)}
          rows={status.data ?? []}
          rowKey={(s) => String(s.site)}
          loading={status.isPending}
        />
      </Card>

      <Card className="flex flex-col gap-3 p-4">
        <div className="flex flex-wrap items-start gap-2">
          <ListToolbar filters={filters} state={state} onChange={listState.update} />
          <div className="ml-auto flex gap-2">
            <Button variant="outline" disabled={statusChange.isPending} onClick={() => void setAll(true)} data-testid="category-enable-all">
              <CircleCheck />
              全部启用
            </Button>
            <Button
              variant="outline"
              disabled={statusChange.isPending}
              onClick={() => void setAll(false)}
              data-testid="category-disable-all"
            >
              <Ban />
              全部停用
            </Button>
          </div>
        </div>
        <DataTable
          aria-label="类目列表"
          columns={categoryColumns(setEditing, (c) => statusChange.mutate({ site: c.site, enable: !c.enable, cateId: c.cateId }))}
          rows={categories.data?.items ?? []}
          rowKey={(c) => c.id}
          loading={categories.isPending || categories.isFetching}
          emptyText={filtered ? "没有符合条件的类目" : "该站点尚未同步类目"}
          pagination={{ page: state.page, pageSize: state.size, total: categories.data?.totalCount ?? 0, onChange: listState.onPageChange }}
        />
      </Card>

      <ReferDialog category={editing} onOpenChange={(open) => !open && setEditing(null)} />
    </div>
  );
}
