// The tenant list's dialogs: open a tenant account, edit a remark, reset the main account's password (showing the
// answer) and view the main account's summary.
import { Copy, RefreshCw } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { z } from "zod";
import { email, password, phone, userName } from "#shared/contract/common.ts";
import { tenantName, type TenantListItem } from "#shared/contract/hosted.ts";
import type { ResetTenantPasswordResult } from "#shared/contract/hosted.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { DateInput } from "#shared/ui/date-input.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Loading } from "#shared/ui/spinner.tsx";
import { Tabs, TabsList, TabsTrigger } from "#shared/ui/tabs.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useTenantUserInfo } from "./api/get-tenants.ts";
import { useEditTenantRemark, useOpenTenant, useResetTenantPassword } from "./api/manage-tenants.ts";
import { formatAmount, formatDateTime, formatDay } from "../../lib/format.ts";
import { copyText, generatePassword, isLocked, paymentTypeLabel } from "./format.ts";

type DialogProps = { open: boolean; onOpenChange: (open: boolean) => void };
type TenantDialogProps = { tenant: TenantListItem | null; onOpenChange: (open: boolean) => void };

async function copyWithNotice(text: string) {
  if (await copyText(text)) toast.success("已复制");
  else toast.error("复制失败，请手动复制");
}

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

// ---------------------------------------------------------------------------------------------------------------
// Open a tenant account

const optionalEmail = z
  .string()
  .trim()
  .max(256)
  .refine((v) => v === "" || email.safeParse(v).success, "邮箱格式不正确");

const openTenantForm = z.object({
  tenantName,
  userName,
  pwd: password,
  email: optionalEmail,
  phoneNumber: phone,
  remark: z.string().max(500, "备注最多500个字符"),
  /** yyyy-mm-dd (local), or empty for no expiry. */
  accountExpireTime: z.string().refine((v) => v === "" || /^\d{4}-\d{2}-\d{2}$/.test(v), "日期格式不正确"),
});
type OpenTenantForm = z.input<typeof openTenantForm>;

const emptyOpenForm: OpenTenantForm = {
  tenantName: "",
  userName: "",
  pwd: "",
  email: "",
  phoneNumber: "",
  remark: "",
  accountExpireTime: "",
};

