// Forgotten password: a 6-digit code is mailed to the account's address (spec §7 account calls), with the resend
// button's 60 s countdown (spec §5); the code and a new password then reset it.
import { useState } from "react";
import { z } from "zod";
import { ApiError } from "#shared/api/errors.ts";
import { Button } from "#shared/ui/button.tsx";
import { CountdownButton } from "#shared/ui/countdown-button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { sessionApi } from "../../lib/api.ts";
import { resolveTenant } from "../../lib/session.ts";

const resetForm = z.object({
  tenantName: z.string().trim().max(64),
  email: z.string().trim().email("邮箱格式不正确"),
  code: z.string().trim().min(1),
  password: z.string().min(6, "密码至少 6 位").max(128),
});

export function ForgotPasswordDialog({ defaultTenantName }: { defaultTenantName: string }) {
  const [open, setOpen] = useState(false);
  const form = useZodForm(resetForm, { defaultValues: { tenantName: defaultTenantName, email: "", code: "", password: "" } });

  async function tenantId() {
    return (await resolveTenant(form.getValues("tenantName"))).id;
  }

  async function sendCode() {
    const valid = await form.trigger("email");
    if (!valid) throw new Error("invalid email");
    try {
      const tenant = await tenantId();
      await sessionApi.account.sendPasswordResetCode({ email: form.getValues("email") }, { tenant });
      toast.success("验证码已发送，请查收邮件");
    } catch (e) {
      toast.error(e instanceof Error ? e.message : "发送失败");
      throw e;
    }
  }

  async function onSubmit(v: z.infer<typeof resetForm>) {
    try {
      const tenant = await tenantId();
      await sessionApi.account.resetPassword({ email: v.email, resetToken: v.code, password: v.password }, { tenant });
      toast.success("密码已重置，请使用新密码登录");
      setOpen(false);
    } catch (e) {
      toast.error(e instanceof ApiError || e instanceof Error ? e.message : "重置失败");
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) form.reset({ tenantName: defaultTenantName, email: "", code: "", password: "" });
      }}
    >
      <DialogTrigger asChild>
        <Button variant="link" type="button" className="h-auto p-0 text-sm">
          忘记密码？
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>找回密码</DialogTitle>
          <DialogDescription>验证码将发送到账号绑定的邮箱</DialogDescription>
        </DialogHeader>
        <Form form={form} onSubmit={onSubmit} className="space-y-4">
          <FormField form={form} name="tenantName" label="公司名称" render={(f) => <Input {...f} />} />
          <FormField form={form} name="email" label="邮箱" required render={(f) => <Input {...f} type="email" autoComplete="email" />} />
          <FormField
            form={form}
            name="code"
            label="验证码"
            required
            render={(f) => (
              <div className="flex gap-2">
                <Input {...f} inputMode="numeric" autoComplete="one-time-code" />
                <CountdownButton onSend={sendCode} />
              </div>
            )}
          />
          <FormField
            form={form}
            name="password"
            label="新密码"
            required
            render={(f) => <Input {...f} type="password" autoComplete="new-password" />}
          />
          <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
            重置密码
          </Button>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
