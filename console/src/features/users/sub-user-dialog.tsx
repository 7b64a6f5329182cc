// The create and edit dialogs of a sub-account: account fields (create only), contact, per-user limits (blank = no
// limit), the page-collection switch and a remark. The edit dialog loads the account fresh and sends its concurrency
// stamp back; a 409 means someone changed it meanwhile: the dialog says so and shows the current data.
import { useEffect, useState, type ComponentProps } from "react";
import type { UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import type { SubUser } from "#shared/contract/users.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Switch } from "#shared/ui/switch.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { isConflict } from "../../lib/query-client.ts";
import { useCreateSubUser, useUpdateSubUser } from "./api/edit-sub-users.ts";
import { useSubUser } from "./api/get-sub-users.ts";
import {
  LIMIT_MAX,
  createBodyOf,
  createSubUserForm,
  editSubUserForm,
  editValuesOf,
  emptyCreateValues,
  updateBodyOf,
  type EditSubUserFormValues,
} from "./schemas.ts";

type EditForm = UseFormReturn<EditSubUserFormValues, unknown, z.output<typeof editSubUserForm>>;

const LIMIT_HINT = "留空表示不限";

/** The fields both dialogs share (the create form has the same ones plus user name and password). */
function CommonFields({ form }: { form: EditForm }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          form={form}
          name="email"
          label="邮箱"
          render={(field) => <Input {...field} type="email" maxLength={256} placeholder="选填" data-testid="sub-user-email" />}
        />
        <FormField
          form={form}
          name="phoneNumber"
          label="手机号"
          render={(field) => <Input {...field} inputMode="tel" maxLength={32} placeholder="选填" data-testid="sub-user-phone" />}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField
          form={form}
          name="limitMeliAccount"
          label="店铺数上限"
          description={LIMIT_HINT}
          render={(field) => <LimitInput {...field} data-testid="sub-user-limit-meli" />}
        />
        <FormField
          form={form}
          name="collectCount"
          label="采集数上限"
          description={LIMIT_HINT}
          render={(field) => <LimitInput {...field} data-testid="sub-user-limit-collect" />}
        />
        <FormField
          form={form}
          name="productCount"
          label="产品数上限"
          description={LIMIT_HINT}
          render={(field) => <LimitInput {...field} data-testid="sub-user-limit-product" />}
        />
      </div>
      <FormField
        form={form}
        name="isShowPageCrwal"
        label="允许页面采集"
        description="开启后该子账号可使用整页采集功能"
        render={({ value, onChange, onBlur, ref, name, ...aria }) => (
          <Switch
            {...aria}
            ref={ref}
            name={name}
            checked={value}
            onCheckedChange={onChange}
            onBlur={onBlur}
            data-testid="sub-user-page-crawl"
          />
        )}
      />
      <FormField
        form={form}
        name="remark"
        label="备注"
        render={(field) => <Textarea {...field} maxLength={500} rows={3} placeholder="选填，最多500个字符" data-testid="sub-user-remark" />}
      />
    </>
  );
}

function LimitInput(props: ComponentProps<typeof Input>) {
  return <Input {...props} type="number" inputMode="numeric" min={0} max={LIMIT_MAX} step={1} placeholder="不限" />;
}

export function CreateSubUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const form = useZodForm(createSubUserForm, { defaultValues: emptyCreateValues });
  const create = useCreateSubUser();

  useEffect(() => {
    if (open) form.reset(emptyCreateValues);
  }, [open, form]);

  function onSubmit(values: z.output<typeof createSubUserForm>) {
    create.mutate(createBodyOf(values), {
      onSuccess: (user) => {
        toast.success(`子账号 ${user.userName} 已创建`);
        onOpenChange(false);
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl" data-testid="sub-user-dialog" data-mode="create">
        <DialogHeader>
          <DialogTitle>新增子账号</DialogTitle>
          <DialogDescription>子账号使用本公司名称登录，可在下方限制其可用的店铺、采集与产品数量。</DialogDescription>
        </DialogHeader>
        <Form form={form} onSubmit={onSubmit}>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              form={form}
              name="userName"
              label="用户名"
              required
              description="2-64位，可含字母、数字和 _ . @ + -"
              render={(field) => <Input {...field} maxLength={64} autoComplete="off" data-testid="sub-user-username" />}
            />
            <FormField
              form={form}
              name="pwd"
              label="密码"
              required
              description="至少6位，需同时包含字母和数字"
              render={(field) => (
                <Input {...field} type="password" maxLength={128} autoComplete="new-password" data-testid="sub-user-password" />
              )}
            />
          </div>
          <CommonFields form={form as unknown as EditForm} />
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              取消
            </Button>
            <Button type="submit" loading={create.isPending} data-testid="sub-user-submit">
              创建
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}

/** Edits `user` (from the list row); null closes the dialog. */
export function EditSubUserDialog({ user, onClose }: { user: SubUser | null; onClose: () => void }) {
  return (
    <Dialog open={!!user} onOpenChange={(open) => !open && onClose()}>
      {user && (
        <DialogContent className="sm:max-w-2xl" data-testid="sub-user-dialog" data-mode="edit">
          <EditSubUserForm key={user.id} row={user} onDone={onClose} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function EditSubUserForm({ row, onDone }: { row: SubUser; onDone: () => void }) {
  const detail = useSubUser(row.id);
  const update = useUpdateSubUser();
  // The account whose values the form shows; its stamp is the one sent back.
  const [base, setBase] = useState<SubUser>(row);
  const form = useZodForm(editSubUserForm, { defaultValues: editValuesOf(row) });

  // Fresher data from the server replaces the row's, unless the user has already started typing.
  useEffect(() => {
    const fresh = detail.data;
    if (!fresh || fresh.concurrencyStamp === base.concurrencyStamp) return;
    if (form.formState.isDirty) return;
    setBase(fresh);
    form.reset(editValuesOf(fresh));
  }, [detail.data, base.concurrencyStamp, form]);

  function onSubmit(values: z.output<typeof editSubUserForm>) {
    update.mutate(updateBodyOf(base, values), {
      onSuccess: (saved) => {
        toast.success(`子账号 ${saved.userName} 已保存`);
        onDone();
      },
      onError: async (error) => {
        if (!isConflict(error)) return;
        toast.warning("该子账号已被其他人修改，已加载最新数据，请确认后重新保存");
        const fresh = (await detail.refetch()).data;
        if (fresh) {
          setBase(fresh);
          form.reset(editValuesOf(fresh));
        }
      },
    });
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>编辑子账号</DialogTitle>
        <DialogDescription>
          用户名：<span className="text-foreground font-medium">{row.userName}</span>
        </DialogDescription>
      </DialogHeader>
      <Form form={form} onSubmit={onSubmit}>
        <CommonFields form={form} />
        <DialogFooter>
          <Button variant="outline" onClick={onDone}>
            取消
          </Button>
          <Button type="submit" loading={update.isPending} data-testid="sub-user-submit">
            保存
          </Button>
        </DialogFooter>
      </Form>
    </>
  );
}
