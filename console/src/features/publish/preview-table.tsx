// The pre-flight result per product × site: 可刊登 / 不会发送, each problem in Chinese with where to fix it (the product
// list for the product, the attribute's field in the form above, the GTIN pool, …), the title that will be sent, and
// the profit preview from the price breakdown (price, cost, fees, net proceeds, margin and its %).
import { useMemo } from "react";
import { Link } from "react-router-dom";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { DataTable, type DataTableColumn } from "#shared/ui/data-table.tsx";
import { cn } from "#shared/ui/cn.ts";
import { isMarginProblem } from "#shared/publish/margin.ts";
import { Thumb } from "../../components/list/thumb.tsx";
import { fixHints, fixTarget, siteName, type PreviewRow } from "./publish-names.ts";
import type { AttrsTarget } from "./product-attrs-dialog.tsx";
import { attrFieldId, categoryFieldId } from "./site-category-form.tsx";

/** The GTIN pool screen (GTIN管理), where codes are added. */
const GTIN_PAGE = "/proudcts/gtin";

/** The product list, searched by the product's title (the editor opens from its row). */
const productListHref = (title: string) => `/proudcts/list?q=${encodeURIComponent(title.slice(0, 60))}`;

/** Where the preview's fix links lead: the form above, or the product itself when it is published in its own category. */
export type FixContext = {
  /** The category chosen above per form site (none: each product is published in its own category). */
  formCategories?: Partial<Record<number, string>>;
  /** 填写属性 on a product published in its own category: its attributes are fixed on the product. */
  onFixAttributes?: (target: AttrsTarget) => void;
};

/** The attributes the row's pre-flight asks for (errors and warnings naming one). */
const attrsAsked = (row: PreviewRow) =>
  row.problems.flatMap((p) => {
    const t = fixTarget(p.fix);
    return t?.kind === "attribute" ? [t.id] : [];
  });

function FixLink({ fix, site, row, ctx }: { fix: string | null | undefined; site: number; row: PreviewRow; ctx: FixContext }) {
  const t = fixTarget(fix);
  if (!t) return null;
  const hint = fixHints[t.kind];
  const productTitle = row.productTitle;
  if (t.kind === "attribute" && !ctx.formCategories?.[site] && ctx.onFixAttributes) {
    const open = ctx.onFixAttributes;
    return (
      <Button
        variant="link"
        size="sm"
        className="h-auto shrink-0 p-0 text-xs"
        onClick={() => open({ productId: row.productId, productTitle, missing: attrsAsked(row) })}
        data-testid="publish-fix-product-attribute"
      >
        {hint}
      </Button>
    );
  }
  if (t.kind === "product")
    return (
      <Link to={productListHref(productTitle)} className="text-primary shrink-0 hover:underline" data-testid="publish-fix-product">
        {hint}
      </Link>
    );
  if (t.kind === "gtin")
    return (
      <Link to={GTIN_PAGE} className="text-primary shrink-0 hover:underline" data-testid="publish-fix-gtin">
        {hint}
      </Link>
    );
  // What is repaired in the form above (an attribute, the site's category): the hint scrolls to the field.
  const fieldId = t.kind === "attribute" ? attrFieldId(site, t.id) : t.kind === "category" ? categoryFieldId(site) : null;
  if (fieldId)
    return (
      <Button
        variant="link"
        size="sm"
        className="h-auto shrink-0 p-0 text-xs"
        onClick={() => {
          const el = document.getElementById(fieldId);
          el?.scrollIntoView({ block: "center", behavior: "smooth" });
          el?.focus();
        }}
        data-testid={`publish-fix-${t.kind}`}
      >
        {hint}
      </Button>
    );
  return <span className="text-muted-foreground shrink-0">{hint}</span>;
}

function Problems({ row, formSite, ctx }: { row: PreviewRow; formSite: number | null; ctx: FixContext }) {
  if (row.problems.length === 0) return <span className="text-muted-foreground text-xs">无问题</span>;
  return (
    <ul className="flex flex-col gap-0.5 text-xs" data-testid="publish-preview-problems">
      {[...row.errors, ...row.warnings].map((p, i) => (
        <li key={i} className="flex gap-2" data-code={p.code} data-severity={p.severity}>
          <span className={cn(p.severity === "error" || isMarginProblem(p.code) ? "text-destructive" : "text-warning")}>
            {p.severity === "error" ? "✕" : "!"}
          </span>
          {/* A loss or a margin under the shop's minimum is a warning (it may be sent), in red. */}
          <span className={cn("min-w-0 flex-1", isMarginProblem(p.code) && "text-destructive font-medium")}>{p.message}</span>
          <FixLink fix={p.fix} site={formSite ?? row.site} row={row} ctx={ctx} />
        </li>
      ))}
    </ul>
  );
}

