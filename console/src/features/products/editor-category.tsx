// The editor's category: the site, then a leaf of that site's tree in the category tree-select (its full name is kept
// as the product's category name), and the category advice (components/category-advice.tsx): the category mapped to
// the product's source category first, then 推荐类目 for the title; either is taken in one click.
import { useWatch } from "react-hook-form";
import { FormField } from "#shared/ui/form.tsx";
import { CategorySelect } from "../../components/category-select.tsx";
import { CategoryAdvice } from "../../components/category-advice.tsx";
import type { SiteId } from "../../stores/platform.ts";
import type { EditorForm } from "./editor-types.ts";
import { FormSelect } from "../../components/form-select.tsx";
import { siteOptions } from "./product-names.ts";

export function EditorCategory({ form, productId }: { form: EditorForm; productId: string | null }) {
  const site = useWatch({ control: form.control, name: "site" });
  const categoryName = useWatch({ control: form.control, name: "categoryName" });
  const cateId = useWatch({ control: form.control, name: "cateId" });
  const siteId = site ? (Number(site) as SiteId) : null;
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
      <CategoryAdvice
        key={site}
        site={siteId}
        productId={productId}
        titles={() => form.getValues("titles")}
        chosen={cateId || null}
        onChoose={choose}
        testIds={{ button: "products-editor-predict-category", list: "products-editor-category" }}
      />
    </div>
  );
}
