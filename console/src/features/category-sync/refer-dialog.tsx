// Editing a category's reference name for sellers (UpdateRefer); blank clears it.
import { useEffect } from "react";
import { z } from "zod";
import type { MeliCategory } from "#shared/contract/category.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useUpdateRefer } from "./api/update-refer.ts";

const referForm = z.object({ refer: z.string().trim().max(200, "最多 200 个字符") });

export function ReferDialog({ category, onOpenChange }: { category: MeliCategory | null; onOpenChange: (open: boolean) => void }) {
  const edit = useUpdateRefer();
  const form = useZodForm(referForm, { defaultValues: { refer: "" } });

  useEffect(() => {
    if (category) form.reset({ refer: category.alias ?? "" });
  }, [category, form]);

  function onSubmit(v: z.output<typeof referForm>) {
    if (!category) return;
    edit.mutate(
      { site: category.site, cateId: category.cateId, refer: v.refer },
      {
        onSuccess: () => {
          toast.success("参考名已保存");
          onOpenChange(false);
        },
      },
    );
  }

  return (
    <Dialog open={!!category} onOpenChange={(next) => !edit.isPending && onOpenChange(next)}>
      <DialogContent data-testid="category-refer-dialog">
        <DialogHeader>
          <DialogTitle>类目参考名</DialogTitle>
          <DialogDescription>
            {category?.zh || category?.name}（{category?.cateId}）：卖家选择类目时看到的参考名，留空即清除
          </DialogDescription>
        </DialogHeader>
        <Form form={form} onSubmit={onSubmit}>
          <FormField
            form={form}
            name="refer"
            label="参考名"
            hideLabel
            render={(field) => <Input {...field} autoFocus maxLength={200} data-testid="category-refer-input" />}
          />
          <DialogFooter>
            <Button type="button" variant="outline" disabled={edit.isPending} onClick={() => onOpenChange(false)}>
              取消
            </Button>
            <Button type="submit" loading={edit.isPending} data-testid="category-refer-submit">
              保存
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
