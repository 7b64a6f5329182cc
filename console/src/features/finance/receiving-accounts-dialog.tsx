// The host's receiving accounts (issue 28), edited where top-ups are reviewed: each account's holder, kind (bank,
// Alipay, WeChat), account, bank (bank transfers), a note and a QR code uploaded like a receipt. Saved as the setting
// Wallet.ReceivingAccounts; the contract's rule is checked here and again on the server.
import { Plus, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import {
  MAX_RECEIVING_ACCOUNTS,
  RECEIVING_ACCOUNT_KINDS,
  receivingAccountKindNames,
  receivingAccountList,
  type ReceivingAccount,
} from "#shared/contract/receiving-accounts.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Input } from "#shared/ui/input.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { AllSelect } from "../../components/list/all-select.tsx";
import { useReceivingAccounts, useSaveReceivingAccounts } from "./api/receiving-accounts.ts";
import { ReceiptImage } from "./receipt-image.tsx";
import { ReceiptUpload } from "./receipt-upload.tsx";

type Row = { name: string; kind: ReceivingAccount["kind"]; account: string; bankName: string; remark: string; qrPic: string };
const emptyRow: Row = { name: "", kind: "alipay", account: "", bankName: "", remark: "", qrPic: "" };
const rowOf = (a: ReceivingAccount): Row => ({
  name: a.name,
  kind: a.kind,
  account: a.account,
  bankName: a.bankName ?? "",
  remark: a.remark ?? "",
  qrPic: a.qrPic ?? "",
});
const accountOf = (r: Row) => ({
  name: r.name,
  kind: r.kind,
  account: r.account,
  ...(r.kind === "bank" && r.bankName.trim() ? { bankName: r.bankName } : {}),
  ...(r.remark.trim() ? { remark: r.remark } : {}),
  ...(r.qrPic ? { qrPic: r.qrPic } : {}),
});

function RowEditor({ row, index, onChange, onRemove }: { row: Row; index: number; onChange: (r: Row) => void; onRemove: () => void }) {
  const set = (patch: Partial<Row>) => onChange({ ...row, ...patch });
  return (
    <li className="grid gap-2 rounded-md border p-3 sm:grid-cols-[1fr_1fr_auto]" data-testid="receiving-account-row">
      <Input
        value={row.name}
        onChange={(e) => set({ name: e.target.value })}
        placeholder="收款人（户名）"
        aria-label={`第 ${index + 1} 个账户的收款人`}
      />
      <AllSelect
        value={row.kind}
        onChange={(kind) => set({ kind: kind as Row["kind"] })}
        label="收款方式"
        options={RECEIVING_ACCOUNT_KINDS.map((k) => ({ value: k, label: receivingAccountKindNames[k] }))}
        className="w-full"
        testId={`receiving-kind-${index}`}
      />
      <Button variant="ghost" size="icon" aria-label={`删除第 ${index + 1} 个账户`} onClick={onRemove}>
        <Trash2 />
      </Button>
      <Input
        value={row.account}
        onChange={(e) => set({ account: e.target.value })}
        placeholder="收款账号"
        aria-label={`第 ${index + 1} 个账户的账号`}
      />
      {row.kind === "bank" ? (
        <Input
          value={row.bankName}
          onChange={(e) => set({ bankName: e.target.value })}
          placeholder="开户行"
          aria-label={`第 ${index + 1} 个账户的开户行`}
        />
      ) : (
        <span />
      )}
      <span />
      <Input
        value={row.remark}
        onChange={(e) => set({ remark: e.target.value })}
        placeholder="备注（选填），如：转账时请备注公司名称"
        className="sm:col-span-2"
        aria-label={`第 ${index + 1} 个账户的备注`}
      />
      <span />
      <div className="flex items-end gap-3 sm:col-span-2">
        {row.qrPic ? <ReceiptImage pic={row.qrPic} className="size-24 rounded border" preview /> : null}
        <ReceiptUpload
          value=""
          onChange={(pic) => pic && set({ qrPic: pic })}
          label={row.qrPic ? "更换收款码" : "上传收款码"}
          testId={`receiving-qr-${index}`}
        />
        {row.qrPic ? (
          <Button variant="link" size="sm" onClick={() => set({ qrPic: "" })}>
            移除收款码
          </Button>
        ) : null}
      </div>
    </li>
  );
}

export function ReceivingAccountsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const current = useReceivingAccounts();
  const save = useSaveReceivingAccounts();
  const [rows, setRows] = useState<Row[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  // The saved accounts fill the form once per opening: a later refetch never replaces what the host is typing, and
  // nothing can be added before they are in (they would wipe it).
  const [filled, setFilled] = useState(false);
  useEffect(() => {
    if (!open) setFilled(false);
    else if (!filled && current.data) {
      setRows(current.data.map(rowOf));
      setProblem(null);
      setFilled(true);
    }
  }, [open, current.data, filled]);

  function onSave() {
    const parsed = receivingAccountList.safeParse(rows.map(accountOf));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setProblem(typeof issue.path[0] === "number" ? `第 ${issue.path[0] + 1} 个账户：${issue.message}` : issue.message);
      return;
    }
    setProblem(null);
    save.mutate(parsed.data, {
      onSuccess: () => {
        toast.success("收款账户已保存");
        onOpenChange(false);
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !save.isPending && onOpenChange(next)}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-3xl" data-testid="receiving-accounts-dialog">
        <DialogHeader>
          <DialogTitle>平台收款账户</DialogTitle>
          <DialogDescription>卖家充值时在充值对话框中看到这些账户并转账；收款码图片选填。</DialogDescription>
        </DialogHeader>
        <ul className="flex flex-col gap-3">
          {rows.map((r, i) => (
            <RowEditor
              key={i}
              row={r}
              index={i}
              onChange={(next) => setRows(rows.map((x, j) => (j === i ? next : x)))}
              onRemove={() => setRows(rows.filter((_, j) => j !== i))}
            />
          ))}
        </ul>
        <Button
          variant="outline"
          className="w-fit"
          disabled={!filled || rows.length >= MAX_RECEIVING_ACCOUNTS}
          onClick={() => setRows([...rows, emptyRow])}
          data-testid="receiving-account-add"
        >
          <Plus />
          添加收款账户
        </Button>
        {problem ? (
          <p className="text-destructive text-sm" role="alert">
            {problem}
          </p>
        ) : null}
        <DialogFooter>
          <Button variant="outline" disabled={save.isPending} onClick={() => onOpenChange(false)}>
            取消
          </Button>
          <Button loading={save.isPending} disabled={!filled} onClick={onSave} data-testid="receiving-accounts-save">
            保存
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
