// /proudcts/gtin (GTIN管理; spec §7 MeliCode, no route in spec §2: see the route table): the tenant's GTIN pool. The
// count (GetCodeCnt: 剩余可用, 已使用, 合计), adding codes (SetCodes, pasted or from a file, checked before sending) and
// 清空码池 (ClearCode, main account, after a confirmation): the unused codes go, the used ones stay as the record of
// which listing got them. The publish pre-flight's "GTIN码池已空" links here.
import { Trash2 } from "lucide-react";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { useUserStore } from "../../stores/user.ts";
import { useClearGtinCodes, useGtinCount } from "./api/gtin-codes.ts";
import { GtinCodesInput } from "./gtin-codes-input.tsx";

const n = (x: number | undefined) => (x === undefined ? "—" : x.toLocaleString("zh-CN"));

function Count({ label, value, testId, tone }: { label: string; value: number | undefined; testId: string; tone?: string }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-md border px-4 py-2">
      <span className="text-muted-foreground text-xs">{label}</span>
      <span className={`text-xl font-semibold tabular-nums ${tone ?? ""}`} data-testid={testId}>
        {n(value)}
      </span>
    </div>
  );
}

export default function GtinPage({ route }: PageProps) {
  const isMainAccount = useUserStore((s) => s.isMainAccount);
  const count = useGtinCount();
  const clear = useClearGtinCodes();
  const unused = count.data?.unused;

  async function onClear() {
    const ok = await confirm({
      title: `确认清空码池中 ${n(unused)} 个未使用的编码吗？`,
      description: "清空后无法恢复；已使用的编码会保留，作为刊登记录，不会再次分配。",
      tone: "danger",
      confirmText: "清空",
    });
    if (!ok) return;
    clear.mutate(undefined, { onSuccess: ({ deleted }) => toast.success(`已清空 ${n(deleted)} 个未使用的编码`) });
  }

  return (
    <Card data-testid="products-gtin-page">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
          <CardTitle>{route.meta.title}</CardTitle>
          <CardDescription>
            刊登到要求 GTIN 的类目时，每个没有自带 GTIN 的规格从码池中取一个编码，已使用的编码不会再次分配。码池由公司的所有账号共用。
          </CardDescription>
        </div>
        <RefreshButton fetching={count.isFetching} onRefresh={count.refetch} data-testid="gtin-refresh" />
      </CardHeader>
      <CardContent className="flex flex-col gap-4 pt-4">
        <div className="flex flex-wrap items-end gap-3" data-testid="gtin-count">
          <Count label="剩余可用" value={unused} testId="gtin-unused" tone={unused === 0 ? "text-destructive" : "text-primary"} />
          <Count label="已使用" value={count.data?.used} testId="gtin-used" />
          <Count label="合计" value={count.data?.total} testId="gtin-total" />
          {unused === 0 ? (
            <span className="text-destructive text-xs" data-testid="gtin-empty">
              码池已空：要求 GTIN 的类目无法刊登没有 GTIN 的商品，请添加编码
            </span>
          ) : null}
          {isMainAccount ? (
            <Button
              variant="outline"
              className="text-destructive hover:text-destructive ml-auto"
              disabled={!unused}
              loading={clear.isPending}
              onClick={() => void onClear()}
              data-testid="gtin-clear"
            >
              <Trash2 />
              清空码池
            </Button>
          ) : (
            <span className="text-muted-foreground ml-auto text-xs">清空码池仅限主账号</span>
          )}
        </div>
        <GtinCodesInput />
      </CardContent>
    </Card>
  );
}
