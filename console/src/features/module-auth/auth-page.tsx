// /module-auth/auth (spec §2 已授权, issue 19; main account only): the grants the company holds from other companies
// (查看商品 opens the grantor's products, and copies them when the grant allows), and the applications made to the
// company (通过 / 驳回 a pending one, 撤销 a grant in force). 生成授权码 makes a one-time code to give an applicant.
// Tab, search, status filter and paging in the URL.
import { Copy, KeyRound } from "lucide-react";
import { useState } from "react";
import { ModuleAuthContent, ModuleAuthStatus } from "#shared/contract/enums.ts";
import { AUTH_CODE_TTL_HOURS, type AuthCodeResult, type ModuleAuth } from "#shared/contract/module-auth.ts";
import type { PageProps } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Input } from "#shared/ui/input.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { SearchInput } from "#shared/ui/search-input.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { ListTabs } from "../../components/list/list-tabs.tsx";
import { listTable } from "../../components/list/list-table.ts";
import { ListToolbar, type ListFilters } from "../../components/list/list-toolbar.tsx";
import { settledTotal, useKeepPageInRange } from "../../components/list/use-keep-page-in-range.ts";
import { useListUrlState } from "../../components/list/use-list-url-state.ts";
import { useLocalPaging } from "../../components/list/use-local-paging.ts";
import { useTabSearchParams } from "../../components/list/use-tab-search-params.ts";
import { formatDateTime } from "../../lib/format.ts";
import {
  useApplys,
  useAuditAuth,
  useAuthProducts,
  useAuths,
  useCopyAuthProducts,
  useGenerateAuthCode,
  useRevokeAuth,
} from "./api/module-auth.ts";
import { AUTH_PAGE_SIZES, authListSchema, toHeldQuery, toReceivedQuery, type AuthTab } from "./search-params.ts";
import { givenColumns, grantProductColumns, heldColumns } from "./module-auth-columns.tsx";
import { contentText, statusOptions } from "./status.tsx";

const TABS: Record<AuthTab, string> = { held: "我获得的授权", given: "收到的申请" };

