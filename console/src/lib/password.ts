// The "type the new password twice" rule every password form uses, with its one message.
export const PASSWORD_MISMATCH = "两次输入的密码不一致";

/** A zod refine that the `confirm` field repeats `newPwd`; the message goes to the confirm field. */
export function confirmMatches<K extends string>(
  confirm: K,
): [(v: { newPwd: string } & Record<K, string>) => boolean, { message: string; path: string[] }] {
  return [(v) => v.newPwd === v[confirm], { message: PASSWORD_MISMATCH, path: [confirm] }];
}
