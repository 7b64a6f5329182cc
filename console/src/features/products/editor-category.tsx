// The editor's category: the site, then a leaf of that site's tree in the category tree-select (its full name is kept
// as the product's category name), and 推荐类目: Mercado Libre's predictions for the title (PredictMeliCategory), any
// of which can be taken in one click. A Chinese title is predicted after translation, or by the categories' Chinese
// names; the answer says which, and names show in Chinese first where known.
import { Sparkles } from "lucide-react";
import { useWatch } from "react-hook-form";
import type { CategoryPredictionMethod, PredictedCategory, PredictMeliCategoryResult } from "@shared/contract/category.ts";
import { Button } from "@shared/ui/button.tsx";
import { FormField } from "@shared/ui/form.tsx";
import { toast } from "@shared/ui/toast.tsx";
import { CategorySelect } from "../../components/category-select.tsx";
import { usePredictCategory } from "./api/predict-product-fields.ts";
import type { SiteId } from "../../stores/platform.ts";
import type { EditorForm } from "./editor-types.ts";
import { FormSelect } from "../../components/form-select.tsx";
import { siteOptions } from "./product-names.ts";

/** The title Mercado Libre predicts best from: the site's language first (pt for Brazil, en for CBT), then any. */
export function categoryTitleOf(titles: Record<string, string>, site: number): string {
  const first = site === 2 ? "pt" : site === 5 ? "en" : "es";
  for (const lang of [first, "en", "es", "pt", "zh"]) if (titles[lang]?.trim()) return titles[lang].trim();
  return (
    Object.values(titles)
      .find((t) => t.trim())
      ?.trim() ?? ""
  );
}

export function EditorCategory({ form }: { form: EditorForm }) {
  const site = useWatch({ control: form.control, name: "site" });
  const categoryName = useWatch({ control: form.control, name: "categoryName" });
  const siteId = site ? (Number(site) as SiteId) : null;
  const predict = usePredictCategory();
  const choose = (cateId: string, fullName: string) => {
    form.setValue("cateId", cateId, { shouldDirty: true, shouldValidate: true });
    form.setValue("categoryName", fullName, { shouldDirty: true });
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="grid gap-4 sm:grid-cols-[12rem_minmax(0,1fr)]">
        <FormField
          form={form}
          name="site"
          label="站点"
          render={(f) => (
            <FormSelect
              field={{
                ...f,
                onChange: (v) => {
                  if (v === f.value) return;
                  f.onChange(v);
                  // A category belongs to one site.
                  choose("", "");
                  predict.reset();
                },
              }}
              choices={siteOptions}
              placeholder="选择站点"
              testId="products-editor-site"
            />
          )}
        />
        <FormField
          form={form}
          name="cateId"
          label="类目"
          render={(f) => (
            <CategorySelect
              site={siteId}
              value={f.value || null}
              valueLabel={categoryName || null}
              onChange={(node) => choose(node?.id ?? "", node?.fullName ?? "")}
              id={f.id}
              aria-invalid={f["aria-invalid"]}
              aria-describedby={f["aria-describedby"]}
              testId="products-editor-category"
            />
          )}
        />
      </div>
      <div className="flex flex-col gap-2">
        <div>
          <Button
            variant="outline"
            size="sm"
            disabled={!siteId}
            loading={predict.isPending}
            onClick={() => {
              const title = categoryTitleOf(form.getValues("titles"), siteId!);
              if (!title) {
                toast.warning("请先填写标题");
                return;
              }
              predict.mutate({ site: siteId!, title: title.slice(0, 1000) });
            }}
            data-testid="products-editor-predict-category"
          >
            <Sparkles />
            推荐类目
          </Button>
        </div>
        {predict.data ? <CategoryPredictions result={predict.data} onChoose={(p) => choose(p.cateId, p.fullName)} /> : null}
      </div>
    </div>
  );
}

/** How the predictions were found, for the seller. */
export const predictionMethodText: Record<CategoryPredictionMethod, string> = {
  direct: "美客多按标题推荐",
  translated: "翻译后预测",
  chineseNames: "按中文类目名匹配",
};

export function CategoryPredictions({ result, onChoose }: { result: PredictMeliCategoryResult; onChoose: (p: PredictedCategory) => void }) {
  const { items, method, translatedTitle, note } = result;
  const how = (
    <p className="text-muted-foreground text-xs" data-testid="products-editor-category-method" data-method={method}>
      {predictionMethodText[method]}
      {translatedTitle ? `：${translatedTitle}` : null}
      {note ? <span className="ml-1.5 text-amber-600">{note}</span> : null}
    </p>
  );
  if (!items.length) {
    return method === "direct" ? (
      <p className="text-muted-foreground text-xs">美客多没有为这个标题推荐类目，请换个标题或直接搜索类目。</p>
    ) : (
      how
    );
  }
  return (
    <ul className="bg-muted/40 flex flex-col gap-1 rounded-md border p-2 text-xs" data-testid="products-editor-category-predictions">
      {method !== "direct" || note ? <li>{how}</li> : null}
      {items.map((p) => (
        <li key={p.cateId} className="flex items-center gap-2">
          <span className="min-w-0 flex-1 truncate" title={p.fullZh ? `${p.fullZh} · ${p.fullName}` : p.fullName}>
            {p.fullZh ?? p.fullName}
            {p.fullZh ? <span className="text-muted-foreground ml-1.5">· {p.fullName}</span> : null}
          </span>
          {p.selectable ? (
            <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={() => onChoose(p)}>
              使用
            </Button>
          ) : (
            <span className="text-muted-foreground">{p.known ? "不可选" : "未同步"}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
