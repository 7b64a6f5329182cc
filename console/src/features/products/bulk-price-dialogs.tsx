// 统一价格 (BatchUpdateProductSamePrice: every product and variant at fixPrice × rate, ending on the tinyPrice cents)
// and 调整价格 (BatchUpdateProductPrice: each price becomes price × rate + amount, ending on tinyPrice).
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { BulkDialog, useBulkSubmit, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { adjustPriceBody, adjustPriceForm, samePriceBody, samePriceForm } from "./bulk-forms.ts";

const TINY_HINT = "价格的小数部分统一为该值，如 0.99；留空则不调整";

export function SamePriceDialog({ target, onClose }: BulkDialogBaseProps) {
  const form = useZodForm(samePriceForm, { defaultValues: { fixPrice: "", rate: "", tinyPrice: "" } });
  const { submit, pending } = useBulkSubmit("统一价格", onClose);
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title="统一价格"
      description="所选商品及其全部规格设为同一价格：价格 × 倍率，再按尾数取整。"
      formId="products-same-price-form"
      pending={pending}
      testId="products-same-price-dialog"
    >
      <Form form={form} id="products-same-price-form" onSubmit={(v) => submit({ edit: "samePrice", body: samePriceBody(target, v) })}>
        <FormField
          form={form}
          name="fixPrice"
          label="价格"
          required
          render={(f) => <Input {...f} inputMode="decimal" placeholder="如 199" data-testid="products-same-price-value" />}
        />
        <div className="grid grid-cols-2 gap-4">
          <FormField
            form={form}
            name="rate"
            label="倍率"
            description="留空为 1"
            render={(f) => <Input {...f} inputMode="decimal" placeholder="1" data-testid="products-same-price-rate" />}
          />
          <FormField
            form={form}
            name="tinyPrice"
            label="尾数"
            description={TINY_HINT}
            render={(f) => <Input {...f} inputMode="decimal" placeholder="如 0.99" data-testid="products-same-price-tiny" />}
          />
        </div>
      </Form>
    </BulkDialog>
  );
}

export function AdjustPriceDialog({ target, onClose }: BulkDialogBaseProps) {
  const form = useZodForm(adjustPriceForm, { defaultValues: { rate: "1", add: "", tinyPrice: "" } });
  const { submit, pending } = useBulkSubmit("调整价格", onClose);
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title="调整价格"
      description="每个商品及其规格的新价格 = 原价格 × 倍率 + 加减金额，再按尾数取整。"
      formId="products-adjust-price-form"
      pending={pending}
      testId="products-adjust-price-dialog"
    >
      <Form form={form} id="products-adjust-price-form" onSubmit={(v) => submit({ edit: "adjustPrice", body: adjustPriceBody(target, v) })}>
        <div className="grid grid-cols-2 gap-4">
          <FormField
            form={form}
            name="rate"
            label="倍率"
            required
            description="0.01 到 100，如 1.2 为涨价 20%"
            render={(f) => <Input {...f} inputMode="decimal" data-testid="products-adjust-price-rate" />}
          />
          <FormField
            form={form}
            name="add"
            label="加减金额"
            description="可为负数；留空为 0"
            render={(f) => <Input {...f} inputMode="decimal" placeholder="0" data-testid="products-adjust-price-add" />}
          />
        </div>
        <FormField
          form={form}
          name="tinyPrice"
          label="尾数"
          description={TINY_HINT}
          render={(f) => <Input {...f} inputMode="decimal" placeholder="如 0.99" data-testid="products-adjust-price-tiny" />}
        />
      </Form>
    </BulkDialog>
  );
}
