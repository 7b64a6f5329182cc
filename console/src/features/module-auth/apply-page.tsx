// /module-auth/apply (spec §2 申请授权, issue 19; main account only): apply with another company's authorization code
// for some of its modules until a date, and the company's applications with their status; a rejected or expired one
// can be submitted again (重新申请) without a new code. Search, status filter and paging in the URL.
import { Send } from "lucide-react";
import { useEffect, useState } from "react";
import { ModuleAuthContent } from "#shared/contract/enums.ts";
import { authContentNames, MAX_AUTH_DAYS, normalizeAuthCode, type ModuleAuth } from "#shared/contract/module-auth.ts";
import type { PageProps } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { Checkbox } from "#shared/ui/checkbox.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { DateInput, toDayText } from "#shared/ui/date-input.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { useApplys, useApplyAuth, useReApplyAuth } from "./api/module-auth.ts";
import { applyListSchema, AUTH_PAGE_SIZES, toMadeQuery } from "./search-params.ts";
import { applicationColumns } from "./module-auth-columns.tsx";
import { statusOptions } from "./status.tsx";

const DAY_MS = 86_400_000;
const dayAfter = (days: number) => toDayText(new Date(Date.now() + days * DAY_MS));
/** The chosen day's end, local time, as the expiry sent. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();

/** The content checkboxes: copying needs viewing, so ticking copy ticks view and unticking view unticks copy. */
function ContentChoice({
  value,
  onChange,
  idPrefix,
}: {
  value: ModuleAuthContent[];
  onChange: (v: ModuleAuthContent[]) => void;
  idPrefix: string;
}) {
  const toggle = (c: ModuleAuthContent, on: boolean) => {
    let next = on ? [...new Set([...value, c])] : value.filter((x) => x !== c);
    if (on && c === ModuleAuthContent.ProductsCopy) next = [...new Set([ModuleAuthContent.Products, ...next])];
    if (!on && c === ModuleAuthContent.Products) next = next.filter((x) => x !== ModuleAuthContent.ProductsCopy);
    onChange(Object.values(ModuleAuthContent).filter((x) => next.includes(x)));
  };
  return (
    <div className="flex flex-wrap gap-4">
      {Object.values(ModuleAuthContent).map((c) => (
        <div key={c} className="flex items-center gap-2">
          <Checkbox
            id={`${idPrefix}-${c}`}
            checked={value.includes(c)}
            onCheckedChange={(on) => toggle(c, on === true)}
            data-testid={`${idPrefix}-${c}`}
          />
          <Label htmlFor={`${idPrefix}-${c}`}>{authContentNames[c]}</Label>
        </div>
      ))}
    </div>
  );
}

function ApplyForm() {
  const [code, setCode] = useState("");
  const [content, setContent] = useState<ModuleAuthContent[]>([ModuleAuthContent.Products]);
  const [day, setDay] = useState(dayAfter(30));
  const [remark, setRemark] = useState("");
  const apply = useApplyAuth();
  const codeOk = normalizeAuthCode(code) !== null;
  const problem = !code.trim()
    ? "请填写授权码"
    : !codeOk
      ? "授权码为 16 位字母和数字"
      : !content.length
        ? "请选择授权内容"
        : !day
          ? "请选择到期日期"
          : null;
  return (
    <form
      className="grid gap-4 sm:grid-cols-[8rem_1fr] sm:items-center"
      onSubmit={(e) => {
        e.preventDefault();
        if (problem) return;
        apply.mutate(
          { code: code.trim(), authContent: content, expireTime: endOfDay(day), ...(remark.trim() ? { remark: remark.trim() } : {}) },
          {
            onSuccess: (a) => {
              toast.success(`已向 ${a.authTenantName} 提交申请，等待对方审核`);
              setCode("");
              setRemark("");
            },
          },
        );
      }}
      data-testid="auth-apply-form"
    >
      <Label htmlFor="auth-apply-code">授权码</Label>
      <Input
        id="auth-apply-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        maxLength={64}
        placeholder="XXXX-XXXX-XXXX-XXXX（由授权公司生成）"
        className="max-w-sm font-mono"
        autoComplete="off"
        data-testid="auth-apply-code"
      />
      <Label>授权内容</Label>
      <ContentChoice value={content} onChange={setContent} idPrefix="auth-apply-content" />
      <Label>到期日期</Label>
      <DateInput
        value={day}
        onChange={setDay}
        min={toDayText(new Date())}
        max={dayAfter(MAX_AUTH_DAYS - 1)}
        className="max-w-sm"
        data-testid="auth-apply-date"
      />
      <Label htmlFor="auth-apply-remark">备注</Label>
      <Input
        id="auth-apply-remark"
        value={remark}
        onChange={(e) => setRemark(e.target.value)}
        maxLength={200}
        placeholder="选填，对方审核时可见"
        className="max-w-xl"
        data-testid="auth-apply-remark"
      />
      <div />
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={!!problem} loading={apply.isPending} data-testid="auth-apply-submit">
          <Send />
          提交申请
        </Button>
        {problem && code.trim() ? <span className="text-muted-foreground text-sm">{problem}</span> : null}
      </div>
    </form>
  );
}

