// Tab 修改密码: old password, new password typed twice. ChangePwd ends every session of the user, so on success the
// console says so and logs out (no server logout call: the session is gone already).
import type { z } from "zod";
import { ApiError } from "#shared/api/errors.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { NewPasswordFields } from "../../components/new-password-fields.tsx";
import { logout } from "../../lib/session.ts";
import { useChangePassword } from "./api/change-password.ts";
import { changePasswordForm, emptyPasswordValues } from "./schemas.ts";

const PASSWORD_CHANGED = "密码已修改，请重新登录";

export function ChangePasswordForm() {
  const form = useZodForm(changePasswordForm, { defaultValues: emptyPasswordValues });
  const change = useChangePassword();

  function onSubmit(values: z.output<typeof changePasswordForm>) {
    change.mutate(
      { oldPwd: values.oldPwd, newPwd: values.newPwd },
      {
        onSuccess: async () => {
          toast.success(PASSWORD_CHANGED);
          await logout({ callServer: false });
        },
        onError: (error) => {
          // The notice itself is shown by the global handler; this only points at the field.
          if (error instanceof ApiError && error.code === "WrongPassword") {
            form.setError("oldPwd", { type: "server", message: error.serverMessage ?? "原密码不正确" }, { shouldFocus: true });
          }
        },
      },
    );
  }

  return (
    <Card className="max-w-xl" data-testid="change-password">
      <CardHeader>
        <CardTitle>修改密码</CardTitle>
        <CardDescription>修改成功后，所有已登录的设备都将退出，需要使用新密码重新登录。</CardDescription>
      </CardHeader>
      <CardContent>
        <Form form={form} onSubmit={onSubmit} data-testid="change-password-form">
          <FormField
            form={form}
            name="oldPwd"
            label="原密码"
            required
            render={(field) => (
              <Input {...field} type="password" maxLength={128} autoComplete="current-password" data-testid="change-password-old" />
            )}
          />
          <NewPasswordFields form={form} confirm="confirmPwd" testId="change-password" />
          <div className="flex justify-end">
            <Button type="submit" loading={change.isPending} data-testid="change-password-submit">
              确认修改
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
