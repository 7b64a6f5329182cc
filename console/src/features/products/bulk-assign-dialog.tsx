// 分配给子账号 (AssignProduct, main account only): the selected products to one account of the tenant.
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import type { UserOption } from "../../components/list/owner-filter.ts";
import { BulkDialog, useBulkSubmit, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { assignBody, assignForm } from "./bulk-forms.ts";
import { FormSelect } from "../../components/form-select.tsx";

export function BulkAssignDialog({ target, onClose, users }: BulkDialogBaseProps & { users: UserOption[] }) {
  const form = useZodForm(assignForm, { defaultValues: { userId: "" } });
  const { submit, pending } = useBulkSubmit("分配商品", onClose);
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title="分配给子账号"
      description="商品归属改为所选账号，该账号即可查看和编辑这些商品。"
      formId="products-assign-form"
      pending={pending}
      testId="products-assign-dialog"
    >
      <Form form={form} id="products-assign-form" onSubmit={(v) => submit({ edit: "assign", body: assignBody(target, v) })}>
        <FormField
          form={form}
          name="userId"
          label="分配给"
          required
          render={(f) => (
            <FormSelect
              field={f}
              choices={users.map((u) => ({ value: u.id, label: u.name }))}
              placeholder="选择账号"
              testId="products-assign-user"
            />
          )}
        />
      </Form>
    </BulkDialog>
  );
}
