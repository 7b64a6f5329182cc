// The editor's category: the site, then a leaf of that site's tree in the category tree-select (its full name is kept
// as the product's category name), and 推荐类目: Mercado Libre's predictions for the title (PredictMeliCategory), any
// of which can be taken in one click. A Chinese title is predicted after translation, or by the categories' Chinese
// names; the answer says which, and names show in Chinese first where known.
import { Sparkles } from "lucide-react";
import { useWatch } from "react-hook-form";
import { Button } from "@shared/ui/button.tsx";
import { FormField } from "@shared/ui/form.tsx";
import { toast } from "@shared/ui/toast.tsx";
import { CategorySelect } from "../../components/category-select.tsx";
import { categoryTitleOf, usePredictCategory } from "../../lib/category-prediction.ts";
import { CategoryPredictions } from "../../components/category-predictions.tsx";
import type { SiteId } from "../../stores/platform.ts";
import type { EditorForm } from "./editor-types.ts";
import { FormSelect } from "../../components/form-select.tsx";
import { siteOptions } from "./product-names.ts";

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
