// /register: a new company signs itself up (POST /api/account/register opens the tenant with the registrant as its
// main account), offered while the host's 开放注册 (Account.IsSelfRegistrationEnabled) is on. The form checks the
// contract's rules before sending; the server's refusals (company name taken, registration closed, a rule) are shown
// on the field they concern and above the button. Once registered the new main account is signed in.
import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import { ApiError } from "#shared/api/errors.ts";
import { basicRoutes } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Loading } from "#shared/ui/spinner.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { sessionApi } from "../../lib/api.ts";
import { LoginError, loginAndLoad } from "../../lib/session.ts";
import { publicSettingsKeys, usePublicSettings } from "./api/get-public-settings.ts";
import { AuthCard, AuthError } from "./auth-card.tsx";
import { LAST_TENANT_KEY } from "./login-page.tsx";
import type { z } from "zod";
import { emptyRegisterValues, registerFields, registerForm, type RegisterFormValues } from "./schemas.ts";

const registerMessages = {
  closed: "系统未开放注册，请联系平台管理员开通账号",
  registered: "注册成功",
  failed: "注册失败，请稍后重试",
  signInFailed: "注册成功，请使用新账号登录",
};

/** The server's refusals that concern one field (a business error names none of its own). */
const fieldOfCode: Record<string, keyof RegisterFormValues> = {
  DuplicateTenantName: "tenantName",
  DuplicateUserName: "userName",
  DuplicateEmail: "emailAddress",
};

export function RegisterPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const publicSettings = usePublicSettings();
  const [error, setError] = useState<string | null>(null);
  const form = useZodForm(registerForm, { defaultValues: emptyRegisterValues });

  /** Puts the server's refusal on the fields it names; answers whether any was. */
  function showOnFields(e: ApiError): boolean {
    let shown = false;
    for (const v of e.validationErrors ?? []) {
      for (const member of v.members) {
        const field = registerFields.find((f) => f.toLowerCase() === member.toLowerCase());
        if (!field) continue;
        form.setError(field, { type: "server", message: v.message }, { shouldFocus: !shown });
        shown = true;
      }
    }
    const field = e.code ? fieldOfCode[e.code] : undefined;
    if (field && e.serverMessage) {
      form.setError(field, { type: "server", message: e.serverMessage }, { shouldFocus: !shown });
      shown = true;
    }
    return shown;
  }

  async function onSubmit(values: z.output<typeof registerForm>) {
    setError(null);
    try {
      // No tenant header: a sign-up opens a company, it does not join one.
      await sessionApi.account.register(
        { tenantName: values.tenantName, userName: values.userName, emailAddress: values.emailAddress, password: values.password },
        { tenant: null },
      );
    } catch (e) {
      const message = e instanceof ApiError ? e.message : registerMessages.failed;
      if (e instanceof ApiError) {
        showOnFields(e);
        // Closed since the screen was opened: show it closed.
        if (e.code === "SelfRegistrationDisabled") void queryClient.invalidateQueries({ queryKey: publicSettingsKeys.public() });
      }
      setError(message);
      toast.error(message);
      return;
    }
    // The login screen offers the new company next time, and now if signing in fails.
    localStorage.setItem(LAST_TENANT_KEY, values.tenantName);
    toast.success(registerMessages.registered);
    try {
      const ok = await loginAndLoad({ tenantName: values.tenantName, userName: values.userName, password: values.password });
      if (ok) navigate(basicRoutes.home, { replace: true });
    } catch (e) {
      toast.error(e instanceof LoginError || e instanceof ApiError ? e.message : registerMessages.signInFailed);
      navigate(basicRoutes.login, { replace: true });
    }
  }

  const closed = publicSettings.data?.selfRegistrationEnabled === false;
  return (
    <AuthCard description="注册新公司 · 注册人为公司主账号">
      {publicSettings.isPending ? (
        <Loading className="h-40" />
      ) : closed ? (
        <div className="space-y-4 text-center" data-testid="register-closed">
          <p className="text-sm text-muted-foreground">{registerMessages.closed}</p>
          <Button asChild className="w-full">
            <Link to={basicRoutes.login}>返回登录</Link>
          </Button>
        </div>
      ) : (
        <Form form={form} onSubmit={onSubmit} className="space-y-4" data-testid="register-form">
          <FormField
            form={form}
            name="tenantName"
            label="公司名称"
            required
            description="登录时填写；2–64 个字母、数字、汉字或 _ . -"
            render={(field) => <Input {...field} autoComplete="organization" placeholder="公司名称" maxLength={64} />}
          />
          <FormField
            form={form}
            name="userName"
            label="用户名"
            required
            description="公司主账号的登录名"
            render={(field) => <Input {...field} autoComplete="username" placeholder="用户名" maxLength={64} />}
          />
          <FormField
            form={form}
            name="emailAddress"
            label="邮箱"
            required
            description="用于找回密码"
            render={(field) => <Input {...field} type="email" autoComplete="email" placeholder="邮箱" maxLength={256} />}
          />
          <FormField
            form={form}
            name="password"
            label="密码"
            required
            description="至少6位，需同时包含字母和数字"
            render={(field) => <Input {...field} type="password" autoComplete="new-password" placeholder="密码" maxLength={128} />}
          />
          <FormField
            form={form}
            name="confirmPassword"
            label="确认密码"
            required
            render={(field) => <Input {...field} type="password" autoComplete="new-password" placeholder="再次输入密码" maxLength={128} />}
          />
          <AuthError message={error} testId="register-error" />
          <Button type="submit" className="w-full" loading={form.formState.isSubmitting} data-testid="register-submit">
            注册
          </Button>
          <p className="text-center text-sm text-muted-foreground">
            已有账号？
            <Button variant="link" asChild className="h-auto p-0 text-sm">
              <Link to={basicRoutes.login} data-testid="login-link">
                返回登录
              </Link>
            </Button>
          </p>
        </Form>
      )}
    </AuthCard>
  );
}
