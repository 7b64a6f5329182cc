// One order opened from the list: its lines (with the listing's page and the SKU and variation), the buyer's address,
// the shipment (logistics, the deadline in the seller's time, the promised delivery), the profit worked out line by
// line (售价 − 佣金 − 运费 − 商品成本, with the rates used and what is missing), the invoice Mercado Libre holds, and
// the label download and the re-read from Mercado Libre.
import { ExternalLink, FileDown, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import type { OrderRow } from "#shared/contract/orders.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "#shared/ui/sheet.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { Thumb } from "../../components/list/thumb.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { invoiceProblemText, useOrderInvoice } from "./api/orders.ts";
import { deadlineTone } from "./order-columns.tsx";
import { OrderSourcesSection } from "./order-sources-section.tsx";
import { deadlineOf, moneyText, orderStatusLabel, orderStatusTones, shipmentStatusLabel, siteName } from "./order-names.ts";

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="flex flex-col gap-2" data-testid={testId}>
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 gap-2 text-xs">
      <span className="text-muted-foreground w-20 shrink-0">{label}</span>
      <span className="min-w-0 break-words">{children || "-"}</span>
    </div>
  );
}

/** The file extension of a data: URL's type (application/pdf → pdf, text/xml → xml). */
const fileExtensionOf = (dataUrl: string) => /^data:[^/;,]+\/([a-z0-9.+-]+)/i.exec(dataUrl)?.[1]?.replace(/\+.*$/, "") ?? "bin";

/** The drawer's invoice section; its query is silent, so a missing invoice is said here and nowhere else. */
export function OrderInvoice({ orderId }: { orderId: string }) {
  const invoice = useOrderInvoice(orderId);
  if (invoice.isLoading) return <Spinner />;
  if (invoice.error)
    return (
      <p className="text-muted-foreground text-xs" data-testid="order-invoice-missing">
        {invoiceProblemText(invoice.error)}
      </p>
    );
  const i = invoice.data;
  if (!i) return null;
  return (
    <div className="flex flex-col gap-1" data-testid="order-invoice">
      <Field label="发票号">{i.invoiceNumber}</Field>
      <Field label="状态">{i.status}</Field>
      <Field label="开具时间">{formatDateTime(i.issuedAt)}</Field>
      <Field label="金额">{moneyText(i.total, i.currency)}</Field>
      {i.documentUrl ? (
        // The file may come inline (a data: URL), which Chrome will not open in a new tab: it is downloaded instead.
        i.documentUrl.startsWith("data:") ? (
          <a
            href={i.documentUrl}
            download={`发票-${i.invoiceNumber || orderId}.${fileExtensionOf(i.documentUrl)}`}
            className="text-primary inline-flex items-center gap-1 text-xs hover:underline"
          >
            下载发票文件 <FileDown className="size-3" />
          </a>
        ) : (
          <a
            href={i.documentUrl}
            target="_blank"
            rel="noreferrer"
            className="text-primary inline-flex items-center gap-1 text-xs hover:underline"
          >
            查看发票文件 <ExternalLink className="size-3" />
          </a>
        )
      ) : null}
    </div>
  );
}

