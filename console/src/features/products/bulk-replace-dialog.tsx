// 查找替换 (ReplaceKeyword): a word replaced in the titles and/or descriptions of every language.
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { BulkDialog, useBulkSubmit, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { replaceBody, replaceForm } from "./bulk-forms.ts";
import { FormCheck } from "./form-check.tsx";

export function BulkReplaceDialog({ target, onClose }: BulkDialogBaseProps) {
  const form = useZodForm(replaceForm, {
    defaultValues: { keyword: "", replaceText: "", isReplaceTitle: true, isReplaceDescription: false, isIgnoreCase: true },
  });
  const { submit, pending } = useBulkSubmit("查找替换", onClose);
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title="查找替换"
      description="在所有语言的标题或描述中查找并替换；替换内容留空即删除该词。"
      formId="products-replace-form"
      pending={pending}
      testId="products-replace-dialog"
    >
      <Form form={form} id="products-replace-form" onSubmit={(v) => submit({ edit: "replace", body: replaceBody(target, v) })}>
        <FormField
          form={form}
          name="keyword"
          label="查找"
          required
          render={(f) => <Input {...f} maxLength={200} data-testid="products-replace-keyword" />}
        />
        <FormField
          form={form}
          name="replaceText"
          label="替换为"
          render={(f) => <Input {...f} maxLength={1000} placeholder="留空即删除" data-testid="products-replace-text" />}
        />
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <FormField
            form={form}
            name="isReplaceTitle"
            label="标题"
            hideLabel
            render={(f) => <FormCheck field={f} text="替换标题" testId="products-replace-title" />}
          />
          <FormField
            form={form}
            name="isReplaceDescription"
            label="描述"
            hideLabel
            render={(f) => <FormCheck field={f} text="替换描述" testId="products-replace-description" />}
          />
          <FormField
            form={form}
            name="isIgnoreCase"
            label="忽略大小写"
            hideLabel
            render={(f) => <FormCheck field={f} text="忽略大小写" testId="products-replace-ignore-case" />}
          />
        </div>
      </Form>
    </BulkDialog>
  );
}
