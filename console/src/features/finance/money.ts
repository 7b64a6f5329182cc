// Money on the finance screens: on the wire it is yuan with at most two decimals (shared/contract/wallet.ts; the server
// keeps integer fen); the screens show it with two decimals (the contract's formatYuan) and read what the seller types
// by its digits, so "0.29" is exactly 29 fen (no float arithmetic on the typed text).
import { fenToYuan, formatYuan, MAX_MONEY_YUAN, yuanToFen } from "#shared/contract/wallet.ts";

/** A signed movement: "+¥1,234.56" for a credit, "-¥12.00" for a debit, "¥0.00" for none. */
export function signedYuanText(yuan: number): string {
  const text = formatYuan(Math.abs(yuan));
  return yuan > 0 ? `+${text}` : yuan < 0 ? `-${text}` : text;
}

/** Yuan as typed ("100", "99.5", "1,000.00") → integer fen; null when it is not a positive amount with at most two
 *  decimals within MAX_MONEY_YUAN. */
export function fenOf(text: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim().replace(/[,，]/g, ""));
  if (!m) return null;
  const fen = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  return fen > 0 && fen <= yuanToFen(MAX_MONEY_YUAN)! ? fen : null;
}

/** Typed yuan as the wire's yuan number (exact to the fen), or null (fenOf). */
export function yuanOf(text: string): number | null {
  const fen = fenOf(text);
  return fen === null ? null : fenToYuan(fen);
}

/** The form's message for a typed amount, or null when it reads. */
export function amountProblem(text: string): string | null {
  if (!text.trim()) return "请输入金额";
  if (fenOf(text) !== null) return null;
  return `请输入大于 0、不超过 ${formatYuan(MAX_MONEY_YUAN)}、最多两位小数的金额`;
}
