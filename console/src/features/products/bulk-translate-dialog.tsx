// 翻译 (TranslateProduct): titles (and descriptions) of the selected products from one language (or each product's
// own display language) to es / pt / en, through the chosen or the default service. The server runs it as a task;
// the dialog follows it to the end, then the list reloads.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { TaskType } from "#shared/contract/enums.ts";
import { translateLanguages } from "#shared/contract/product.ts";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useTranslateProducts } from "./api/bulk-edit-products.ts";
import { productKeys } from "./api/get-products.ts";
import { BulkDialog, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { AUTO_LANGUAGE, DEFAULT_PROVIDER, translateBody, translateForm } from "./bulk-forms.ts";
import { FormCheck } from "./form-check.tsx";
import { FormSelect } from "../../components/form-select.tsx";
import { TaskProgressDialog, useTaskProgress } from "../../components/task/task-progress.tsx";
import { EDIT_LANGUAGES, languageName, providerOptions } from "./product-names.ts";

const fromChoices = [
  { value: AUTO_LANGUAGE, label: "自动（商品的显示标题语言）" },
  ...EDIT_LANGUAGES.map((l) => ({ value: l, label: languageName(l) })),
];
const toChoices = translateLanguages.map((l) => ({ value: l, label: languageName(l) }));
const providerChoices = [{ value: DEFAULT_PROVIDER, label: "默认（系统设置）" }, ...providerOptions];

export function BulkTranslateDialog({ target, onClose }: BulkDialogBaseProps) {
  const form = useZodForm(translateForm, {
    defaultValues: { from: "zh", to: "es", isContainsDescription: false, provider: DEFAULT_PROVIDER },
  });
  const start = useTranslateProducts();
  const [taskId, setTaskId] = useState<string | null>(null);

  if (taskId) return <TranslateProgressDialog taskId={taskId} onClose={onClose} />;
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title="翻译"
      verb="翻译"
      description="翻译结果写入目标语言的标题（和描述），已有的内容会被覆盖。"
      formId="products-translate-form"
      pending={start.isPending}
      submitText="开始翻译"
      testId="products-translate-dialog"
    >
      <Form
        form={form}
        id="products-translate-form"
        onSubmit={(v) =>
          start.mutate(translateBody(target, v), {
            onSuccess: (r) => {
              if (r.taskId) setTaskId(r.taskId);
              else {
                toast.info("没有需要翻译的商品");
                onClose();
              }
            },
          })
        }
      >
        <div className="grid grid-cols-2 gap-4">
          <FormField
            form={form}
            name="from"
            label="源语言"
            render={(f) => <FormSelect field={f} choices={fromChoices} testId="products-translate-from" />}
          />
          <FormField
            form={form}
            name="to"
            label="目标语言"
            render={(f) => <FormSelect field={f} choices={toChoices} testId="products-translate-to" />}
          />
        </div>
        <FormField
          form={form}
          name="provider"
          label="翻译服务"
          render={(f) => <FormSelect field={f} choices={providerChoices} testId="products-translate-provider" />}
        />
        <FormField
          form={form}
          name="isContainsDescription"
          label="描述"
          hideLabel
          render={(f) => <FormCheck field={f} text="同时翻译描述" testId="products-translate-description" />}
        />
      </Form>
    </BulkDialog>
  );
}

function TranslateProgressDialog({ taskId, onClose }: { taskId: string; onClose: () => void }) {
  const state = useTaskProgress(taskId, TaskType.TranslateProducts);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!state.done) return;
    void queryClient.invalidateQueries({ queryKey: productKeys.all });
    if (state.succeeded) toast.success("翻译完成");
    else toast.error(`翻译未完成${state.task?.taskRemark ? `：${state.task.taskRemark}` : ""}`);
  }, [state.done, state.succeeded, state.task?.taskRemark, queryClient]);
  return (
    <TaskProgressDialog
      state={state}
      onClose={onClose}
      titles={{ running: "翻译中" }}
      description="翻译在后台进行，关闭窗口不影响；也可在任务中心查看进度。"
      testId="products-translate-progress"
      closeText="完成"
      closePrimary
    />
  );
}
