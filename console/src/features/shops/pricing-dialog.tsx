// 定价规则: the pricing rules of one shop (UpdateAccount, every field prefilled) and of the chosen shops at once
// (BatchUpdateAccount, only the ticked rules change). A blank price rule means none; the server checks the price
// limits against each shop's current values too and says which shop refused.
import { useEffect } from "react";
import type { FieldPath, UseFormReturn } from "react-hook-form";
import type { ShopAccount } from "#shared/contract/meli.ts";
import { AUTO_REPRICE_DEFAULT_MAX_PERCENT, DEFAULT_MIN_MARGIN } from "#shared/publish/margin.ts";
import { DEFAULT_ADJUST_RATE } from "#shared/publish/price.ts";
import { Button } from "#shared/ui/button.tsx";
import { Checkbox } from "#shared/ui/checkbox.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useBatchUpdateAccount, useUpdateAccount } from "./api/edit-shops.ts";
import { siteName, shopTitle } from "./names.ts";
import {
  autoRepriceHints,
  autoRepriceLabels,
  BATCH_FIELDS,
  batchInfoOf,
  batchPricingForm,
  emptyBatchValues,
  pricingForm,
  pricingHints,
  pricingInfoOf,
  pricingLabels,
  pricingValuesOf,
  type BatchField,
  type BatchPricingFormValues,
  type BatchPricingValues,
  type PricingFormValues,
  type PricingValues,
} from "./pricing-form.ts";

const placeholders: Record<string, string> = {
  alias: "选填",
  adjustRate: `默认 ${DEFAULT_ADJUST_RATE}`,
  overPrice: "如 5",
  tinyPrice: "如 0.99",
  limitMinPrice: "不限",
  limitMaxPrice: "不限",
  brand: "选填",
  sort: "0",
  minMargin: `默认 ${DEFAULT_MIN_MARGIN}`,
};
const decimalFields = new Set(["adjustRate", "overPrice", "tinyPrice", "limitMinPrice", "limitMaxPrice", "minMargin"]);

type PricingForm = UseFormReturn<PricingFormValues, unknown, PricingValues>;

function RuleInput({ form, name, currency }: { form: PricingForm; name: FieldPath<PricingFormValues>; currency?: string }) {
  const money = currency && (name === "overPrice" || name === "limitMinPrice" || name === "limitMaxPrice");
  return (
    <FormField
      form={form}
      name={name}
      label={
        money ? `${pricingLabels[name as keyof typeof pricingLabels]}（${currency}）` : pricingLabels[name as keyof typeof pricingLabels]
      }
      description={pricingHints[name as keyof typeof pricingHints]}
      render={(f) => (
        <Input
          {...f}
          value={f.value as string}
          inputMode={decimalFields.has(name) ? "decimal" : name === "sort" ? "numeric" : undefined}
          maxLength={name === "alias" ? 64 : name === "brand" ? 100 : 16}
          placeholder={placeholders[name]}
          data-testid={`shops-pricing-${name}`}
        />
      )}
    />
  );
}

/** 自动调价: the switch and the day's bound (enabled while the switch is on). */
function AutoRepriceRules({ form }: { form: PricingForm }) {
  const on = form.watch("autoReprice") === true;
  return (
    <div className="mt-4 grid gap-3 border-t pt-4 sm:grid-cols-2" data-testid="shops-pricing-auto">
      <label className="flex cursor-pointer items-start gap-2 text-sm">
        <Checkbox
          className="mt-0.5"
          checked={on}
          onCheckedChange={(v) => form.setValue("autoReprice", v === true, { shouldDirty: true })}
          data-testid="shops-pricing-autoReprice"
        />
        <span className="flex flex-col gap-1">
          <span className="font-medium">{autoRepriceLabels.autoReprice}</span>
          <span className="text-muted-foreground text-xs">{autoRepriceHints.autoReprice}</span>
        </span>
      </label>
      <FormField
        form={form}
        name="autoRepriceMaxPercent"
        label={autoRepriceLabels.autoRepriceMaxPercent}
        description={autoRepriceHints.autoRepriceMaxPercent}
        render={(f) => (
          <Input
            {...f}
            value={f.value as string}
            disabled={!on}
            inputMode="decimal"
            maxLength={6}
            placeholder={`默认 ${AUTO_REPRICE_DEFAULT_MAX_PERCENT}`}
            data-testid="shops-pricing-autoRepriceMaxPercent"
          />
        )}
      />
    </div>
  );
}

