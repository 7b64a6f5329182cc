// 采集设置: the tenant's collect settings (GetCollectConfig / UpdateCollcetConfig: discounted price by default, image
// and variant limits, description and video) and the infringement rule (isAllowCollected, infringementRuleType) that
// decides whether a product whose title holds an infringement word is stored and flagged or refused. Only a main
// account may change them (the server says so too); a sub-account sees them read only.
import type { ReactNode } from "react";
import { z } from "zod";
import type { CollectConfig } from "#shared/contract/collect.ts";
import { InfringementRuleType } from "#shared/contract/enums.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { Loading } from "#shared/ui/spinner.tsx";
import { Switch } from "#shared/ui/switch.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useUserStore } from "../../stores/user.ts";
import { useCollectConfig, useInfringementRule, useUpdateCollectConfig, useUpdateInfringementRule } from "./api/collect-settings.ts";
import { infringementRuleLabels } from "./labels.ts";

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${label}请输入整数`)
    .transform(Number)
    .pipe(z.number().min(min, `${label}不能小于${min}`).max(max, `${label}不能大于${max}`));

const settingsForm = z.object({
  isDiscountPrice: z.boolean(),
  maxImageCount: wholeNumber("图片数量上限", 1, 100),
  maxVariantCount: wholeNumber("SKU数量上限", 1, 2000),
  isCollectDescription: z.boolean(),
  isCollectVideo: z.boolean(),
  isAllowCollected: z.boolean(),
  infringementRuleType: z.enum([String(InfringementRuleType.Contains), String(InfringementRuleType.WholeWord)]).transform(Number),
});
type SettingsValues = z.input<typeof settingsForm>;

export function CollectSettingsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent className="sm:max-w-xl" data-testid="collect-settings-dialog">
          <SettingsBody onDone={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function SettingsBody({ onDone }: { onDone: () => void }) {
  const config = useCollectConfig();
  const rule = useInfringementRule();
  const canEdit = useUserStore((s) => s.isMainAccount);
  return (
    <>
      <DialogHeader>
        <DialogTitle>采集设置</DialogTitle>
        <DialogDescription>
          {canEdit ? "对本公司所有账号的采集生效。" : "仅主账号可以修改采集设置，以下为当前生效的设置。"}
        </DialogDescription>
      </DialogHeader>
      {config.data && rule.data ? (
        <SettingsForm values={valuesOf(config.data, rule.data)} canEdit={canEdit} onDone={onDone} />
      ) : config.isError || rule.isError ? (
        <p className="text-muted-foreground py-6 text-center text-sm">无法加载采集设置</p>
      ) : (
        <Loading />
      )}
    </>
  );
}

function valuesOf(config: CollectConfig, rule: { isAllowCollected: boolean; infringementRuleType: number }): SettingsValues {
  return {
    isDiscountPrice: config.isDiscountPrice,
    maxImageCount: String(config.maxImageCount),
    maxVariantCount: String(config.maxVariantCount),
    isCollectDescription: config.isCollectDescription,
    isCollectVideo: config.isCollectVideo,
    isAllowCollected: rule.isAllowCollected,
    infringementRuleType: String(
      rule.infringementRuleType === InfringementRuleType.WholeWord ? InfringementRuleType.WholeWord : InfringementRuleType.Contains,
    ),
  };
}

function SettingsForm({ values, canEdit, onDone }: { values: SettingsValues; canEdit: boolean; onDone: () => void }) {
  const saveConfig = useUpdateCollectConfig();
  const saveRule = useUpdateInfringementRule();
  const form = useZodForm(settingsForm, { defaultValues: values });

  async function onSubmit(v: z.output<typeof settingsForm>) {
    try {
      await Promise.all([
        saveConfig.mutateAsync({
          isDiscountPrice: v.isDiscountPrice,
          maxImageCount: v.maxImageCount,
          maxVariantCount: v.maxVariantCount,
          isCollectDescription: v.isCollectDescription,
          isCollectVideo: v.isCollectVideo,
        }),
        saveRule.mutateAsync({ isAllowCollected: v.isAllowCollected, infringementRuleType: v.infringementRuleType }),
      ]);
    } catch {
      return; // shown by the global handler
    }
    toast.success("采集设置已保存");
    onDone();
  }

  const switchField = (
    name: "isDiscountPrice" | "isCollectDescription" | "isCollectVideo" | "isAllowCollected",
    label: string,
    description: ReactNode,
  ) => (
    <FormField
      form={form}
      name={name}
      label={label}
      description={description}
      render={({ value, onChange, onBlur, ref, name: fieldName, ...aria }) => (
        <Switch
          {...aria}
          ref={ref}
          name={fieldName}
          checked={value}
          onCheckedChange={onChange}
          onBlur={onBlur}
          disabled={!canEdit}
          data-testid={`collect-settings-${name}`}
        />
      )}
    />
  );

  return (
    <Form form={form} onSubmit={(v) => void onSubmit(v)}>
      <fieldset disabled={!canEdit} className="flex flex-col gap-4">
        <legend className="mb-2 text-sm font-semibold">采集内容</legend>
        {switchField("isDiscountPrice", "默认采集优惠价", "开启后默认取商品的优惠（促销）价，关闭则取原价；采集时可单独选择")}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            form={form}
            name="maxImageCount"
            label="图片数量上限"
            required={canEdit}
            description="每个商品最多保存的图片数（1-100）"
            render={(field) => <Input {...field} type="number" min={1} max={100} step={1} data-testid="collect-settings-maxImageCount" />}
          />
          <FormField
            form={form}
            name="maxVariantCount"
            label="SKU数量上限"
            required={canEdit}
            description="每个商品最多保存的 SKU 数（1-2000）"
            render={(field) => (
              <Input {...field} type="number" min={1} max={2000} step={1} data-testid="collect-settings-maxVariantCount" />
            )}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          {switchField("isCollectDescription", "采集商品详情", "保存商品的详情描述")}
          {switchField("isCollectVideo", "采集商品视频", "保存商品的主图视频链接")}
        </div>
      </fieldset>
      <fieldset disabled={!canEdit} className="flex flex-col gap-4 border-t pt-4">
        <legend className="mb-2 text-sm font-semibold">侵权词规则</legend>
        {switchField(
          "isAllowCollected",
          "允许采集含侵权词的商品",
          "开启：标题含侵权词的商品照常采集，并在采集列表中标记；关闭：这类商品会被拒绝采集",
        )}
        <FormField
          form={form}
          name="infringementRuleType"
          label="匹配方式"
          render={({ value, onChange, ref, name, id, ...aria }) => (
            <Select name={name} value={value} onValueChange={onChange} disabled={!canEdit}>
              <SelectTrigger ref={ref} id={id} {...aria} data-testid="collect-settings-rule-type">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {Object.values(InfringementRuleType).map((t) => (
                  <SelectItem key={t} value={String(t)}>
                    {infringementRuleLabels[t]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      </fieldset>
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          {canEdit ? "取消" : "关闭"}
        </Button>
        {canEdit ? (
          <Button type="submit" loading={saveConfig.isPending || saveRule.isPending} data-testid="collect-settings-submit">
            保存
          </Button>
        ) : null}
      </DialogFooter>
    </Form>
  );
}
