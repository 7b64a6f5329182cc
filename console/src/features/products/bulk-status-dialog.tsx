// 修改状态 (BatchUpdateProductStatus): one status for every selected product.
import { ProductStatus } from "#shared/contract/enums.ts";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { BulkDialog, useBulkSubmit, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { statusBody, statusForm } from "./bulk-forms.ts";
import { FormSelect } from "../../components/form-select.tsx";
import { productStatusOptions } from "./product-names.ts";

export function BulkStatusDialog({ target, onClose }: BulkDialogBaseProps) {
  const form = useZodForm(statusForm, { defaultValues: { status: String(ProductStatus.Ready) } });
  const { submit, pending } = useBulkSubmit("修改状态", onClose);
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title="修改状态"
      formId="products-status-form"
      pending={pending}
      testId="products-status-dialog"
    >
      <Form form={form} id="products-status-form" onSubmit={(v) => submit({ edit: "status", body: statusBody(target, v) })}>
        <FormField
          form={form}
          name="status"
          label="状态"
          render={(f) => <FormSelect field={f} choices={productStatusOptions} testId="products-status-value" />}
        />
      </Form>
    </BulkDialog>
  );
}
