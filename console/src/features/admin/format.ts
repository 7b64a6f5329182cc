// Display helpers of the host's admin screens: the account payment types, and whether a lockout is still running (dates
// and money: lib/format.ts).
import { AccountPaymentType } from "#shared/contract/enums.ts";

const paymentTypeLabels: Record<number, string> = {
  [AccountPaymentType.Trial]: "试用",
  [AccountPaymentType.Monthly]: "按月",
  [AccountPaymentType.Yearly]: "按年",
  [AccountPaymentType.Permanent]: "永久",
};

export const paymentTypeLabel = (t: number) => paymentTypeLabels[t] ?? `类型 ${t}`;

/** A lockout end in the future: the account cannot log in until then. */
export function isLocked(lockoutEnd: string | null | undefined, now = Date.now()): boolean {
  if (!lockoutEnd) return false;
  const t = new Date(lockoutEnd).getTime();
  return Number.isFinite(t) && t > now;
}

/** A password that passes the server's rule (letters and digits, 12 characters), for the host to hand over. */
export function generatePassword(length = 12): string {
  const letters = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";
  const digits = "23456789";
  const all = letters + digits;
  const random = crypto.getRandomValues(new Uint32Array(length));
  const chars = Array.from(random, (r) => all[r % all.length]);
  chars[random[0] % length] = letters[random[1] % letters.length];
  let digitAt = random[2] % length;
  if (digitAt === random[0] % length) digitAt = (digitAt + 1) % length;
  chars[digitAt] = digits[random[3] % digits.length];
  return chars.join("");
}

/** Copies text, answering whether it worked (the clipboard needs a secure context). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
