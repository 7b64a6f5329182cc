// /admin/sandbox (host only; only while the server runs the built-in Mercado Libre sandbox): the sandbox's clock and
// order pace, and what the host makes happen there: an order for a listing (paid, ready to ship: its label prints),
// the clock moved on, a notification sent to this system, the next calls refused with 429. The newest orders below.
import { Clock, Gauge, Send, ShieldAlert, ShoppingCart } from "lucide-react";
import { useState, type ReactNode } from "react";
import { sandboxTopics } from "#shared/contract/meli-sandbox.ts";
import type { PageProps } from "#shared/routes/table.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { Card } from "#shared/ui/card.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { useSandbox } from "./api/get-sandbox.ts";
import { sandboxOrderColumns } from "./sandbox-columns.tsx";
import {
  useCreateSandboxOrder,
  useMoveSandboxClock,
  useRefuseSandboxCalls,
  useSendSandboxNotification,
  useSetSandboxOrderRate,
} from "./api/sandbox-actions.ts";

const topicLabels: Record<(typeof sandboxTopics)[number], string> = {
  orders_v2: "订单（orders_v2）",
  items: "商品（items）",
  shipments: "物流（shipments）",
};

/** A whole number typed in a box ("" while empty). */
const wholeNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);

function Panel({ icon, title, hint, children }: { icon: ReactNode; title: string; hint: string; children: ReactNode }) {
  return (
    <Card className="flex flex-col gap-3 p-4">
      <div className="flex items-center gap-2">
        {icon}
        <h3 className="text-sm font-semibold">{title}</h3>
      </div>
      <p className="text-muted-foreground text-xs">{hint}</p>
      {children}
    </Card>
  );
}

