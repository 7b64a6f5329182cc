// The "type the new password twice" rule every password form uses, with its one message.
export const PASSWORD_MISMATCH = "两次输入的密码不一致";

/** A zod refine that the `confirm` field repeats the `password` field (newPwd unless named); the message goes to the
 *  confirm field. */
export function confirmMatches<K extends string, P extends string = "newPwd">(
  confirm: K,
  password: P = "newPwd" as P,
): [(v: Record<P, string> & Record<K, string>) => boolean, { message: string; path: string[] }] {
  return [(v) => (v[password] as string) === (v[confirm] as string), { message: PASSWORD_MISMATCH, path: [confirm] }];
}
