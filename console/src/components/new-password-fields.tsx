// The new password typed twice, as 修改密码 and a sub-account's 重置密码 ask for it: the contract's password rule
// (its hint under the field) and a confirm field the schema checks against it (lib/password.ts confirmMatches).
import type { FieldPath, FieldValues, UseFormReturn } from "react-hook-form";
import { FormField } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";

export function NewPasswordFields<TIn extends FieldValues & { newPwd: string }, TCtx, TOut>({
  form,
  confirm,
  testId,
}: {
  form: UseFormReturn<TIn, TCtx, TOut>;
  /** The confirm field's name (the password's is newPwd). */
  confirm: FieldPath<TIn>;
  /** The inputs' data-testids are `${testId}-new` and `${testId}-confirm`. */
  testId: string;
}) {
  return (
    <>
      <FormField
        form={form}
        name={"newPwd" as FieldPath<TIn>}
        label="新密码"
        required
        description="至少6位，需同时包含字母和数字"
        render={(field) => <Input {...field} type="password" maxLength={128} autoComplete="new-password" data-testid={`${testId}-new`} />}
      />
      <FormField
        form={form}
        name={confirm}
        label="确认新密码"
        required
        render={(field) => (
          <Input {...field} type="password" maxLength={128} autoComplete="new-password" data-testid={`${testId}-confirm`} />
        )}
      />
    </>
  );
}