export default function SandboxPage(_props: PageProps) {
  const sandbox = useSandbox();
  const state = sandbox.data;
  const items = (state?.sellers ?? []).flatMap((s) => s.items.map((i) => ({ ...i, seller: s.nickname })));

  const [itemId, setItemId] = useState("");
  const [quantity, setQuantity] = useState("1");
  const [minutes, setMinutes] = useState("60");
  const [topic, setTopic] = useState<(typeof sandboxTopics)[number]>("orders_v2");
  const [resourceId, setResourceId] = useState("");
  const [refusals, setRefusals] = useState("3");
  const [interval, setInterval] = useState("");

  const createOrder = useCreateSandboxOrder({
    mutationConfig: { onSuccess: (o) => toast.success(`已创建订单 ${o.id}（已付款，待发货）`) },
  });
  const moveClock = useMoveSandboxClock({ mutationConfig: { onSuccess: (r) => toast.success(`沙箱时间已到 ${formatDateTime(r.now)}`) } });
  const notify = useSendSandboxNotification({ mutationConfig: { onSuccess: (r) => toast.success(`已发送通知 ${r.resource}`) } });
  const refuse = useRefuseSandboxCalls({
    mutationConfig: { onSuccess: (r) => toast.success(`接下来的 ${r.refusalsPending} 次调用将返回 429`) },
  });
  const setRate = useSetSandboxOrderRate({
    mutationConfig: { onSuccess: (r) => toast.success(`已设置：每 ${r.orderIntervalMinutes} 分钟一个时段`) },
  });

  if (state && !state.enabled) {
    return <Card className="p-6 text-sm">服务器已连接美客多（MELI_API_URL），没有内置沙箱。</Card>;
  }

  return (
    <div className="flex flex-col gap-4" data-testid="sandbox-page">
      <Card className="flex flex-wrap items-center gap-x-6 gap-y-2 p-4">
        <h2 className="text-base font-semibold">美客多沙箱</h2>
        <span className="text-sm" data-testid="sandbox-now">
          沙箱时间：{state?.now ? formatDateTime(state.now) : "—"}
        </span>
        <span className="text-sm" data-testid="sandbox-rate">
          自动订单：每 {state?.orderIntervalMinutes ?? "—"} 分钟 0–2 单（每个已授权卖家）
        </span>
        {state?.notificationsConnected ? <Badge variant="success">通知已接入</Badge> : <Badge variant="secondary">通知未接入</Badge>}
        {state && state.refusalsPending > 0 && (
          <Badge variant="destructive" data-testid="sandbox-refusals">
            待拒绝 {state.refusalsPending} 次
          </Badge>
        )}
        <div className="ml-auto">
          <RefreshButton fetching={sandbox.isFetching} onRefresh={() => void sandbox.refetch()} data-testid="sandbox-refresh" />
        </div>
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Panel
          icon={<ShoppingCart className="size-4" />}
          title="创建订单"
          hint="为在售商品创建一个买家订单：记为 2 小时前下单付款（美客多付款后备货约 2 小时才可打单），物流已到待发货，可立即打印面单。"
        >
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex min-w-64 flex-1 flex-col gap-1">
              <Label htmlFor="sandbox-item">在售商品</Label>
              <Select value={itemId} onValueChange={setItemId}>
                <SelectTrigger id="sandbox-item" data-testid="sandbox-item">
                  <SelectValue placeholder={items.length ? "选择商品" : "暂无在售商品（先刊登商品）"} />
                </SelectTrigger>
                <SelectContent>
                  {items.map((i) => (
                    <SelectItem key={i.id} value={i.id} data-testid={`sandbox-item-${i.id}`}>
                      {i.seller} · {i.title}（{i.id}，库存 {i.available}）
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="flex w-20 flex-col gap-1">
              <Label htmlFor="sandbox-quantity">数量</Label>
              <Input id="sandbox-quantity" inputMode="numeric" value={quantity} onChange={(e) => setQuantity(e.target.value)} />
            </div>
            <Button
              disabled={!itemId}
              loading={createOrder.isPending}
              onClick={() => createOrder.mutate({ itemId, quantity: wholeNumber(quantity) })}
              data-testid="sandbox-create-order"
            >
              创建订单
            </Button>
          </div>
        </Panel>

        <Panel icon={<Clock className="size-4" />} title="推进时间" hint="沙箱时钟前进：订单按时出现，物流状态推进，令牌按时过期。">
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex w-32 flex-col gap-1">
              <Label htmlFor="sandbox-minutes">分钟</Label>
              <Input id="sandbox-minutes" inputMode="numeric" value={minutes} onChange={(e) => setMinutes(e.target.value)} />
            </div>
            <Button
              loading={moveClock.isPending}
              onClick={() => moveClock.mutate({ minutes: wholeNumber(minutes) })}
              data-testid="sandbox-move-clock"
            >
              前进
            </Button>
            <Button variant="outline" disabled={moveClock.isPending} onClick={() => moveClock.mutate({ minutes: 24 * 60 })}>
              前进 1 天
            </Button>
          </div>
        </Panel>

        <Panel icon={<Send className="size-4" />} title="发送通知" hint="像美客多一样向本系统发送一条通知，系统随即读取该订单或商品。">
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex w-44 flex-col gap-1">
              <Label htmlFor="sandbox-topic">主题</Label>
              <Select value={topic} onValueChange={(v) => setTopic(v as typeof topic)}>
                <SelectTrigger id="sandbox-topic" data-testid="sandbox-topic">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {sandboxTopics.map((t) => (
                    <SelectItem key={t} value={t}>
                      {topicLabels[t]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="flex min-w-48 flex-1 flex-col gap-1">
              <Label htmlFor="sandbox-resource">{topic === "items" ? "商品 ID" : "订单号"}</Label>
              <Input
                id="sandbox-resource"
                value={resourceId}
                onChange={(e) => setResourceId(e.target.value)}
                data-testid="sandbox-resource"
              />
            </div>
            <Button loading={notify.isPending} onClick={() => notify.mutate({ topic, resourceId })} data-testid="sandbox-notify">
              发送
            </Button>
          </div>
        </Panel>

        <Panel
          icon={<ShieldAlert className="size-4" />}
          title="限流（429）"
          hint="沙箱拒绝接下来的若干次调用（429 Too Many Requests），检验系统的退避与重试。"
        >
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex w-32 flex-col gap-1">
              <Label htmlFor="sandbox-refusals">次数</Label>
              <Input id="sandbox-refusals" inputMode="numeric" value={refusals} onChange={(e) => setRefusals(e.target.value)} />
            </div>
            <Button
              variant="destructive"
              loading={refuse.isPending}
              onClick={() => refuse.mutate({ count: wholeNumber(refusals) })}
              data-testid="sandbox-refuse"
            >
              拒绝接下来的调用
            </Button>
          </div>
        </Panel>

        <Panel
          icon={<Gauge className="size-4" />}
          title="自动订单频率"
          hint="已授权卖家的在售商品会自动产生订单：每个时段 0–2 单（平均约 0.85 单）。"
        >
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex w-40 flex-col gap-1">
              <Label htmlFor="sandbox-interval">时段长度（分钟）</Label>
              <Input
                id="sandbox-interval"
                inputMode="numeric"
                placeholder={String(state?.orderIntervalMinutes ?? "")}
                value={interval}
                onChange={(e) => setInterval(e.target.value)}
              />
            </div>
            <Button
              variant="outline"
              loading={setRate.isPending}
              onClick={() => setRate.mutate({ intervalMinutes: wholeNumber(interval || String(state?.orderIntervalMinutes ?? "")) })}
              data-testid="sandbox-set-rate"
            >
              保存
            </Button>
          </div>
        </Panel>
      </div>

      <Card className="flex flex-col gap-3 p-4">
        <h3 className="text-sm font-semibold">最新订单</h3>
        <DataTable
          aria-label="沙箱最新订单"
          columns={sandboxOrderColumns}
          rows={state?.orders ?? []}
          rowKey={(o) => String(o.id)}
          loading={sandbox.isPending}
          emptyText="沙箱中还没有订单"
        />
      </Card>
    </div>
  );
}
