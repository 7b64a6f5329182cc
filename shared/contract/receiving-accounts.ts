// The platform's receiving accounts (issue 28): where a seller transfers a top-up. The host keeps them in the setting
// Wallet.ReceivingAccounts as a JSON array; the seller's top-up dialog shows them (ChargeRecord/GetReceivingAccounts).
// A QR code is an image the host uploaded with ChargeRecord/UploadReceipt (its pic), shown to every tenant.
import { z } from "zod";
import { RECEIPT_PIC_PATTERN } from "./wallet.ts";

export const RECEIVING_ACCOUNT_KINDS = ["bank", "alipay", "wechat"] as const;
export type ReceivingAccountKind = (typeof RECEIVING_ACCOUNT_KINDS)[number];
export const receivingAccountKindNames: Record<ReceivingAccountKind, string> = {
  bank: "银行转账",
  alipay: "支付宝",
  wechat: "微信",
};

/** The host's uploads are stored under the platform's tenant id (server HOST_TENANT_ID): only those may be QR codes. */
const PLATFORM_PIC_PREFIX = "00000000-0000-0000-0000-000000000000/";

/** At most this many accounts. */
export const MAX_RECEIVING_ACCOUNTS = 10;

const receivingAccount = z
  .object({
    /** 户名 / 收款人. */
    name: z.string().trim().min(1, "请填写收款人（户名）").max(64, "收款人最多 64 个字"),
    kind: z.enum(RECEIVING_ACCOUNT_KINDS, { message: "收款方式须为 银行转账、支付宝 或 微信" }),
    /** The card number, Alipay account or WeChat id. */
    account: z.string().trim().min(1, "请填写收款账号").max(64, "收款账号最多 64 个字符"),
    /** The bank and branch (bank transfers only). */
    bankName: z.string().trim().max(64, "开户行最多 64 个字").optional(),
    /** A QR code image (the pic of an upload), optional. */
    qrPic: z
      .string()
      .regex(RECEIPT_PIC_PATTERN, "收款码图片无效，请重新上传")
      .refine((p) => p.startsWith(PLATFORM_PIC_PREFIX), "收款码须由平台管理员上传")
      .optional(),
    /** A note shown to the seller, e.g. 转账时请备注公司名称. */
    remark: z.string().trim().max(200, "备注最多 200 个字").optional(),
  })
  .superRefine((a, ctx) => {
    if (a.kind === "bank" && !a.bankName) ctx.addIssue({ code: "custom", path: ["bankName"], message: "银行转账须填写开户行" });
  });
export type ReceivingAccount = z.infer<typeof receivingAccount>;

export const receivingAccountList = z.array(receivingAccount).max(MAX_RECEIVING_ACCOUNTS, `收款账户最多 ${MAX_RECEIVING_ACCOUNTS} 个`);

/** The setting's stored text as accounts; a value that does not parse is no accounts (the host is told when saving). */
export function parseReceivingAccounts(raw: string | null | undefined): ReceivingAccount[] {
  if (!raw?.trim()) return [];
  try {
    const parsed = receivingAccountList.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
