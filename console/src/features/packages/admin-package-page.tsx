// /admin/package (ours, issue 19; host only): the sub-account packages the platform offers (count, days, price in
// yuan), created and edited here (CreateOrUpdateSubAccOrderInfo; 下架 withdraws one from offer, purchases keep what
// they bought), and every tenant's purchases (GetHostSubAccountOrders: search, status, paging in the URL).
import { PackagePlus, Plus } from "lucide-react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { MAX_PACKAGE_COUNT, MAX_PACKAGE_DAYS, type SubAccPackage } from "#shared/contract/subaccount-orders.ts";
import { formatYuan, MAX_MONEY_YUAN, yuanToFen } from "#shared/contract/wallet.ts";
import type { PageProps } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Switch } from "#shared/ui/switch.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { useHostPurchases, useSavePackage } from "./api/host-packages.ts";
import { usePackages } from "./api/packages.ts";
import { FreeCountEditor } from "./free-count-editor.tsx";
import { hostPurchaseColumns, packageColumns } from "./package-columns.tsx";
import { hostPurchaseSchema, PURCHASE_PAGE_SIZES, toHostPurchasesQuery } from "./admin-package-search-params.ts";

const intText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${label}须为整数`)
    .refine((v) => Number(v) >= 1 && Number(v) <= max, `${label}须在 1 到 ${max} 之间`);

const packageForm = z.object({
  name: z.string().trim().min(1, "请填写套餐名称").max(64, "套餐名称最多 64 个字"),
  count: intText("子账号数量", MAX_PACKAGE_COUNT),
  days: intText("有效天数", MAX_PACKAGE_DAYS),
  price: z
    .string()
    .trim()
    .refine(
      (v) => {
        const n = Number(v);
        return /^\d+(\.\d{1,2})?$/.test(v) && n > 0 && n <= MAX_MONEY_YUAN && yuanToFen(n) !== null;
      },
      `请输入大于 0、不超过 ${formatYuan(MAX_MONEY_YUAN)}、最多两位小数的金额`,
    ),
  sort: z
    .string()
    .trim()
    .regex(/^\d{0,5}$/, "排序须为 0 到 10000 的整数")
    .refine((v) => !v || Number(v) <= 10000, "排序须为 0 到 10000 的整数"),
  isActive: z.boolean(),
});
type PackageForm = z.input<typeof packageForm>;
const formOf = (p: SubAccPackage | null): PackageForm =>
  p
    ? { name: p.name, count: String(p.count), days: String(p.days), price: p.price.toFixed(2), sort: String(p.sort), isActive: p.isActive }
    : { name: "", count: "", days: "30", price: "", sort: "0", isActive: true };

/** The package being edited: null for a new one; undefined when the dialog is closed. */
function PackageDialog({ editing, onClose }: { editing: SubAccPackage | null | undefined; onClose: () => void }) {
  const save = useSavePackage();
  const form = useZodForm(packageForm, { defaultValues: formOf(null) });
  const open = editing !== undefined;
  useEffect(() => {
    if (open) form.reset(formOf(editing ?? null));
  }, [open, editing, form]);

  function onSubmit(v: z.output<typeof packageForm>) {
    save.mutate(
      {
        ...(editing ? { id: editing.id } : {}),
        name: v.name,
        count: Number(v.count),
        days: Number(v.days),
        price: Number(v.price),
        sort: v.sort ? Number(v.sort) : 0,
        isActive: v.isActive,
      },
      {
        onSuccess: (p) => {
          toast.success(editing ? `已保存「${p.name}」` : `已新增套餐「${p.name}」`);
          onClose();
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="admin-package-dialog">
        <DialogHeader>
          <DialogTitle>{editing ? "编辑套餐" : "新增套餐"}</DialogTitle>
          <DialogDescription>租户用余额购买后，在有效天数内可多启用相应数量的子账号；修改不影响已购买的套餐。</DialogDescription>
        </DialogHeader>
        <Form form={form} onSubmit={onSubmit}>
          <FormField
            form={form}
            name="name"
            label="套餐名称"
            required
            render={(f) => <Input {...f} maxLength={64} data-testid="admin-package-name" />}
          />
          <div className="grid grid-cols-2 gap-4">
            <FormField
              form={form}
              name="count"
              label="子账号数量"
              required
              render={(f) => <Input {...f} inputMode="numeric" data-testid="admin-package-count" />}
            />
            <FormField
              form={form}
              name="days"
              label="有效天数"
              required
              render={(f) => <Input {...f} inputMode="numeric" data-testid="admin-package-days" />}
            />
          </div>
          <div className="grid grid-cols-2 gap-4">
            <FormField
              form={form}
              name="price"
              label="价格（元）"
              required
              render={(f) => <Input {...f} inputMode="decimal" placeholder="例如 99.00" data-testid="admin-package-price" />}
            />
            <FormField
              form={form}
              name="sort"
              label="排序（小的在前）"
              render={(f) => <Input {...f} inputMode="numeric" data-testid="admin-package-sort" />}
            />
          </div>
          <FormField
            form={form}
            name="isActive"
            label="上架"
            render={(f) => (
              <Switch id={f.id} checked={f.value} onCheckedChange={f.onChange} aria-label="上架" data-testid="admin-package-active" />
            )}
          />
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              取消
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="admin-package-save">
              保存
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}

export default function AdminPackagePage({ route }: PageProps) {
  const packages = usePackages();
  const [editing, setEditing] = useState<SubAccPackage | null | undefined>(undefined);
  const listState = useListUrlState(hostPurchaseSchema, useTabSearchParams(route.path));
  const { state, filtered } = listState;
  const purchases = useHostPurchases(toHostPurchasesQuery(state));
  useKeepPageInRange(state, settledTotal(purchases), listState.setPage);

  const filters: ListFilters = [
    { kind: "search", key: "q", label: "搜索公司名或套餐名", maxLength: 64, className: "w-56", testId: "admin-purchase-search" },
    {
      kind: "facet",
      key: "active",
      label: "状态",
      all: "全部状态",
      options: [
        { value: "true", label: "生效中" },
        { value: "false", label: "已过期" },
      ],
      className: "w-32",
      testId: "admin-purchase-filter-active",
    },
  ];

  return (
    <div className="flex flex-col gap-4" data-testid="admin-package-page">
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
          <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
            <CardTitle className="flex items-center gap-2">
              <PackagePlus className="size-5" />
              {route.meta.title}
            </CardTitle>
            <CardDescription>租户在订购中心看到的子账号套餐；下架的套餐不再出售，已购买的不受影响。</CardDescription>
          </div>
          <div className="flex items-center gap-2">
            <RefreshButton fetching={packages.isFetching} onRefresh={() => void packages.refetch()} data-testid="admin-package-refresh" />
            <Button onClick={() => setEditing(null)} data-testid="admin-package-create">
              <Plus />
              新增套餐
            </Button>
          </div>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 pt-4">
          <FreeCountEditor />
          <DataTable
            aria-label="子账号套餐"
            columns={packageColumns(setEditing)}
            rows={packages.data ?? []}
            rowKey={(p) => p.id}
            loading={packages.isFetching && !packages.data}
            emptyText="还没有套餐：点击 新增套餐 创建"
            className="[&_table]:min-w-[800px]"
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
          <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
            <CardTitle>购买记录</CardTitle>
            <CardDescription>所有租户的套餐购买，按购买时间从新到旧。</CardDescription>
          </div>
          <RefreshButton fetching={purchases.isFetching} onRefresh={() => void purchases.refetch()} data-testid="admin-purchase-refresh" />
        </CardHeader>
        <CardContent className="flex flex-col gap-3 pt-4">
          <ListToolbar filters={filters} {...listState.toolbar} resetTestId="admin-purchase-reset" testId="admin-purchase-filters" />
          <DataTable
            aria-label="购买记录"
            columns={hostPurchaseColumns}
            {...listTable(purchases, listState, PURCHASE_PAGE_SIZES)}
            rowKey={(o) => o.id}
            emptyText={filtered ? "没有符合条件的购买记录" : "还没有租户购买套餐"}
            className="[&_table]:min-w-[900px]"
          />
        </CardContent>
      </Card>
      <PackageDialog editing={editing} onClose={() => setEditing(undefined)} />
    </div>
  );
}
