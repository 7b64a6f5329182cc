// /login (spec §2/§4): company (tenant) name, user name, password. The company is resolved through the by-name
// lookup first, so an unknown or disabled company is named as such; the host leaves it empty. 注册 leads to /register
// while the host allows new companies to sign themselves up.
import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { z } from "zod";
import { ApiError } from "#shared/api/errors.ts";
import { basicRoutes } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { LoginError, loginAndLoad } from "../../lib/session.ts";
import { usePublicSettings } from "./api/get-public-settings.ts";
import { AuthCard, AuthError } from "./auth-card.tsx";
import { ForgotPasswordDialog } from "./forgot-password-dialog.tsx";

/** The company last signed into (or just registered), offered on the next visit. */
export const LAST_TENANT_KEY = "login.lastTenantName";

const loginForm = z.object({
  tenantName: z.string().trim().max(64),
  userName: z.string().trim().min(1).max(256),
  password: z.string().min(1).max(128),
});

export function LoginPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const registrationOpen = usePublicSettings().data?.selfRegistrationEnabled === true;
  const form = useZodForm(loginForm, {
    defaultValues: { tenantName: localStorage.getItem(LAST_TENANT_KEY) ?? "", userName: "", password: "" },
  });

  async function onSubmit(values: z.infer<typeof loginForm>) {
    setError(null);
    try {
      const ok = await loginAndLoad(values);
      if (!ok) return;
      localStorage.setItem(LAST_TENANT_KEY, values.tenantName);
      navigate(basicRoutes.home, { replace: true });
    } catch (e) {
      const message = e instanceof LoginError || e instanceof ApiError ? e.message : "登录失败，请稍后重试";
      setError(message);
      toast.error(message);
    }
  }

  return (
    <AuthCard description="跨境卖家后台 · 请登录">
      <Form form={form} onSubmit={onSubmit} className="space-y-4" data-testid="login-form">
        <FormField
          form={form}
          name="tenantName"
          label="公司名称"
          description="平台管理员请留空"
          render={(field) => <Input {...field} autoComplete="organization" placeholder="公司名称" />}
        />
        <FormField
          form={form}
          name="userName"
          label="用户名"
          required
          render={(field) => <Input {...field} autoComplete="username" placeholder="用户名" />}
        />
        <FormField
          form={form}
          name="password"
          label="密码"
          required
          render={(field) => <Input {...field} type="password" autoComplete="current-password" placeholder="密码" />}
        />
        <AuthError message={error} testId="login-error" />
        <Button type="submit" className="w-full" loading={form.formState.isSubmitting} data-testid="login-submit">
          登录
        </Button>
        <div className="flex items-center justify-between">
          {registrationOpen ? (
            <Button variant="link" asChild className="h-auto p-0 text-sm">
              <Link to={basicRoutes.register} data-testid="register-link">
                注册
              </Link>
            </Button>
          ) : (
            <span />
          )}
          <ForgotPasswordDialog defaultTenantName={form.watch("tenantName")} />
        </div>
      </Form>
    </AuthCard>
  );
}
