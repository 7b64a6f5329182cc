// 分配给业务员 (AssignAccount, main account only): the chosen shops to one account of the tenant. The account's shop
// limit (limitMeliAccount) still holds; the server refuses an assignment past it and says so.
import { useEffect } from "react";
import { z } from "zod";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { FormSelect } from "../../components/form-select.tsx";
import type { UserOption } from "../../components/list/owner-filter.ts";
import { useAssignAccount } from "./api/edit-shops.ts";

const assignForm = z.object({ userId: z.string() });

export type AssignTarget = { ids: string[]; /** The shop's name when one shop is assigned. */ name?: string; ownerId?: string };

export function AssignDialog({ target, users, onClose }: { target: AssignTarget | null; users: UserOption[]; onClose: () => void }) {
  const form = useZodForm(assignForm, { defaultValues: { userId: "" } });
  const assign = useAssignAccount();
  useEffect(() => {
    if (target) form.reset({ userId: target.ownerId ?? "" });
  }, [target, form]);

  function onSubmit(v: z.output<typeof assignForm>) {
    if (!target) return;
    const to = users.find((u) => u.id === v.userId)?.name ?? "";
    assign.mutate(
      { ids: target.ids, userId: v.userId },
      {
        onSuccess: (r) => {
          if (r.count > 0) toast.success(`已将 ${r.count} 个店铺分配给 ${to}`);
          else toast.info(`所选店铺已属于 ${to}`);
          onClose();
        },
      },
    );
  }

  return (
    <Dialog open={!!target} onOpenChange={(open) => !open && !assign.isPending && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="shops-assign-dialog">
        <DialogHeader>
          <DialogTitle>分配给业务员</DialogTitle>
          <DialogDescription>
            {target?.name ? `店铺「${target.name}」` : `已选择的 ${target?.ids.length ?? 0} 个店铺`}
            将归所选账号管理，该账号即可使用这些店铺刊登和处理订单。
          </DialogDescription>
        </DialogHeader>
        <Form form={form} id="shops-assign-form" onSubmit={onSubmit}>
          <FormField
            form={form}
            name="userId"
            label="分配给"
            required
            render={(f) => (
              <FormSelect
                field={f}
                choices={users.map((u) => ({ value: u.id, label: u.name }))}
                placeholder="选择账号"
                testId="shops-assign-user"
                className="w-full"
              />
            )}
          />
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={assign.isPending}>
            取消
          </Button>
          <Button type="submit" form="shops-assign-form" loading={assign.isPending} data-testid="shops-assign-submit">
            确定
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
