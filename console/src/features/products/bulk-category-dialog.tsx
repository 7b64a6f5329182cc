// 修改类目 (BatchUpdateProductCategory): the site and a leaf of its category tree (searched in the tree-select) for
// every selected product; the category's full name goes with it as the products' category name.
import { useWatch } from "react-hook-form";
import { Site } from "#shared/contract/enums.ts";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { CategorySelect } from "../../components/category-select.tsx";
import type { SiteId } from "../../stores/platform.ts";
import { BulkDialog, useBulkSubmit, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { categoryBody, categoryForm } from "./bulk-forms.ts";
import { FormSelect } from "../../components/form-select.tsx";
import { siteOptions } from "./product-names.ts";

export function BulkCategoryDialog({ target, onClose }: BulkDialogBaseProps) {
  const form = useZodForm(categoryForm, { defaultValues: { site: String(Site.mx), cateId: "", categoryName: "" } });
  const site = useWatch({ control: form.control, name: "site" });
  const categoryName = useWatch({ control: form.control, name: "categoryName" });
  const { submit, pending } = useBulkSubmit("修改类目", onClose);
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title="修改类目"
      description="类目的属性会被清空，刊登前请在商品中补充。"
      formId="products-category-form"
      pending={pending}
      testId="products-category-dialog"
    >
      <Form form={form} id="products-category-form" onSubmit={(v) => submit({ edit: "category", body: categoryBody(target, v) })}>
        <FormField
          form={form}
          name="site"
          label="站点"
          required
          render={(f) => (
            <FormSelect
              field={{
                ...f,
                onChange: (v) => {
                  if (v === f.value) return;
                  f.onChange(v);
                  form.setValue("cateId", "");
                  form.setValue("categoryName", "");
                },
              }}
              choices={siteOptions}
              testId="products-category-site"
            />
          )}
        />
        <FormField
          form={form}
          name="cateId"
          label="类目"
          required
          render={(f) => (
            <CategorySelect
              site={site ? (Number(site) as SiteId) : null}
              value={f.value || null}
              valueLabel={categoryName || null}
              onChange={(node) => {
                f.onChange(node?.id ?? "");
                form.setValue("categoryName", node?.fullName ?? "");
              }}
              id={f.id}
              aria-invalid={f["aria-invalid"]}
              aria-describedby={f["aria-describedby"]}
              testId="products-category-id"
            />
          )}
        />
      </Form>
    </BulkDialog>
  );
}
