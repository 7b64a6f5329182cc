// 修改类目 (BatchUpdateProductCategory): the site and category id (with its name, for display) for every selected
// product. Typed as text for now; the category tree arrives with the shop screens.
import { Site } from "../../../../shared/contract/enums.ts";
import { Form, FormField, useZodForm } from "../../../../shared/ui/form.tsx";
import { Input } from "../../../../shared/ui/input.tsx";
import { api } from "../../lib/api.ts";
import { BulkDialog, useBulkSubmit, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { categoryBody, categoryForm } from "./bulk-forms.ts";
import { FormSelect } from "./form-select.tsx";
import { siteOptions } from "./product-names.ts";

export function BulkCategoryDialog({ target, onClose }: BulkDialogBaseProps) {
  const form = useZodForm(categoryForm, { defaultValues: { site: String(Site.mx), cateId: "", categoryName: "" } });
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
      <Form
        form={form}
        id="products-category-form"
        onSubmit={(v) => submit(() => api.product.batchUpdateProductCategory(categoryBody(target, v)))}
      >
        <FormField
          form={form}
          name="site"
          label="站点"
          required
          render={(f) => <FormSelect field={f} choices={siteOptions} testId="products-category-site" />}
        />
        <FormField
          form={form}
          name="cateId"
          label="类目ID"
          required
          render={(f) => <Input {...f} maxLength={64} placeholder="如 MLM1055" data-testid="products-category-id" />}
        />
        <FormField
          form={form}
          name="categoryName"
          label="类目名称"
          render={(f) => <Input {...f} maxLength={500} placeholder="选填，如 手机 > 配件" data-testid="products-category-name" />}
        />
      </Form>
    </BulkDialog>
  );
}
