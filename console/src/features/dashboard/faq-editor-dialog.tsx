// The host's FAQ editor: the entries as question/answer rows (add, remove, reorder), saved as the setting Console.Faq in
// the JSON format of faq-format.ts.
import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useEffect } from "react";
import { useFieldArray } from "react-hook-form";
import { z } from "zod";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useSaveFaq } from "./api/save-faq.ts";
import { FAQ_ANSWER_MAX, FAQ_QUESTION_MAX, FAQ_VALUE_MAX, serializeFaq, type FaqItem } from "./faq-format.ts";

const faqForm = z.object({
  items: z.array(
    z.object({
      q: z.string().trim().min(1, "请输入问题").max(FAQ_QUESTION_MAX, `问题最多${FAQ_QUESTION_MAX}个字符`),
      a: z.string().trim().max(FAQ_ANSWER_MAX, `答案最多${FAQ_ANSWER_MAX}个字符`),
    }),
  ),
});
type FaqForm = z.input<typeof faqForm>;

const blank = (): FaqItem => ({ q: "", a: "" });

export function FaqEditorDialog({ open, onOpenChange, items }: { open: boolean; onOpenChange: (open: boolean) => void; items: FaqItem[] }) {
  const save = useSaveFaq();
  const form = useZodForm(faqForm, { defaultValues: { items: [] } });
  const rows = useFieldArray({ control: form.control, name: "items" });

  // Each opening starts from what is stored now.
  useEffect(() => {
    if (open) form.reset({ items: items.length ? items.map((i) => ({ ...i })) : [blank()] } satisfies FaqForm);
  }, [open, items, form]);

  function onSubmit(values: z.output<typeof faqForm>) {
    if (serializeFaq(values.items).length > FAQ_VALUE_MAX) {
      form.setError("root", { message: "内容过长，请精简后再保存" });
      return;
    }
    save.mutate(values.items, {
      onSuccess: () => {
        toast.success("常见问题已保存");
        onOpenChange(false);
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !save.isPending && onOpenChange(next)}>
      <DialogContent className="sm:max-w-3xl" data-testid="faq-editor">
        <DialogHeader>
          <DialogTitle>编辑常见问题</DialogTitle>
          <DialogDescription>按顺序展示给所有用户；答案按原样换行显示。</DialogDescription>
        </DialogHeader>
        <Form form={form} onSubmit={onSubmit} className="gap-3">
          <div className="flex max-h-[60vh] flex-col gap-3 overflow-y-auto pr-1">
            {rows.fields.length === 0 && (
              <p className="text-muted-foreground py-6 text-center text-sm">暂无常见问题，点击「添加问题」开始编辑</p>
            )}
            {rows.fields.map((row, i) => (
              <div key={row.id} className="bg-muted/30 flex flex-col gap-2 rounded-lg border p-3" data-testid={`faq-editor-row-${i}`}>
                <div className="flex items-center justify-between">
                  <span className="text-muted-foreground text-xs">问题 {i + 1}</span>
                  <div className="flex gap-1">
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="size-7"
                      aria-label="上移"
                      disabled={i === 0}
                      onClick={() => rows.move(i, i - 1)}
                      data-testid={`faq-editor-up-${i}`}
                    >
                      <ArrowUp />
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="size-7"
                      aria-label="下移"
                      disabled={i === rows.fields.length - 1}
                      onClick={() => rows.move(i, i + 1)}
                      data-testid={`faq-editor-down-${i}`}
                    >
                      <ArrowDown />
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="text-destructive hover:text-destructive size-7"
                      aria-label="删除"
                      onClick={() => rows.remove(i)}
                      data-testid={`faq-editor-remove-${i}`}
                    >
                      <Trash2 />
                    </Button>
                  </div>
                </div>
                <FormField
                  form={form}
                  name={`items.${i}.q`}
                  label="问题"
                  required
                  render={(field) => <Input {...field} placeholder="例如：如何采集商品？" data-testid={`faq-editor-q-${i}`} />}
                />
                <FormField
                  form={form}
                  name={`items.${i}.a`}
                  label="答案"
                  render={(field) => <Textarea {...field} rows={3} placeholder="答案内容" data-testid={`faq-editor-a-${i}`} />}
                />
              </div>
            ))}
          </div>
          <Button type="button" variant="outline" className="self-start" onClick={() => rows.append(blank())} data-testid="faq-editor-add">
            <Plus />
            添加问题
          </Button>
          {form.formState.errors.root?.message && (
            <p role="alert" className="text-destructive text-sm">
              {form.formState.errors.root.message}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" disabled={save.isPending} onClick={() => onOpenChange(false)}>
              取消
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="faq-editor-save">
              保存
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