export function OrderDetailDrawer(p: {
  order: OrderRow | null;
  now: number;
  busy: boolean;
  onClose: () => void;
  onLabel: (o: OrderRow) => void;
  onRefresh: (o: OrderRow) => void;
}) {
  const o = p.order;
  const d = o ? deadlineOf(o.mustSendTime, o.orderStatus, p.now) : null;
  const pd = o?.profitDetail;
  const a = o?.recieveAddress;
  return (
    <Sheet open={!!o} onOpenChange={(open) => !open && p.onClose()}>
      <SheetContent className="w-full sm:max-w-2xl" data-testid="order-drawer">
        <SheetHeader>
          <SheetTitle className="flex items-center gap-2">
            订单 <span className="font-mono">{o?.orderNo}</span>
            {o ? (
              <Badge variant={orderStatusTones[o.orderStatus] ?? "outline"} data-testid="order-drawer-status">
                {orderStatusLabel(o.orderStatus)}
              </Badge>
            ) : null}
          </SheetTitle>
          <SheetDescription>
            {o
              ? `${o.shopName ?? ""} · ${siteName(o.site)} · 下单于 ${formatDateTime(o.orderTime)}${o.packId ? ` · 合并订单 ${o.packId}` : ""}`
              : ""}
          </SheetDescription>
        </SheetHeader>
        {o && pd ? (
          <div className="flex flex-col gap-5 overflow-auto px-4 pb-6">
            <div className="flex flex-wrap gap-2">
              <Button
                size="sm"
                disabled={!o.labelReady || p.busy}
                onClick={() => p.onLabel(o)}
                title={o.labelReady ? "" : "订单可发货（待打单）后才能下载面单"}
                data-testid="order-drawer-label"
              >
                <FileDown />
                下载面单
              </Button>
              <Button size="sm" variant="outline" disabled={p.busy} onClick={() => p.onRefresh(o)} data-testid="order-drawer-refresh">
                <RefreshCw />
                从美客多同步
              </Button>
            </div>

            <Section title={`商品（${o.items.length}）`} testId="order-items">
              <div className="divide-y rounded-md border">
                {o.items.map((i) => (
                  <div key={`${i.meliId}-${i.variationId ?? ""}`} className="flex items-center gap-3 p-2" data-testid="order-item">
                    <Thumb src={i.thumb} alt={i.title} size={44} />
                    <div className="flex min-w-0 flex-1 flex-col gap-0.5 text-xs">
                      {i.link ? (
                        <a href={i.link} target="_blank" rel="noreferrer" className="hover:text-primary line-clamp-2 font-medium">
                          {i.title}
                        </a>
                      ) : (
                        <span className="line-clamp-2 font-medium">{i.title}</span>
                      )}
                      <span className="text-muted-foreground truncate">
                        {i.meliId}
                        {i.sku ? ` · SKU ${i.sku}` : ""}
                        {i.vkes.length ? ` · ${i.vkes.join("，")}` : ""}
                        {i.productId ? "" : " · 未关联商品"}
                      </span>
                    </div>
                    <div className="flex shrink-0 flex-col items-end text-xs tabular-nums">
                      <span>
                        {moneyText(i.price, o.currency)} × {i.num}
                      </span>
                      <span className="text-muted-foreground">佣金 {moneyText(i.saleFee)}</span>
                    </div>
                  </div>
                ))}
              </div>
            </Section>

            <Section title="货源" testId="order-source">
              <OrderSourcesSection orderId={o.id} />
            </Section>

            <Section title="利润明细" testId="order-profit-detail">
              <div className="bg-muted/40 flex flex-col gap-1 rounded-md p-3 text-xs tabular-nums">
                {[
                  ["售价", pd.salePrice, ""],
                  ["美客多佣金", pd.saleFee, "−"],
                  ["运费", pd.freight, "−"],
                  ["商品成本", pd.productCost, "−"],
                ].map(([label, value, sign]) => (
                  <div key={label as string} className="flex justify-between" data-testid={`order-profit-${label}`}>
                    <span className="text-muted-foreground">
                      {sign ? `${sign} ` : ""}
                      {label}
                    </span>
                    <span>{moneyText(value as number, pd.currency)}</span>
                  </div>
                ))}
                <div className="mt-1 flex justify-between border-t pt-1 font-semibold">
                  <span>= 利润</span>
                  <span className={cn(pd.profit < 0 ? "text-destructive" : "text-success")} data-testid="order-profit-total">
                    {moneyText(pd.profit, pd.currency)}
                    {pd.profitCny === null ? "" : `（约 ¥${moneyText(pd.profitCny)}）`}
                  </span>
                </div>
                {pd.rates.length ? (
                  <span className="text-muted-foreground mt-1">
                    汇率：{pd.rates.map((r) => `1 ${r.code} = ${Number(r.rate)} CNY`).join("；")}
                  </span>
                ) : null}
                {pd.complete ? null : (
                  <span className="text-warning mt-1" data-testid="order-profit-missing">
                    成本不完整（按 0 计）：{pd.missing.join("；")}
                  </span>
                )}
              </div>
            </Section>

            <Section title="物流" testId="order-shipping">
              <Field label="发货截止">
                <span className="tabular-nums">{formatDateTime(o.mustSendTime)}</span>
                {d ? <span className={cn("ml-2", deadlineTone[d.state])}>{d.text}</span> : null}
              </Field>
              <Field label="物流状态">{[shipmentStatusLabel(o.shipmentStatus), o.shipmentSubstatus].filter(Boolean).join(" / ")}</Field>
              <Field label="物流方式">{o.logisticsName}</Field>
              <Field label="运单号">{o.logisticsNumber}</Field>
              <Field label="预计送达">{o.estima_DeliveryTime ? formatDateTime(o.estima_DeliveryTime) : null}</Field>
              <Field label="发货时间">{o.deliveryTime ? formatDateTime(o.deliveryTime) : null}</Field>
              <Field label="签收时间">{o.signingTime ? formatDateTime(o.signingTime) : null}</Field>
            </Section>

            <Section title="收货地址" testId="order-address">
              {a ? (
                <>
                  <Field label="收件人">{a.name}</Field>
                  <Field label="电话">{[a.phone, a.moblle].filter(Boolean).join(" / ")}</Field>
                  <Field label="地址">{a.address || [a.street, a.region, a.city, a.state, a.country].filter(Boolean).join("，")}</Field>
                  <Field label="邮编">{a.postalCode}</Field>
                  {a.company ? <Field label="公司">{a.company}</Field> : null}
                  {a.email ? <Field label="邮箱">{a.email}</Field> : null}
                </>
              ) : (
                <p className="text-muted-foreground text-xs">美客多尚未提供收货地址（订单付款后提供）</p>
              )}
              <Field label="买家">{o.buyerNickname}</Field>
            </Section>

            <Section title="发票">
              <OrderInvoice orderId={o.id} />
            </Section>
          </div>
        ) : null}
      </SheetContent>
    </Sheet>
  );
}