export function PricingDialog({ shop, onClose }: { shop: ShopAccount | null; onClose: () => void }) {
  const form = useZodForm(pricingForm, { defaultValues: shop ? pricingValuesOf(shop) : undefined });
  const update = useUpdateAccount();
  useEffect(() => {
    if (shop) form.reset(pricingValuesOf(shop));
  }, [shop, form]);

  function onSubmit(v: PricingValues) {
    if (!shop) return;
    update.mutate(
      { id: shop.id, info: pricingInfoOf(v) },
      {
        onSuccess: (s) => {
          toast.success(`店铺「${shopTitle(s)}」的定价规则已保存`);
          onClose();
        },
      },
    );
  }

  return (
    <Dialog open={!!shop} onOpenChange={(open) => !open && !update.isPending && onClose()}>
      <DialogContent className="sm:max-w-2xl" data-testid="shops-pricing-dialog">
        <DialogHeader>
          <DialogTitle>编辑定价规则</DialogTitle>
          <DialogDescription>
            {shop ? `店铺「${shopTitle(shop)}」（${siteName(shop.site)}，币种 ${shop.currency}）` : ""}
            刊登商品时按以下规则计算价格；留空表示不设该规则。
          </DialogDescription>
        </DialogHeader>
        <Form form={form} id="shops-pricing-form" onSubmit={onSubmit}>
          <div className="grid gap-4 sm:grid-cols-2">
            <RuleInput form={form} name="alias" />
            <RuleInput form={form} name="brand" />
            <RuleInput form={form} name="adjustRate" />
            <RuleInput form={form} name="overPrice" currency={shop?.currency} />
            <RuleInput form={form} name="tinyPrice" />
            <RuleInput form={form} name="sort" />
            <RuleInput form={form} name="limitMinPrice" currency={shop?.currency} />
            <RuleInput form={form} name="limitMaxPrice" currency={shop?.currency} />
            <RuleInput form={form} name="minMargin" />
          </div>
          <AutoRepriceRules form={form} />
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={update.isPending}>
            取消
          </Button>
          <Button type="submit" form="shops-pricing-form" loading={update.isPending} data-testid="shops-pricing-submit">
            保存
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------

type BatchForm = UseFormReturn<BatchPricingFormValues, unknown, BatchPricingValues>;

/** One rule of the batch dialog: a box to change it, and its input (enabled while ticked; unticking empties it). */
function BatchRule({ form, name }: { form: BatchForm; name: BatchField }) {
  const applied = form.watch(`apply.${name}`);
  return (
    <div className="grid grid-cols-[8.5rem_1fr] items-start gap-3">
      <label className="flex h-9 cursor-pointer items-center gap-2 text-sm font-medium">
        <Checkbox
          checked={applied}
          onCheckedChange={(on) => {
            form.setValue(`apply.${name}`, on === true);
            if (on !== true) form.setValue(name, "");
            // After a first submit the whole form is checked again: "tick at least one" belongs to no single field.
            if (form.formState.isSubmitted) void form.trigger();
          }}
          data-testid={`shops-batch-apply-${name}`}
        />
        {pricingLabels[name]}
      </label>
      <FormField
        form={form}
        name={name}
        label={pricingLabels[name]}
        hideLabel
        description={applied ? `${pricingHints[name]}${name === "sort" ? "" : "；留空将清除该规则"}` : undefined}
        render={(f) => (
          <Input
            {...f}
            disabled={!applied}
            inputMode={decimalFields.has(name) ? "decimal" : name === "sort" ? "numeric" : undefined}
            maxLength={name === "brand" ? 100 : 16}
            placeholder={applied ? placeholders[name] : "不修改"}
            data-testid={`shops-batch-${name}`}
          />
        )}
      />
    </div>
  );
}

export function BatchPricingDialog({ ids, onClose }: { ids: string[] | null; onClose: () => void }) {
  const form = useZodForm(batchPricingForm, { defaultValues: emptyBatchValues() });
  const batch = useBatchUpdateAccount();
  useEffect(() => {
    if (ids) form.reset(emptyBatchValues());
  }, [ids, form]);
  const applyError = form.formState.errors.apply?.message;

  function onSubmit(v: BatchPricingValues) {
    if (!ids) return;
    batch.mutate(
      { ids, info: batchInfoOf(v) },
      {
        onSuccess: (r) => {
          if (r.count > 0) toast.success(`已修改 ${r.count} 个店铺的定价规则`);
          else toast.info("没有店铺需要修改");
          onClose();
        },
      },
    );
  }

  return (
    <Dialog open={!!ids} onOpenChange={(open) => !open && !batch.isPending && onClose()}>
      <DialogContent className="sm:max-w-xl" data-testid="shops-batch-dialog">
        <DialogHeader>
          <DialogTitle>批量设置定价规则</DialogTitle>
          <DialogDescription>
            将修改已选择的 <b className="text-foreground tabular-nums">{ids?.length ?? 0}</b>{" "}
            个店铺：只修改勾选的规则，未勾选的保持各店铺原值。
          </DialogDescription>
        </DialogHeader>
        <Form form={form} id="shops-batch-form" onSubmit={onSubmit} className="gap-3">
          {BATCH_FIELDS.map((name) => (
            <BatchRule key={name} form={form} name={name} />
          ))}
          {applyError ? (
            <p role="alert" className="text-destructive text-xs" data-testid="shops-batch-apply-error">
              {applyError}
            </p>
          ) : null}
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={batch.isPending}>
            取消
          </Button>
          <Button type="submit" form="shops-batch-form" loading={batch.isPending} data-testid="shops-batch-submit">
            保存
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
