// Form schemas of the profile screen, from the contract's rules (the server validates with the same ones).
import { z } from "zod";
import { confirmMatches } from "../../lib/password.ts";
import { updateProfileInput, type Profile } from "#shared/contract/account.ts";
import { changePwdInput } from "#shared/contract/users.ts";

// The contract's profile fields take any value (a blank string becomes null, "clear this field"); the form has text.
const textRule = <T extends z.ZodType>(rule: T) => z.string().pipe(rule as unknown as z.ZodType<z.output<T>, string>);

export const profileForm = z.object({
  name: textRule(updateProfileInput.shape.name),
  surname: textRule(updateProfileInput.shape.surname),
  email: textRule(updateProfileInput.shape.email),
  phoneNumber: textRule(updateProfileInput.shape.phoneNumber),
});
export type ProfileFormValues = z.input<typeof profileForm>;

export const profileValuesOf = (p: Profile): ProfileFormValues => ({
  name: p.name ?? "",
  surname: p.surname ?? "",
  email: p.email ?? "",
  phoneNumber: p.phoneNumber ?? "",
});

export const changePasswordForm = changePwdInput
  .extend({ confirmPwd: z.string() })
  .refine(...confirmMatches("confirmPwd"))
  .refine((v) => v.newPwd !== v.oldPwd, { message: "新密码不能与原密码相同", path: ["newPwd"] });
export type ChangePasswordFormValues = z.input<typeof changePasswordForm>;

export const emptyPasswordValues: ChangePasswordFormValues = { oldPwd: "", newPwd: "", confirmPwd: "" };
