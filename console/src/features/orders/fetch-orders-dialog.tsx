// FetchOrders: pull the orders bought in a day range from Mercado Libre now, of one shop or of every shop receiving
// orders (订单接收 on in the shop list). The pull runs as a task; its progress shows above the list.
import { useState } from "react";
import { FETCH_ORDERS_MAX_DAYS } from "#shared/contract/orders.ts";
import { Button } from "#shared/ui/button.tsx";
import { DateInput } from "#shared/ui/date-input.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { ALL } from "../../components/list/url-params.ts";
import { formatDate, localDayRange } from "../../lib/format.ts";
import { useFetchOrders } from "./api/orders.ts";

const DAY_MS = 86_400_000;

export function FetchOrdersDialog(p: {
  groups: { accountGroupId: string; name: string }[];
  onClose: () => void;
  onStarted: (taskId: string) => void;
}) {
  const today = new Date();
  const [group, setGroup] = useState(ALL);
  const [from, setFrom] = useState(formatDate(new Date(today.getTime() - 6 * DAY_MS)));
  const [to, setTo] = useState(formatDate(today));
  const fetchOrders = useFetchOrders();
  const range = localDayRange(from, to);
  const days = range.from && range.to ? (Date.parse(range.to) - Date.parse(range.from)) / DAY_MS : 0;
  const problem =
    !range.from || !range.to
      ? "请选择日期"
      : days <= 0
        ? "开始日期不能晚于结束日期"
        : days > FETCH_ORDERS_MAX_DAYS
          ? `最多拉取 ${FETCH_ORDERS_MAX_DAYS} 天`
          : null;
  return (
    <Dialog open onOpenChange={(o) => !o && !fetchOrders.isPending && p.onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="orders-fetch-dialog">
        <DialogHeader>
          <DialogTitle>从美客多拉取订单</DialogTitle>
          <DialogDescription>
            立即读取所选日期内下单的订单，已有的订单只会更新，不会重复。新订单平时也会通过美客多通知和定时同步自动到达。
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-3">
          <Select value={group} onValueChange={setGroup}>
            <SelectTrigger aria-label="店铺" data-testid="orders-fetch-shop">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>全部接收订单的店铺</SelectItem>
              {p.groups.map((g) => (
                <SelectItem key={g.accountGroupId} value={g.accountGroupId}>
                  {g.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <div className="flex items-center gap-2">
            <DateInput value={from} onChange={setFrom} aria-label="开始日期" data-testid="orders-fetch-from" />
            <span className="text-muted-foreground">至</span>
            <DateInput value={to} onChange={setTo} aria-label="结束日期" data-testid="orders-fetch-to" />
          </div>
          {problem ? <p className="text-destructive text-xs">{problem}</p> : null}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={p.onClose} disabled={fetchOrders.isPending}>
            取消
          </Button>
          <Button
            loading={fetchOrders.isPending}
            disabled={!!problem}
            onClick={() =>
              fetchOrders.mutate(
                {
                  StartTime: range.from,
                  EndTime: range.to ? new Date(Date.parse(range.to) + 1).toISOString() : undefined,
                  GroupId: group === ALL ? undefined : group,
                },
                {
                  onSuccess: (t) => {
                    toast.success("已开始拉取，进度见上方");
                    p.onStarted(t.taskId);
                    p.onClose();
                  },
                },
              )
            }
            data-testid="orders-fetch-submit"
          >
            开始拉取
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
