// Where a seller pays a top-up (issue 28): the platform's receiving accounts the host set, each with its holder, bank
// or Alipay/WeChat, the account with a copy button, and its QR code. Without any, the dialog says to ask the platform.
import { Copy } from "lucide-react";
import { receivingAccountKindNames, type ReceivingAccount } from "#shared/contract/receiving-accounts.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useReceivingAccounts } from "./api/receiving-accounts.ts";
import { ReceiptImage } from "./receipt-image.tsx";

function copy(text: string) {
  void navigator.clipboard?.writeText(text).then(
    () => toast.success("已复制收款账号"),
    () => toast.error("复制失败，请手动选择账号复制"),
  );
}

function AccountCard({ a, index }: { a: ReceivingAccount; index: number }) {
  return (
    <li className="flex gap-3 rounded-md border p-3" data-testid="receiving-account" data-kind={a.kind}>
      <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
        <div className="flex items-center gap-2">
          <Badge variant="secondary">{receivingAccountKindNames[a.kind]}</Badge>
          <span className="truncate font-medium">{a.name}</span>
        </div>
        {a.bankName ? <div className="text-muted-foreground">开户行：{a.bankName}</div> : null}
        <div className="flex items-center gap-1">
          <span className="font-mono tabular-nums" data-testid={`receiving-account-number-${index}`}>
            {a.account}
          </span>
          <Button variant="ghost" size="icon" className="size-6" aria-label={`复制${a.name}的收款账号`} onClick={() => copy(a.account)}>
            <Copy className="size-3.5" />
          </Button>
        </div>
        {a.remark ? <div className="text-muted-foreground text-xs">{a.remark}</div> : null}
      </div>
      {a.qrPic ? (
        <ReceiptImage pic={a.qrPic} className="size-24 shrink-0 rounded border" testId={`receiving-account-qr-${index}`} preview />
      ) : null}
    </li>
  );
}

export function ReceivingAccounts() {
  const accounts = useReceivingAccounts();
  if (accounts.isPending) return <Spinner />;
  const list = accounts.data ?? [];
  return (
    <section aria-label="平台收款账户" className="flex flex-col gap-2" data-testid="receiving-accounts">
      <h4 className="text-sm font-medium">平台收款账户</h4>
      {list.length ? (
        <ul className="flex max-h-72 flex-col gap-2 overflow-y-auto">
          {list.map((a, i) => (
            <AccountCard key={`${a.kind}-${a.account}`} a={a} index={i} />
          ))}
        </ul>
      ) : (
        <p className="text-muted-foreground text-sm" data-testid="receiving-accounts-empty">
          平台尚未设置收款账户，请联系平台获取转账账户后再充值。
        </p>
      )}
    </section>
  );
}
