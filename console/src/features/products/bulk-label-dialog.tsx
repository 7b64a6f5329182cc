// 标签 (LinkProductLabel / CancelLinkProductLabel): put one label on every selected product, or take labels off (one
// label, or whatever label they carry).
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Tabs, TabsList, TabsTrigger } from "#shared/ui/tabs.tsx";
import { BulkDialog, useBulkSubmit, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { ANY_LABEL, labelBody, labelForm } from "./bulk-forms.ts";
import { FormSelect } from "../../components/form-select.tsx";
import { useProductLabels } from "./api/get-product-labels.ts";

export function BulkLabelDialog({ target, onClose }: BulkDialogBaseProps) {
  const form = useZodForm(labelForm, { defaultValues: { op: "link", labelId: "" } });
  const { submit, pending } = useBulkSubmit("标签", onClose);
  const labels = useProductLabels();
  const op = form.watch("op");
  const choices = (labels.data ?? []).map((l) => ({ value: l.id, label: l.name }));
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title={op === "link" ? "设置标签" : "取消标签"}
      description={labels.isError ? "标签列表加载失败，请稍后重试。" : labels.data?.length === 0 ? "还没有标签，请先创建标签。" : undefined}
      formId="products-label-form"
      pending={pending}
      testId="products-label-dialog"
    >
      <Form
        form={form}
        id="products-label-form"
        onSubmit={(v) => {
          const { op: kind, body } = labelBody(target, v);
          submit(kind === "link" ? { edit: "linkLabel", body } : { edit: "unlinkLabel", body });
        }}
      >
        <FormField
          form={form}
          name="op"
          label="操作"
          render={({ value, onChange }) => (
            <Tabs
              value={value}
              onValueChange={(next) => {
                onChange(next);
                form.setValue("labelId", next === "cancel" ? ANY_LABEL : "");
              }}
            >
              <TabsList>
                <TabsTrigger value="link" data-testid="products-label-op-link">
                  设置标签
                </TabsTrigger>
                <TabsTrigger value="cancel" data-testid="products-label-op-cancel">
                  取消标签
                </TabsTrigger>
              </TabsList>
            </Tabs>
          )}
        />
        <FormField
          form={form}
          name="labelId"
          label="标签"
          required={op === "link"}
          render={(f) => (
            <FormSelect
              field={f}
              choices={op === "cancel" ? [{ value: ANY_LABEL, label: "任意标签（全部取消）" }, ...choices] : choices}
              placeholder={labels.isPending ? "加载中..." : "选择标签"}
              testId="products-label-value"
            />
          )}
        />
      </Form>
    </BulkDialog>
  );
}