function ReApplyDialog({ target, onClose }: { target: ModuleAuth | null; onClose: () => void }) {
  const [content, setContent] = useState<ModuleAuthContent[]>([]);
  const [day, setDay] = useState(dayAfter(30));
  const reApply = useReApplyAuth();
  useEffect(() => {
    if (target) {
      setContent(Object.values(ModuleAuthContent).filter((c) => target.authContent.includes(c)));
      setDay(dayAfter(30));
    }
  }, [target]);
  return (
    <Dialog open={!!target} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="auth-reapply-dialog">
        <DialogHeader>
          <DialogTitle>重新申请：{target?.authTenantName}</DialogTitle>
          <DialogDescription>无需新的授权码，提交后由对方重新审核。{target?.reason ? `上次原因：${target.reason}` : ""}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-3">
          <ContentChoice value={content} onChange={setContent} idPrefix="auth-reapply-content" />
          <DateInput
            value={day}
            onChange={setDay}
            min={toDayText(new Date())}
            max={dayAfter(MAX_AUTH_DAYS - 1)}
            data-testid="auth-reapply-date"
          />
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            取消
          </Button>
          <Button
            disabled={!content.length || !day}
            loading={reApply.isPending}
            onClick={() =>
              reApply.mutate(
                { id: target!.id, authContent: content, expireTime: endOfDay(day) },
                {
                  onSuccess: () => {
                    toast.success("已重新提交申请");
                    onClose();
                  },
                },
              )
            }
            data-testid="auth-reapply-submit"
          >
            提交
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export default function ModuleAuthApplyPage({ route }: PageProps) {
  const listState = useListUrlState(applyListSchema, useTabSearchParams(route.path));
  const { state, filtered } = listState;
  const made = useApplys(toMadeQuery(state));
  useKeepPageInRange(state, settledTotal(made), listState.setPage);
  const [reApplying, setReApplying] = useState<ModuleAuth | null>(null);
  const filters: ListFilters = [
    { kind: "search", key: "q", label: "搜索授权公司", maxLength: 64, className: "w-56", testId: "auth-apply-search" },
    {
      kind: "facet",
      key: "status",
      label: "状态",
      all: "全部状态",
      options: statusOptions,
      className: "w-32",
      testId: "auth-apply-filter-status",
    },
  ];
  return (
    <div className="flex flex-col gap-4" data-testid="module-auth-apply-page">
      <Card>
        <CardHeader className="border-b pb-4">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>
            填写其他公司生成的授权码，选择要申请的内容和到期日期；对方审核通过后，可在「已授权」中查看对方的商品。
          </CardDescription>
        </CardHeader>
        <CardContent className="pt-4">
          <ApplyForm />
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="flex-row items-center justify-between gap-3 border-b pb-4">
          <CardTitle>我的申请</CardTitle>
          <RefreshButton fetching={made.isFetching} onRefresh={() => void made.refetch()} data-testid="auth-apply-refresh" />
        </CardHeader>
        <CardContent className="flex flex-col gap-3 pt-4">
          <ListToolbar filters={filters} {...listState.toolbar} resetTestId="auth-apply-reset" testId="auth-apply-filters" />
          <DataTable
            aria-label="我的申请"
            columns={applicationColumns(setReApplying)}
            {...listTable(made, listState, AUTH_PAGE_SIZES)}
            rowKey={(a) => a.id}
            emptyText={filtered ? "没有符合条件的申请" : "还没有提交过申请"}
            className="[&_table]:min-w-[900px]"
          />
        </CardContent>
      </Card>
      <ReApplyDialog target={reApplying} onClose={() => setReApplying(null)} />
    </div>
  );
}
