// The order drawer's 货源 section (issue 32): each line's collected source (shop, offer, the variant its SKU matches,
// the price when collected and the last known one), its 去采购 link on that variant, whether it was bought (cost and
// purchase order), and the order's margin at the sources' last known prices (bought lines at their cost).
import { ExternalLink } from "lucide-react";
import type { OrderSources } from "#shared/contract/order-sources.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { cn } from "#shared/ui/cn.ts";
import { Spinner } from "#shared/ui/spinner.tsx";
import { useOrderSources } from "./api/order-sources.ts";
import { moneyText } from "./order-names.ts";

const matchText = { sku: "按SKU匹配", values: "按规格匹配", only: "唯一规格" } as const;

/** 去采购: opens the offer on the variant in a new tab. */
export function PurchaseLink({ url, testId }: { url: string | null | undefined; testId?: string }) {
  if (!url) return null;
  return (
    <a
      href={url}
      target="_blank"
      rel="noreferrer"
      className="text-primary inline-flex items-center gap-1 text-xs whitespace-nowrap hover:underline"
      data-testid={testId}
    >
      去采购 <ExternalLink className="size-3" />
    </a>
  );
}

function Line({ l }: { l: OrderSources["lines"][number] }) {
  const s = l.source;
  return (
    <div className="flex flex-col gap-1 p-2 text-xs" data-testid="order-source-line">
      <div className="flex items-center gap-2">
        <span className="line-clamp-1 min-w-0 flex-1 font-medium">{l.title}</span>
        <span className="tabular-nums">× {l.quantity}</span>
        {l.purchase ? (
          <Badge variant="success" data-testid="order-source-bought">
            已采购
          </Badge>
        ) : null}
      </div>
      {s ? (
        <>
          <div className="text-muted-foreground flex flex-wrap items-center gap-x-2">
            <span>{s.shopName ?? "来源店铺未知"}</span>
            {s.variant ? (
              <span data-testid="order-source-variant">
                SKU {s.variant.sku}
                {s.variant.values.length ? ` · ${s.variant.values.join(" / ")}` : ""}（{matchText[s.variant.match]}）
              </span>
            ) : (
              <span className="text-warning">未匹配到来源规格</span>
            )}
            <PurchaseLink url={s.purchaseUrl} testId="order-source-purchase" />
          </div>
          <div className="text-muted-foreground tabular-nums">
            采集时价格 {s.collectedPrice === null ? "-" : moneyText(s.collectedPrice, s.currency ?? "CNY")} · 最新价格{" "}
            {s.lastKnownPrice === null ? "-" : moneyText(s.lastKnownPrice, s.currency ?? "CNY")}
          </div>
        </>
      ) : (
        <span className="text-muted-foreground">未关联商品，没有货源</span>
      )}
      {l.purchase ? (
        <span className="text-muted-foreground tabular-nums">
          采购成本 {moneyText(l.purchase.cost, l.purchase.currency)}
          {l.purchase.purchaseOrderNo ? ` · 采购单号 ${l.purchase.purchaseOrderNo}` : ""}
        </span>
      ) : null}
    </div>
  );
}

export function OrderSourcesSection({ orderId }: { orderId: string }) {
  const q = useOrderSources(orderId);
  if (q.isLoading) return <Spinner />;
  const r = q.data;
  if (!r) return null;
  const m = r.margin;
  return (
    <div className="flex flex-col gap-2" data-testid="order-sources">
      <div className="divide-y rounded-md border">
        {r.lines.map((l) => (
          <Line key={l.line} l={l} />
        ))}
      </div>
      <div
        className="bg-muted/40 flex flex-wrap justify-between gap-2 rounded-md p-2 text-xs tabular-nums"
        data-testid="order-source-margin"
      >
        <span className="text-muted-foreground">按货源最新价格（已采购按采购成本）：成本 {moneyText(m.cost, m.currency)}</span>
        <span className={cn("font-semibold", m.profit < 0 ? "text-destructive" : "text-success")}>
          利润 {moneyText(m.profit, m.currency)}
          {m.margin === null ? "" : `（${m.margin}%）`}
        </span>
        {m.complete ? null : <span className="text-warning w-full">{m.missing.join("；")}</span>}
      </div>
    </div>
  );
}
