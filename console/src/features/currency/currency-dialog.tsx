// The host's add/edit dialog of a currency rate. The base currency (CNY) keeps its code and its rate of 1; only its
// Chinese name can change.
import { useEffect } from "react";
import type { z } from "zod";
import { BASE_CURRENCY, type Currency } from "#shared/contract/settings.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useSaveCurrency } from "./api/edit-currencies.ts";
import { currencyForm, currencyValuesOf, emptyCurrencyValues, isBaseCurrency } from "./schemas.ts";

export type CurrencyDialogState = { mode: "create" } | { mode: "edit"; currency: Currency } | null;

export function CurrencyDialog({ state, onClose }: { state: CurrencyDialogState; onClose: () => void }) {
  const editing = state?.mode === "edit" ? state.currency : null;
  const form = useZodForm(currencyForm, { defaultValues: emptyCurrencyValues });
  const save = useSaveCurrency();
  const base = isBaseCurrency(editing);

  useEffect(() => {
    if (state) form.reset(editing ? currencyValuesOf(editing) : emptyCurrencyValues);
  }, [state, editing, form]);

  function onSubmit(values: z.output<typeof currencyForm>) {
    save.mutate(
      { ...values, id: editing?.id ?? null },
      {
        onSuccess: (saved) => {
          toast.success(editing ? `币种 ${saved.code} 已保存` : `币种 ${saved.code} 已添加`);
          onClose();
        },
      },
    );
  }

  const rate = form.watch("rate");
  const code = form.watch("code");

  return (
    <Dialog open={!!state} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="currency-dialog" data-mode={state?.mode}>
        <DialogHeader>
          <DialogTitle>{editing ? "编辑汇率" : "新增币种"}</DialogTitle>
          <DialogDescription>汇率为 1 单位该币种可兑换的人民币（{BASE_CURRENCY}）金额。</DialogDescription>
        </DialogHeader>
        <Form form={form} onSubmit={onSubmit}>
          <FormField
            form={form}
            name="code"
            label="币种代码"
            required
            description={base ? "人民币是基准币种，代码不能修改" : "3位大写字母，如 USD、MXN"}
            render={(field) => (
              <Input
                {...field}
                onChange={(e) => field.onChange(e.target.value.toUpperCase())}
                maxLength={3}
                disabled={base}
                autoComplete="off"
                placeholder="USD"
                className="uppercase"
                data-testid="currency-code"
              />
            )}
          />
          <FormField
            form={form}
            name="zh"
            label="名称"
            required
            render={(field) => <Input {...field} maxLength={32} placeholder="美元" data-testid="currency-zh" />}
          />
          <FormField
            form={form}
            name="rate"
            label="汇率"
            required
            description={base ? "基准币种的汇率固定为 1" : `1 ${code || "该币种"} = ${rate || "?"} ${BASE_CURRENCY}`}
            render={(field) => (
              <Input {...field} inputMode="decimal" maxLength={19} disabled={base} placeholder="7.1" data-testid="currency-rate" />
            )}
          />
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              取消
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="currency-submit">
              保存
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