/** The code just generated: shown once (the server keeps only its hash). */
function CodeDialog({ code, onClose }: { code: AuthCodeResult | null; onClose: () => void }) {
  return (
    <Dialog open={!!code} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="auth-code-dialog">
        <DialogHeader>
          <DialogTitle>授权码</DialogTitle>
          <DialogDescription>
            把授权码交给要申请授权的公司，对方在「申请授权」中填写后提交，再由本公司审核。授权码只能使用一次，
            {AUTH_CODE_TTL_HOURS} 小时内有效，关闭后不再显示。
          </DialogDescription>
        </DialogHeader>
        <div className="bg-muted rounded-md py-4 text-center font-mono text-2xl tracking-widest select-all" data-testid="auth-code">
          {code?.code}
        </div>
        <p className="text-muted-foreground text-sm">有效期至 {code ? formatDateTime(code.expireTime) : "-"}</p>
        <DialogFooter>
          <Button
            variant="outline"
            onClick={() =>
              void navigator.clipboard?.writeText(code?.code ?? "").then(
                () => toast.success("已复制授权码"),
                () => toast.error("复制失败，请手动选择授权码复制"),
              )
            }
          >
            <Copy />
            复制
          </Button>
          <Button onClick={onClose}>完成</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function RejectDialog({ target, onClose }: { target: ModuleAuth | null; onClose: () => void }) {
  const [reason, setReason] = useState("");
  const audit = useAuditAuth();
  const text = reason.trim();
  return (
    <Dialog
      open={!!target}
      onOpenChange={(open) => {
        if (!open) {
          setReason("");
          onClose();
        }
      }}
    >
      <DialogContent className="sm:max-w-md" data-testid="auth-reject-dialog">
        <DialogHeader>
          <DialogTitle>驳回 {target?.tenantName} 的申请</DialogTitle>
          <DialogDescription>驳回原因会显示给申请公司，对方可修改后重新申请。</DialogDescription>
        </DialogHeader>
        <Input
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={200}
          placeholder="驳回原因（必填）"
          data-testid="auth-reject-reason"
        />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            取消
          </Button>
          <Button
            variant="destructive"
            disabled={!text}
            loading={audit.isPending}
            onClick={() =>
              audit.mutate(
                { id: target!.id, auditStatus: ModuleAuthStatus.Rejected, reason: text },
                {
                  onSuccess: () => {
                    toast.success("已驳回");
                    setReason("");
                    onClose();
                  },
                },
              )
            }
            data-testid="auth-reject-confirm"
          >
            驳回
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

const PRODUCT_PAGE_SIZE = 20;

/** The grantor's products through a grant: search by title, page, and copy the chosen ones when the grant allows. The
 *  search and the page are the dialog's own (useLocalPaging): they belong to the grant it was opened for. */
function GrantProductsDialog({ grant, onClose }: { grant: ModuleAuth | null; onClose: () => void }) {
  const [title, setTitle] = useState("");
  const paging = useLocalPaging(PRODUCT_PAGE_SIZE);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const products = useAuthProducts(
    grant
      ? {
          authId: grant.id,
          ...(title ? { title } : {}),
          skipCount: (paging.page - 1) * paging.size,
          maxResultCount: paging.size,
        }
      : null,
  );
  useKeepPageInRange(paging, settledTotal(products), paging.setPage);
  const copy = useCopyAuthProducts();
  const canCopy = !!grant?.authContent.includes(ModuleAuthContent.ProductsCopy);
  const close = () => {
    setTitle("");
    paging.reset();
    setSelected(new Set());
    onClose();
  };
  return (
    <Dialog open={!!grant} onOpenChange={(open) => !open && close()}>
      <DialogContent className="sm:max-w-5xl" data-testid="auth-products-dialog">
        <DialogHeader>
          <DialogTitle>{grant?.authTenantName} 的商品</DialogTitle>
          <DialogDescription>
            授权内容：{grant ? contentText(grant.authContent) : "-"}；到期时间 {grant ? formatDateTime(grant.expireTime) : "-"}。
            {canCopy ? "勾选商品后可复制到本公司的商品列表。" : "本授权只能查看，不能复制。"}
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap items-center gap-2">
          <SearchInput
            value={title}
            onSearch={(v) => {
              setTitle(v.trim());
              paging.setPage(1);
            }}
            placeholder="搜索标题"
            className="w-64"
            data-testid="auth-products-search"
          />
          <div className="flex-1" />
          {canCopy ? (
            <Button
              disabled={!selected.size}
              loading={copy.isPending}
              onClick={() =>
                copy.mutate(
                  { authId: grant!.id, productIds: [...selected] },
                  {
                    onSuccess: (r) => {
                      toast.success(`已复制 ${r.count} 个商品到我的商品列表`);
                      setSelected(new Set());
                    },
                  },
                )
              }
              data-testid="auth-products-copy"
            >
              复制到我的商品{selected.size ? `（${selected.size}）` : ""}
            </Button>
          ) : null}
        </div>
        <DataTable
          aria-label="授权公司的商品"
          columns={grantProductColumns}
          {...listTable(products, { state: paging, onPageChange: paging.onPageChange })}
          rowKey={(p) => p.id}
          emptyText={title ? "没有符合条件的商品" : "该公司暂无商品"}
          selection={canCopy ? { selected, onChange: setSelected } : undefined}
          height={460}
        />
      </DialogContent>
    </Dialog>
  );
}

export default function ModuleAuthPage({ route }: PageProps) {
  const listState = useListUrlState(authListSchema, useTabSearchParams(route.path));
  const { state, filtered } = listState;
  const held = useAuths(toHeldQuery(state));
  const received = useApplys(toReceivedQuery(state));
  const active = state.tab === "held" ? held : received;
  useKeepPageInRange(state, settledTotal(active), listState.setPage);
  const generate = useGenerateAuthCode();
  const audit = useAuditAuth();
  const revoke = useRevokeAuth();
  const [code, setCode] = useState<AuthCodeResult | null>(null);
  const [rejecting, setRejecting] = useState<ModuleAuth | null>(null);
  const [viewing, setViewing] = useState<ModuleAuth | null>(null);

  async function approve(a: ModuleAuth) {
    const ok = await confirm({
      title: `同意 ${a.tenantName} 的授权申请吗？`,
      description: `对方在 ${formatDateTime(a.expireTime)} 之前可以${contentText(a.authContent)}（本公司的商品），到期前可随时撤销。`,
      confirmText: "通过",
    });
    if (ok) audit.mutate({ id: a.id, auditStatus: ModuleAuthStatus.Approved }, { onSuccess: () => toast.success("已通过，授权生效") });
  }
  async function revokeGrant(a: ModuleAuth) {
    const ok = await confirm({
      title: `撤销对 ${a.tenantName} 的授权吗？`,
      description: "撤销后对方立即不能再查看或复制本公司的商品；如需恢复，请重新生成授权码让对方申请。",
      tone: "warning",
      confirmText: "撤销授权",
    });
    if (ok) revoke.mutate({ id: a.id }, { onSuccess: () => toast.success("授权已撤销") });
  }

  const filters: ListFilters =
    state.tab === "given"
      ? [
          { kind: "search", key: "q", label: "搜索申请公司", maxLength: 64, className: "w-56", testId: "auth-search" },
          {
            kind: "facet",
            key: "status",
            label: "状态",
            all: "全部状态",
            options: statusOptions,
            className: "w-32",
            testId: "auth-filter-status",
          },
        ]
      : [];

  return (
    <Card data-testid="module-auth-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>
            公司之间的模块授权：获得授权后可查看（及按授权复制）对方的商品，到期或被撤销后失效。要授权给其他公司，请生成授权码交给对方申请，再在「收到的申请」中审核。
          </CardDescription>
        </div>
        <div className="flex gap-2">
          <RefreshButton fetching={active.isFetching} onRefresh={() => void active.refetch()} data-testid="auth-refresh" />
          <Button loading={generate.isPending} onClick={() => generate.mutate({}, { onSuccess: setCode })} data-testid="auth-generate-code">
            <KeyRound />
            生成授权码
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 pt-4">
        <ListTabs
          tabs={TABS}
          value={state.tab}
          onChange={(t) => {
            listState.update({ tab: t, q: "", status: "all" });
            // Another company may have applied or approved since the list was read: a tab shows fresh rows.
            void (t === "held" ? held : received).refetch();
          }}
          label="列表"
          testId="auth-tab"
        />
        {filters.length ? <ListToolbar filters={filters} {...listState.toolbar} resetTestId="auth-reset" testId="auth-filters" /> : null}
        {state.tab === "held" ? (
          <DataTable
            aria-label="我获得的授权"
            columns={heldColumns(setViewing)}
            {...listTable(held, listState, AUTH_PAGE_SIZES)}
            rowKey={(a) => a.id}
            emptyText="暂无生效中的授权：在「申请授权」中填写对方的授权码提交申请"
            className="[&_table]:min-w-[760px]"
          />
        ) : (
          <DataTable
            aria-label="收到的申请"
            columns={givenColumns({ approve, reject: setRejecting, revoke: revokeGrant, busy: audit.isPending || revoke.isPending })}
            {...listTable(received, listState, AUTH_PAGE_SIZES)}
            rowKey={(a) => a.id}
            emptyText={filtered ? "没有符合条件的申请" : "还没有公司申请授权"}
            className="[&_table]:min-w-[980px]"
          />
        )}
      </CardContent>
      <CodeDialog code={code} onClose={() => setCode(null)} />
      <RejectDialog target={rejecting} onClose={() => setRejecting(null)} />
      <GrantProductsDialog grant={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
