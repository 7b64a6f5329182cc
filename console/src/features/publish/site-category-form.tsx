// One site of the publish request: its category (the category tree-select: leaves only) and the category's
// attributes the seller fills (GetAttributes: required ones, then the conditional ones; those the publisher fills from
// the product, such as SKU, GTIN, package and condition, are left out). An attribute the pre-flight found missing is
// marked, and its fix link focuses it (id `publish-attr-<site>-<attribute id>`). The category advice is the editor's
// (components/category-advice.tsx) for the first product shown: its source category's mapping, and 推荐类目 once per
// click (never once per product of a big selection) from its title; choosing one sets the category as the tree-select
// does, which loads its attributes. A global-selling shop has one such form, for its global (CBT) category.
import { askedAttributes } from "#shared/publish/category-form.ts";
import { Label } from "#shared/ui/label.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { CategorySelect } from "../../components/category-select.tsx";
import { CategoryAdvice } from "../../components/category-advice.tsx";
import type { SiteId } from "../../stores/platform.ts";
import { useCategoryAttributes } from "./api/get-publish-inputs.ts";
import { AttributeInput } from "./attribute-input.tsx";
import { siteName } from "./publish-names.ts";
import { SIZE_CHART_ATTRIBUTES, SizeChartField } from "./size-chart-field.tsx";
import { SIZE_GRID_ID, SIZE_GRID_ROW_ID } from "#shared/contract/size-charts.ts";
import { EMPTY_GTIN_REASON } from "#shared/publish/gtin-rule.ts";

export type AttrValue = { valueId?: string | null; valueName?: string | null };
export type SiteChoice = { cateId: string; cateName: string; attrs: Record<string, AttrValue> };

export const attrFieldId = (site: number, attrId: string) => `publish-attr-${site}-${attrId}`;
/** The site's category picker (更换类目 in the preview scrolls to it). */
export const categoryFieldId = (site: number) => `publish-category-field-${site}`;

/** The product the category is predicted from: the first one shown. */
export type PredictionSample = { id: string; title: Record<string, string>; titleText: string };

export function SiteCategoryForm({
  site,
  value,
  missing,
  sample,
  note,
  accountGroupId,
  productIds,
  onChange,
}: {
  /** The category's site: a marketplace site, or 5 (CBT) for a global-selling shop's global category. */
  site: SiteId;
  value: SiteChoice;
  /** Attribute ids the last pre-flight found missing. */
  missing: Set<string> | undefined;
  sample: PredictionSample | null;
  /** Shown under the category (a global category: the sites it is used for). */
  note?: string;
  /** The shop group published to: its size charts, for a category that asks for one. */
  accountGroupId?: string;
  /** The products being published (a new size chart is made of their sizes). */
  productIds?: readonly string[];
  onChange: (next: SiteChoice) => void;
}) {
  const attributes = useCategoryAttributes(site, value.cateId);
  const asked = attributes.data ? askedAttributes(attributes.data.attributes) : [];
  const sizeChart = attributes.data?.attributes.some((a) => a.id === SIZE_GRID_ID) ?? false;
  const setAttr = (id: string, v: AttrValue) => onChange({ ...value, attrs: { ...value.attrs, [id]: v } });
  const choose = (cateId: string, cateName: string) => onChange({ cateId, cateName, attrs: {} });

  return (
    <div className="flex flex-col gap-3 rounded-md border p-3" data-testid={`publish-site-${site}`}>
      <div className="grid items-start gap-2 sm:grid-cols-[8rem_minmax(0,1fr)]">
        <Label className="font-medium sm:pt-2.5">{siteName(site)} 类目</Label>
        <CategorySelect
          id={categoryFieldId(site)}
          site={site}
          value={value.cateId || null}
          valueLabel={value.cateName || null}
          onChange={(node) => choose(node?.id ?? "", node?.fullName ?? "")}
          placeholder="不选则使用商品自己的类目"
          testId={`publish-category-${site}`}
        />
      </div>
      {note ? (
        <p className="text-muted-foreground -mt-1.5 text-xs sm:pl-[8.5rem]" data-testid={`publish-site-note-${site}`}>
          {note}
        </p>
      ) : null}
      <div className="sm:pl-[8.5rem]">
        <CategoryAdvice
          key={sample?.id ?? ""}
          site={site}
          productId={sample?.id ?? null}
          titles={() => sample?.title ?? null}
          chosen={value.cateId || null}
          onChoose={choose}
          noTitle="请先选择商品"
          describe={(title) => `按第一个商品的标题推荐：${title}`}
          testIds={{ button: `publish-predict-${site}`, list: `publish-category-${site}-predicted`, answer: `publish-predictions-${site}` }}
        />
      </div>
      {value.cateId && sizeChart && accountGroupId ? (
        <SizeChartField
          site={site}
          fieldId={attrFieldId(site, SIZE_GRID_ID)}
          accountGroupId={accountGroupId}
          cateId={value.cateId}
          cateName={value.cateName}
          attributes={attributes.data?.attributes ?? []}
          productIds={productIds ?? []}
          attrs={value.attrs}
          missing={!!missing && [...SIZE_CHART_ATTRIBUTES].some((id) => missing.has(id))}
          askRow={attributes.data?.attributes.some((a) => a.id === SIZE_GRID_ROW_ID) ?? false}
          onChange={(attrs) => onChange({ ...value, attrs })}
        />
      ) : null}
      {value.cateId ? (
        attributes.isLoading ? (
          <div className="text-muted-foreground flex items-center gap-2 text-sm">
            <Spinner /> 正在读取类目属性…
          </div>
        ) : asked.length === 0 ? (
          <p className="text-muted-foreground text-sm">该类目没有需要填写的属性。</p>
        ) : (
          <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2 xl:grid-cols-3" data-testid={`publish-attributes-${site}`}>
            {asked.map(({ attr, required }) => {
              const current = value.attrs[attr.id] ?? {};
              return (
                <AttributeInput
                  key={attr.id}
                  id={attrFieldId(site, attr.id)}
                  attr={attr}
                  required={required}
                  missing={!!missing?.has(attr.id) && !current.valueId && !current.valueName?.trim()}
                  value={current}
                  onChange={(v) => setAttr(attr.id, v)}
                  optionalNote={attr.id === EMPTY_GTIN_REASON ? "（商品没有GTIN时选择，不占用码池）" : undefined}
                />
              );
            })}
          </div>
        )
      ) : null}
    </div>
  );
}
