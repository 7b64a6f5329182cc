// Form schemas of the sub-account dialogs, built from the contract's own schemas (the server validates with the same
// ones). Form fields hold text; each field turns its text into the wire value and then runs the contract's rule.
import { z } from "zod";
import { confirmMatches } from "../../lib/password.ts";
import { createSubUserInput, resetPwdInput, type CreateSubUserInput, type SubUser, type UpdateUserInput } from "#shared/contract/users.ts";

/** The contract's upper bound of a per-user limit. */
export const LIMIT_MAX = 100_000_000;

const blankToNull = (s: string) => (s.trim() === "" ? null : s.trim());

/** Optional text: blank is sent as null. */
const optionalText = <T extends z.ZodType<unknown, string | null>>(rule: T) => z.string().transform(blankToNull).pipe(rule);

/** A limit typed as text: blank means no limit (null); otherwise a whole number from 0 to LIMIT_MAX. */
const limitText = z
  .string()
  .trim()
  .regex(/^\d*$/, "请输入不小于0的整数")
  .refine((s) => s === "" || Number(s) <= LIMIT_MAX, `不能超过${LIMIT_MAX}`)
  .transform((s) => (s === "" ? null : Number(s)))
  .pipe(createSubUserInput.shape.limitMeliAccount.unwrap());

const remark = z.string().max(500, "备注最多500个字符").transform(blankToNull).pipe(createSubUserInput.shape.remark.unwrap());

const limitsAndOptions = {
  email: optionalText(createSubUserInput.shape.email.unwrap()),
  phoneNumber: optionalText(createSubUserInput.shape.phoneNumber.unwrap()),
  remark,
  limitMeliAccount: limitText,
  collectCount: limitText,
  productCount: limitText,
  isShowPageCrwal: z.boolean(),
};

export const createSubUserForm = z.object({
  userName: createSubUserInput.shape.userName,
  pwd: createSubUserInput.shape.pwd,
  ...limitsAndOptions,
});
export type CreateSubUserFormValues = z.input<typeof createSubUserForm>;

export const editSubUserForm = z.object(limitsAndOptions);
export type EditSubUserFormValues = z.input<typeof editSubUserForm>;

export const emptyCreateValues: CreateSubUserFormValues = {
  userName: "",
  pwd: "",
  email: "",
  phoneNumber: "",
  remark: "",
  limitMeliAccount: "",
  collectCount: "",
  productCount: "",
  isShowPageCrwal: true,
};

const limitToText = (v: number | null) => (v == null ? "" : String(v));

export function editValuesOf(u: SubUser): EditSubUserFormValues {
  return {
    email: u.email ?? "",
    phoneNumber: u.phoneNumber ?? "",
    remark: u.remark ?? "",
    limitMeliAccount: limitToText(u.limitMeliAccount),
    collectCount: limitToText(u.collectCount),
    productCount: limitToText(u.productCount),
    isShowPageCrwal: u.isShowPageCrwal,
  };
}

export function createBodyOf(v: z.output<typeof createSubUserForm>): CreateSubUserInput {
  return v;
}

/** The UpdateUser body; the concurrency stamp makes a stale edit answer 409 instead of overwriting. */
export function updateBodyOf(u: Pick<SubUser, "id" | "concurrencyStamp">, v: z.output<typeof editSubUserForm>): UpdateUserInput {
  return { id: u.id, concurrencyStamp: u.concurrencyStamp, ...v };
}

/** Reset password: the contract's password rule, typed twice. */
export const resetPasswordForm = z.object({ newPwd: resetPwdInput.shape.newPwd, confirm: z.string() }).refine(...confirmMatches("confirm"));
