// Sets a new password for a sub-account: asks the server for a single-use reset token (GetResetPwdToken), then sends
// it with the password typed here (ResetPwd). The sub-account's sessions end; it logs in with the new password.
import type { z } from "zod";
import type { SubUser } from "#shared/contract/users.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, useZodForm } from "#shared/ui/form.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { NewPasswordFields } from "../../components/new-password-fields.tsx";
import { useResetSubUserPassword } from "./api/edit-sub-users.ts";
import { resetPasswordForm } from "./schemas.ts";

export function ResetPasswordDialog({ user, onClose }: { user: SubUser | null; onClose: () => void }) {
  return (
    <Dialog open={!!user} onOpenChange={(open) => !open && onClose()}>
      {user && (
        <DialogContent className="sm:max-w-md" data-testid="reset-password-dialog">
          <ResetPasswordForm key={user.id} user={user} onDone={onClose} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function ResetPasswordForm({ user, onDone }: { user: SubUser; onDone: () => void }) {
  const form = useZodForm(resetPasswordForm, { defaultValues: { newPwd: "", confirm: "" } });
  const reset = useResetSubUserPassword();

  function onSubmit(values: z.output<typeof resetPasswordForm>) {
    reset.mutate(
      { userId: user.id, newPwd: values.newPwd },
      {
        onSuccess: () => {
          toast.success(`子账号 ${user.userName} 的密码已重置`);
          onDone();
        },
      },
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>重置密码</DialogTitle>
        <DialogDescription>
          为子账号 <span className="text-foreground font-medium">{user.userName}</span> 设置新密码，重置后该账号需使用新密码重新登录。
        </DialogDescription>
      </DialogHeader>
      <Form form={form} onSubmit={onSubmit}>
        <NewPasswordFields form={form} confirm="confirm" testId="reset-password" />
        <DialogFooter>
          <Button variant="outline" onClick={onDone}>
            取消
          </Button>
          <Button type="submit" loading={reset.isPending} data-testid="reset-password-submit">
            确认重置
          </Button>
        </DialogFooter>
      </Form>
    </>
  );
}