function Money({ row }: { row: PreviewRow }) {
  const m = row.money;
  if (!m) return <span className="text-muted-foreground text-xs">无法计算</span>;
  return (
    <div className="grid grid-cols-[auto_1fr] gap-x-2 text-xs tabular-nums" data-testid="publish-preview-money">
      <span className="text-muted-foreground">售价</span>
      <span className="text-right font-medium" data-testid="publish-preview-price">
        {m.price} {m.currency}
      </span>
      <span className="text-muted-foreground">成本</span>
      <span className="text-right">{m.cost}</span>
      <span className="text-muted-foreground">费用</span>
      <span className="text-right">{m.fees}</span>
      {Number(m.freight) > 0 ? (
        <>
          <span className="text-muted-foreground">运费</span>
          <span className="text-right">{m.freight}</span>
        </>
      ) : null}
      <span className="text-muted-foreground">到手</span>
      <span className="text-right">{m.net}</span>
      <span className="text-muted-foreground">利润</span>
      <span
        className={cn("text-right font-medium", m.negative || row.marginWarning ? "text-destructive" : "text-success")}
        title={row.marginWarning ?? undefined}
        data-warn={row.marginWarning ? "true" : undefined}
        data-testid="publish-preview-margin"
      >
        {m.margin}（{m.marginPercent}）
      </span>
    </div>
  );
}

const columnsFor = (formSite: number | null, ctx: FixContext): DataTableColumn<PreviewRow>[] => [
  {
    id: "product",
    header: "商品",
    cell: (r) => (
      <div className="flex min-w-0 items-start gap-2">
        <Thumb src={r.image} alt={r.productTitle} size={40} />
        <div className="flex min-w-0 flex-col gap-0.5">
          <span className="line-clamp-2 text-xs font-medium" title={r.productTitle}>
            {r.productTitle}
          </span>
          <span className="text-muted-foreground line-clamp-2 text-xs" title={r.title ?? ""} data-testid="publish-preview-title">
            {r.title ? `发送标题：${r.title}` : "发送标题：无"}
          </span>
        </div>
      </div>
    ),
  },
  {
    id: "site",
    header: "站点 / 类目",
    width: 150,
    cell: (r) => (
      <div className="flex flex-col gap-0.5 text-xs">
        <span>{siteName(r.site)}</span>
        <span className="text-muted-foreground line-clamp-2">{r.cateName ?? r.cateId ?? "未选类目"}</span>
      </div>
    ),
  },
  {
    id: "ok",
    header: "检查结果",
    width: 96,
    cell: (r) => (
      <Badge variant={r.ok ? "success" : "destructive"} data-testid="publish-preview-status" data-ok={r.ok} data-site={r.site}>
        {r.ok ? "可刊登" : "不会发送"}
      </Badge>
    ),
  },
  { id: "problems", header: "问题与修改方式", cell: (r) => <Problems row={r} formSite={formSite} ctx={ctx} /> },
  { id: "money", header: "利润预估", width: 170, cell: (r) => <Money row={r} /> },
];

export function PreviewTable({
  rows,
  formSite = null,
  formCategories,
  onFixAttributes,
}: {
  rows: PreviewRow[];
  /** The category form every row's attributes are filled in (a CBT shop's global category), else the row's site's. */
  formSite?: number | null;
} & FixContext) {
  const columns = useMemo(() => columnsFor(formSite, { formCategories, onFixAttributes }), [formSite, formCategories, onFixAttributes]);
  return (
    <DataTable
      aria-label="检查与利润预估"
      columns={columns}
      rows={rows}
      rowKey={(r) => r.key}
      emptyText="没有可检查的商品"
      view={{ density: "compact" }}
      className="[&_table]:min-w-[960px] [&_table]:table-fixed"
    />
  );
}
