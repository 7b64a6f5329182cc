// The register screen's form: the contract's own rules for the new company and its main account (the server validates
// with the same ones), and the password typed twice.
import { z } from "zod";
import { registerInput } from "#shared/contract/account.ts";
import { confirmMatches } from "../../lib/password.ts";

export const registerForm = registerInput
  .pick({ tenantName: true, userName: true, emailAddress: true, password: true })
  .extend({ confirmPassword: z.string() })
  .refine(...confirmMatches("confirmPassword", "password"));
export type RegisterFormValues = z.input<typeof registerForm>;

export const emptyRegisterValues: RegisterFormValues = {
  tenantName: "",
  userName: "",
  emailAddress: "",
  password: "",
  confirmPassword: "",
};

/** The form's fields, to point the server's validation errors (their members) at the field they name. */
export const registerFields = Object.keys(emptyRegisterValues) as (keyof RegisterFormValues)[];
