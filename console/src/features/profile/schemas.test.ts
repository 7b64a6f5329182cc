// The profile screen's form rules: blanks clear a field, the new password is typed twice and must differ from the old.
import { describe, expect, it } from "vitest";
import { PASSWORD_MISMATCH } from "../../lib/password.ts";
import { changePasswordForm, profileForm } from "./schemas.ts";

describe("profile form", () => {
  it("sends blank fields as null (clear) and checks the e-mail", () => {
    expect(profileForm.parse({ name: "", surname: "王", email: "", phoneNumber: "" })).toEqual({
      name: null,
      surname: "王",
      email: null,
      phoneNumber: null,
    });
    expect(profileForm.safeParse({ name: "", surname: "", email: "x", phoneNumber: "" }).error?.issues[0].message).toBe("邮箱格式不正确");
  });
});

describe("change password form", () => {
  it("needs matching new passwords", () => {
    const r = changePasswordForm.safeParse({ oldPwd: "old123", newPwd: "abc12345", confirmPwd: "abc1234" });
    expect(r.error?.issues.map((i) => i.message)).toEqual([PASSWORD_MISMATCH]);
    expect(PASSWORD_MISMATCH).toBe("两次输入的密码不一致");
  });
  it("refuses the old password as the new one", () => {
    const r = changePasswordForm.safeParse({ oldPwd: "abc12345", newPwd: "abc12345", confirmPwd: "abc12345" });
    expect(r.error?.issues.map((i) => i.message)).toEqual(["新密码不能与原密码相同"]);
  });
  it("accepts a valid change", () => {
    expect(changePasswordForm.safeParse({ oldPwd: "old123", newPwd: "abc12345", confirmPwd: "abc12345" }).success).toBe(true);
  });
});
