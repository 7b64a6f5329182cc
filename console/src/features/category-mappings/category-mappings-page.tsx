// /proudcts/category-mappings (类目映射, issue 28; no route in spec §2): the Mercado Libre category the seller picked
// for each source category (1688/Taobao/AliExpress) and site, remembered when a product is saved or published with a
// category and offered first for the next product of that source category. Searched, filtered by site and platform,
// changed to another category, deleted.
import { useState } from "react";
import { z } from "zod";
import type { CategoryMapping } from "#shared/contract/category-mapping.ts";
import { MELI_SITES } from "#shared/contract/meli.ts";
import { Card, CardDescription } from "#shared/ui/card.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable, PAGE_SIZE_OPTIONS } from "#shared/ui/data-table.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { ALL, choiceParam, pageParam, pageSizeParam, textParam } from "../../components/list/url-params.ts";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { platformLabel, platformOptions } from "../../lib/labels.ts";
import { categoryMappingColumns } from "./category-mapping-columns.tsx";
import { useCategoryMappings, useDeleteCategoryMapping, type CategoryMappingQuery } from "./api/category-mappings.ts";
import { MappingDialog } from "./mapping-dialog.tsx";

const siteOptions = Object.entries(MELI_SITES).map(([n, s]) => ({ value: Number(n), label: s.name }));

/** ?q=&site=&platform=&page=&size= */
const mappingListSchema = z.object({
  q: textParam(200),
  site: choiceParam(siteOptions.map((o) => o.value)),
  platform: choiceParam(platformOptions.map((o) => o.value)),
  page: pageParam(),
  size: pageSizeParam(PAGE_SIZE_OPTIONS, 20),
});

const filters: ListFilters = [
  {
    kind: "search",
    key: "q",
    label: "搜索",
    placeholder: "来源类目、美客多类目名称或ID",
    maxLength: 200,
    className: "sm:w-72",
    testId: "category-mappings-search",
  },
  { kind: "facet", key: "site", label: "站点", all: "全部站点", options: siteOptions, className: "w-32", testId: "category-mappings-site" },
  {
    kind: "facet",
    key: "platform",
    label: "来源平台",
    all: "全部平台",
    options: platformOptions,
    className: "w-32",
    testId: "category-mappings-platform",
  },
];

export default function CategoryMappingsPage({ route }: PageProps) {
  // A cached tab: its filters are its own, not the URL of the tab shown.
  const listState = useListUrlState(mappingListSchema, useTabSearchParams(route.path));
  const { state, filtered } = listState;
  const [editing, setEditing] = useState<CategoryMapping | null>(null);
  const remove = useDeleteCategoryMapping();
  const query: CategoryMappingQuery = {
    ...(state.q.trim() ? { Filter: state.q.trim() } : {}),
    ...(state.site !== ALL ? { Site: Number(state.site) } : {}),
    ...(state.platform !== ALL ? { PlatformType: Number(state.platform) } : {}),
    SkipCount: (state.page - 1) * state.size,
    MaxResultCount: state.size,
  };
  const mappings = useCategoryMappings(query);
  const { data, isPending, isFetching, refetch } = mappings;
  useKeepPageInRange(listState.state, settledTotal(mappings), listState.setPage);

  async function onDelete(m: CategoryMapping) {
    const ok = await confirm({
      title: "删除类目映射",
      description: `删除后，${platformLabel(m.platformType)} 类目 ${m.sourcePath ?? m.sourceKey} 的商品不再优先推荐「${m.fullZh ?? m.categoryName}」，下次选择类目时重新记录。`,
      tone: "danger",
      confirmText: "删除",
    });
    if (ok) remove.mutate(m.id, { onSuccess: () => toast.success("类目映射已删除") });
  }

  const columns = categoryMappingColumns({ onEdit: setEditing, onDelete: (m) => void onDelete(m) });

  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="category-mappings-page">
      <CardDescription>
        为采集商品选择美客多类目时，系统按来源平台的类目记住您的选择；同一来源类目的下一个商品会优先推荐这个类目（商品编辑、刊登页和插件侧边栏）。
      </CardDescription>
      <ListToolbar filters={filters} state={state} onChange={listState.update}>
        <div className="ml-auto flex gap-2">
          <RefreshButton fetching={isFetching} onRefresh={refetch} data-testid="category-mappings-refresh" />
        </div>
      </ListToolbar>
      <DataTable
        aria-label="类目映射"
        columns={columns}
        rows={data?.items ?? []}
        rowKey={(m) => m.id}
        loading={isPending || isFetching}
        emptyText={
          filtered ? "没有符合条件的类目映射" : "还没有类目映射：为采集的商品选择类目并保存后，这里会记录来源类目与美客多类目的对应关系"
        }
        view={{ density: "compact" }}
        pagination={{ page: state.page, pageSize: state.size, total: data?.totalCount ?? 0, onChange: listState.onPageChange }}
      />
      <MappingDialog key={editing?.id ?? ""} mapping={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