export function OpenTenantDialog({ open, onOpenChange }: DialogProps) {
  const openTenant = useOpenTenant();
  const form = useZodForm(openTenantForm, { defaultValues: emptyOpenForm });

  useEffect(() => {
    if (open) form.reset(emptyOpenForm);
  }, [open, form]);

  function onSubmit(v: z.output<typeof openTenantForm>) {
    openTenant.mutate(
      {
        tenantName: v.tenantName,
        userName: v.userName,
        pwd: v.pwd,
        email: v.email || null,
        phoneNumber: v.phoneNumber || null,
        remark: v.remark.trim() || null,
        // The account works through the chosen day (local time).
        accountExpireTime: v.accountExpireTime ? new Date(`${v.accountExpireTime}T23:59:59`).toISOString() : null,
      },
      {
        onSuccess: (summary) => {
          toast.success(`已开通公司 ${summary.tenantName ?? v.tenantName}`);
          onOpenChange(false);
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !openTenant.isPending && onOpenChange(next)}>
      <DialogContent className="sm:max-w-xl" data-testid="open-tenant-dialog">
        <DialogHeader>
          <DialogTitle>开通租户</DialogTitle>
          <DialogDescription>创建公司及其主账号；主账号用公司名称、用户名和密码登录。</DialogDescription>
        </DialogHeader>
        <Form form={form} onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
          <FormField
            form={form}
            name="tenantName"
            label="公司名称"
            required
            render={(field) => <Input {...field} autoComplete="off" placeholder="字母、数字和 _ . -" data-testid="open-tenant-name" />}
          />
          <FormField
            form={form}
            name="userName"
            label="主账号用户名"
            required
            render={(field) => <Input {...field} autoComplete="off" data-testid="open-tenant-user" />}
          />
          <FormField
            form={form}
            name="pwd"
            label="密码"
            required
            description="至少6位，包含字母和数字"
            render={(field) => (
              <div className="flex gap-2">
                <Input {...field} autoComplete="new-password" data-testid="open-tenant-password" />
                <Button
                  type="button"
                  variant="outline"
                  size="icon"
                  aria-label="随机生成密码"
                  title="随机生成密码"
                  onClick={() => form.setValue("pwd", generatePassword(), { shouldValidate: true })}
                  data-testid="open-tenant-generate"
                >
                  <RefreshCw />
                </Button>
              </div>
            )}
          />
          <FormField
            form={form}
            name="accountExpireTime"
            label="到期日期"
            description="留空表示不限期"
            render={(field) => (
              <DateInput
                value={field.value ?? ""}
                onChange={field.onChange}
                min={today()}
                aria-label="到期日期"
                data-testid="open-tenant-expire"
              />
            )}
          />
          <FormField
            form={form}
            name="email"
            label="邮箱"
            render={(field) => <Input {...field} type="email" data-testid="open-tenant-email" />}
          />
          <FormField
            form={form}
            name="phoneNumber"
            label="手机号"
            render={(field) => <Input {...field} type="tel" data-testid="open-tenant-phone" />}
          />
          <FormField
            form={form}
            name="remark"
            label="备注"
            className="sm:col-span-2"
            render={(field) => <Textarea {...field} rows={2} data-testid="open-tenant-remark" />}
          />
          <DialogFooter className="sm:col-span-2">
            <Button type="button" variant="outline" disabled={openTenant.isPending} onClick={() => onOpenChange(false)}>
              取消
            </Button>
            <Button type="submit" loading={openTenant.isPending} data-testid="open-tenant-submit">
              开通
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Edit a tenant's remark

const remarkForm = z.object({ remark: z.string().max(500, "备注最多500个字符") });

export function TenantRemarkDialog({ tenant, onOpenChange }: TenantDialogProps) {
  const edit = useEditTenantRemark();
  const form = useZodForm(remarkForm, { defaultValues: { remark: "" } });

  useEffect(() => {
    if (tenant) form.reset({ remark: tenant.remark ?? "" });
  }, [tenant, form]);

  function onSubmit(v: z.output<typeof remarkForm>) {
    if (!tenant) return;
    edit.mutate(
      { id: tenant.id, remark: v.remark },
      {
        onSuccess: () => {
          toast.success("备注已保存");
          onOpenChange(false);
        },
      },
    );
  }

  return (
    <Dialog open={!!tenant} onOpenChange={(next) => !edit.isPending && onOpenChange(next)}>
      <DialogContent data-testid="tenant-remark-dialog">
        <DialogHeader>
          <DialogTitle>编辑备注</DialogTitle>
          <DialogDescription>公司：{tenant?.tenantName}（留空即清除备注）</DialogDescription>
        </DialogHeader>
        <Form form={form} onSubmit={onSubmit}>
          <FormField
            form={form}
            name="remark"
            label="备注"
            hideLabel
            render={(field) => <Textarea {...field} rows={4} autoFocus data-testid="tenant-remark-input" />}
          />
          <DialogFooter>
            <Button type="button" variant="outline" disabled={edit.isPending} onClick={() => onOpenChange(false)}>
              取消
            </Button>
            <Button type="submit" loading={edit.isPending} data-testid="tenant-remark-submit">
              保存
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Reset the main account's password

type ResetMode = "generate" | "custom";
const customPasswordForm = z.object({ pwd: password });

export function ResetTenantPasswordDialog({ tenant, onOpenChange }: TenantDialogProps) {
  const reset = useResetTenantPassword();
  const [mode, setMode] = useState<ResetMode>("generate");
  const [answer, setAnswer] = useState<ResetTenantPasswordResult | null>(null);
  const form = useZodForm(customPasswordForm, { defaultValues: { pwd: "" } });

  useEffect(() => {
    if (!tenant) return;
    setMode("generate");
    setAnswer(null);
    form.reset({ pwd: "" });
  }, [tenant, form]);

  function run(pwd?: string) {
    if (!tenant) return;
    reset.mutate({ tenantId: tenant.id, pwd }, { onSuccess: (result) => setAnswer(result) });
  }

  return (
    <Dialog open={!!tenant} onOpenChange={(next) => !reset.isPending && onOpenChange(next)}>
      <DialogContent data-testid="reset-password-dialog">
        <DialogHeader>
          <DialogTitle>重置主账号密码</DialogTitle>
          <DialogDescription>
            公司：{tenant?.tenantName}
            {tenant?.userName ? ` · 主账号：${tenant.userName}` : ""}
          </DialogDescription>
        </DialogHeader>
        {answer ? (
          <div className="flex flex-col gap-3" data-testid="reset-password-result">
            {answer.password ? (
              <>
                <p className="text-sm">
                  账号 <span className="font-medium">{answer.userName}</span> 的新密码：
                </p>
                <div className="bg-muted flex items-center gap-2 rounded-md border px-3 py-2">
                  <code className="flex-1 font-mono text-base tracking-wider select-all" data-testid="reset-password-value">
                    {answer.password}
                  </code>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label="复制密码"
                    onClick={() => void copyWithNotice(answer.password!)}
                    data-testid="reset-password-copy"
                  >
                    <Copy />
                  </Button>
                </div>
                <p className="text-muted-foreground text-xs">
                  该密码只显示这一次，请妥善保存并告知用户。该账号已在所有设备退出登录，登录锁定已解除。
                </p>
              </>
            ) : (
              <p className="text-sm">
                账号 <span className="font-medium">{answer.userName}</span>{" "}
                的密码已设置为您输入的新密码；该账号已在所有设备退出登录，登录锁定已解除。
              </p>
            )}
            <DialogFooter>
              <Button onClick={() => onOpenChange(false)} data-testid="reset-password-done">
                完成
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <div className="flex flex-col gap-4">
            <Tabs value={mode} onValueChange={(v) => setMode(v as ResetMode)}>
              <TabsList aria-label="重置方式">
                <TabsTrigger value="generate" data-testid="reset-password-mode-generate">
                  自动生成
                </TabsTrigger>
                <TabsTrigger value="custom" data-testid="reset-password-mode-custom">
                  指定密码
                </TabsTrigger>
              </TabsList>
            </Tabs>
            {mode === "generate" ? (
              <>
                <p className="text-muted-foreground text-sm">系统将生成一个随机密码并显示一次。重置后该账号需用新密码重新登录。</p>
                <DialogFooter>
                  <Button type="button" variant="outline" disabled={reset.isPending} onClick={() => onOpenChange(false)}>
                    取消
                  </Button>
                  <Button loading={reset.isPending} onClick={() => run()} data-testid="reset-password-submit">
                    重置密码
                  </Button>
                </DialogFooter>
              </>
            ) : (
              <Form form={form} onSubmit={(v) => run(v.pwd)}>
                <FormField
                  form={form}
                  name="pwd"
                  label="新密码"
                  required
                  description="至少6位，包含字母和数字"
                  render={(field) => <Input {...field} autoComplete="new-password" data-testid="reset-password-input" />}
                />
                <DialogFooter>
                  <Button type="button" variant="outline" disabled={reset.isPending} onClick={() => onOpenChange(false)}>
                    取消
                  </Button>
                  <Button type="submit" loading={reset.isPending} data-testid="reset-password-submit">
                    重置密码
                  </Button>
                </DialogFooter>
              </Form>
            )}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The main account's summary

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="text-sm break-all">{children}</dd>
    </div>
  );
}

export function TenantUserInfoDialog({ tenant, onOpenChange }: TenantDialogProps) {
  const { data: info, isPending, isError } = useTenantUserInfo(tenant?.id ?? null);
  return (
    <Dialog open={!!tenant} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl" data-testid="tenant-info-dialog">
        <DialogHeader>
          <DialogTitle>主账号信息</DialogTitle>
          <DialogDescription>公司：{tenant?.tenantName}</DialogDescription>
        </DialogHeader>
        {isPending ? (
          <Loading className="h-40" />
        ) : isError || !info ? (
          <p className="text-muted-foreground py-8 text-center text-sm">主账号信息加载失败</p>
        ) : (
          <dl className="grid grid-cols-2 gap-x-6 gap-y-4 sm:grid-cols-3" data-testid="tenant-info">
            <Field label="用户名">{info.userName}</Field>
            <Field label="姓名">{info.name || "-"}</Field>
            <Field label="状态">
              <span className="flex flex-wrap gap-1">
                {info.isActive ? <Badge variant="success">启用</Badge> : <Badge variant="destructive">停用</Badge>}
                {isLocked(info.lockoutEnd) && <Badge variant="warning">锁定至 {formatDateTime(info.lockoutEnd)}</Badge>}
              </span>
            </Field>
            <Field label="邮箱">{info.email || "-"}</Field>
            <Field label="手机号">
              {info.phoneNumber || "-"}
              {info.phoneNumber && info.phoneNumberConfirmed ? "（已验证）" : ""}
            </Field>
            <Field label="余额">{formatAmount(info.balance)}</Field>
            <Field label="付费方式">{paymentTypeLabel(info.accountPaymentType)}</Field>
            <Field label="到期时间">{info.accountExpireTime ? formatDay(info.accountExpireTime) : "不限"}</Field>
            <Field label="子账号数">{info.subAccountCount}</Field>
            <Field label="美客多店铺数">{info.meliAccountCount}</Field>
            <Field label="用户 ID">
              <span className="font-mono text-xs">{info.id}</span>
            </Field>
            <Field label="公司 ID">
              <span className="font-mono text-xs">{info.tenantId ?? "-"}</span>
            </Field>
          </dl>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            关闭
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
