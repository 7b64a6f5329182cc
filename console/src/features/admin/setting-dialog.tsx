// Creates or edits one system setting (name, key, value, description) with the contract's own rules.
import { useEffect } from "react";
import { z } from "zod";
import { createOrUpdateSettingInput, type Setting } from "#shared/contract/settings.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useSaveSetting } from "./api/edit-settings.ts";

const settingForm = createOrUpdateSettingInput.omit({ id: true, description: true }).extend({
  description: z.string().max(500, "描述最多500个字符"),
});
type SettingForm = z.input<typeof settingForm>;

/** `setting`: the one being edited, or null for a new one; the dialog is open while `open` is true. */
export function SettingDialog({
  open,
  setting,
  onOpenChange,
}: {
  open: boolean;
  setting: Setting | null;
  onOpenChange: (open: boolean) => void;
}) {
  const save = useSaveSetting();
  const form = useZodForm(settingForm, { defaultValues: { name: "", key: "", value: "", description: "" } });

  useEffect(() => {
    if (!open) return;
    form.reset({
      name: setting?.name ?? "",
      key: setting?.key ?? "",
      value: setting?.value ?? "",
      description: setting?.description ?? "",
    } satisfies SettingForm);
  }, [open, setting, form]);

  function onSubmit(v: z.output<typeof settingForm>) {
    save.mutate(
      { id: setting?.id ?? null, name: v.name, key: v.key, value: v.value, description: v.description.trim() || null },
      {
        onSuccess: () => {
          toast.success(setting ? "配置已保存" : "配置已创建");
          onOpenChange(false);
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !save.isPending && onOpenChange(next)}>
      <DialogContent className="sm:max-w-2xl" data-testid="setting-dialog">
        <DialogHeader>
          <DialogTitle>{setting ? "编辑配置" : "新增配置"}</DialogTitle>
          <DialogDescription>
            所有登录用户都可读取配置的值，请勿在此保存密钥以外的敏感信息；含 Secret、ApiKey、Password、Token 的键仅平台管理员可读。
          </DialogDescription>
        </DialogHeader>
        <Form form={form} onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
          <FormField form={form} name="name" label="名称" required render={(field) => <Input {...field} data-testid="setting-name" />} />
          <FormField
            form={form}
            name="key"
            label="键"
            required
            description="字母、数字和 _ . : -，例如 Console.Faq"
            render={(field) => <Input {...field} className="font-mono" autoComplete="off" spellCheck={false} data-testid="setting-key" />}
          />
          <FormField
            form={form}
            name="value"
            label="值"
            className="sm:col-span-2"
            render={(field) => (
              <Textarea {...field} rows={8} className="font-mono text-xs" spellCheck={false} data-testid="setting-value" />
            )}
          />
          <FormField
            form={form}
            name="description"
            label="描述"
            className="sm:col-span-2"
            render={(field) => <Textarea {...field} rows={2} data-testid="setting-description" />}
          />
          <DialogFooter className="sm:col-span-2">
            <Button type="button" variant="outline" disabled={save.isPending} onClick={() => onOpenChange(false)}>
              取消
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="setting-submit">
              保存
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
