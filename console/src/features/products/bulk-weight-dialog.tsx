// 重量尺寸 (WebBatchUpdateProductWeight): one weight for every product, or a random weight between a minimum and a
// maximum for each; and/or one size (length x width x height, cm).
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Tabs, TabsList, TabsTrigger } from "#shared/ui/tabs.tsx";
import { BulkDialog, useBulkSubmit, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { weightBody, weightForm } from "./bulk-forms.ts";

export function BulkWeightDialog({ target, onClose }: BulkDialogBaseProps) {
  const form = useZodForm(weightForm, { defaultValues: { mode: "fixed", weight: "", minWeight: "", maxWeight: "", size: "" } });
  const { submit, pending } = useBulkSubmit("重量尺寸", onClose);
  const mode = form.watch("mode");
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title="修改重量尺寸"
      description="重量单位为克，尺寸为 长x宽x高（厘米）；留空的项不修改。"
      formId="products-weight-form"
      pending={pending}
      testId="products-weight-dialog"
    >
      <Form form={form} id="products-weight-form" onSubmit={(v) => submit({ edit: "weight", body: weightBody(target, v) })}>
        <FormField
          form={form}
          name="mode"
          label="重量方式"
          render={({ value, onChange }) => (
            <Tabs value={value} onValueChange={onChange}>
              <TabsList>
                <TabsTrigger value="fixed" data-testid="products-weight-mode-fixed">
                  统一重量
                </TabsTrigger>
                <TabsTrigger value="random" data-testid="products-weight-mode-random">
                  随机重量
                </TabsTrigger>
              </TabsList>
            </Tabs>
          )}
        />
        {mode === "random" ? (
          <div className="grid grid-cols-2 gap-4">
            <FormField
              form={form}
              name="minWeight"
              label="最小重量（克）"
              render={(f) => <Input {...f} inputMode="decimal" data-testid="products-weight-min" />}
            />
            <FormField
              form={form}
              name="maxWeight"
              label="最大重量（克）"
              render={(f) => <Input {...f} inputMode="decimal" data-testid="products-weight-max" />}
            />
          </div>
        ) : (
          <FormField
            form={form}
            name="weight"
            label="重量（克）"
            render={(f) => <Input {...f} inputMode="decimal" placeholder="如 350" data-testid="products-weight-value" />}
          />
        )}
        <FormField
          form={form}
          name="size"
          label="尺寸（厘米）"
          render={(f) => <Input {...f} placeholder="如 30x20x10" data-testid="products-weight-size" />}
        />
      </Form>
    </BulkDialog>
  );
}
