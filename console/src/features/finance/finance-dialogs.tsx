// The finance screens' dialogs: a top-up (amount, how it was paid, the transfer receipt, a remark), a withdrawal
// (amount, Alipay account, a remark) and the host's review of a top-up or withdrawal (the receipt shown large,
// approve, or reject with a reason). Amounts are typed in yuan and checked by their digits (money.ts).
import { useEffect, useState, type ReactNode } from "react";
import { z } from "zod";
import { ChargePayType, ChargeStatus, WithdrawSource } from "#shared/contract/enums.ts";
import { formatYuan, type ChargeRecord, type Withdrawal } from "#shared/contract/wallet.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { AllSelect } from "../../components/list/all-select.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { useAuditCharge, useSubmitCharge } from "./api/charge-records.ts";
import { useAuditWithdraw, useRequestWithdraw } from "./api/withdraws.ts";
import { payTypeLabel, payTypeLabels, withdrawSourceLabel } from "./finance-names.ts";
import { amountProblem, yuanOf } from "./money.ts";
import { ReceiptImage } from "./receipt-image.tsx";
import { ReceiptUpload } from "./receipt-upload.tsx";
import { ReceivingAccounts } from "./receiving-accounts.tsx";

type DialogProps = { open: boolean; onOpenChange: (open: boolean) => void };

const amount = z.string().superRefine((v, ctx) => {
  const problem = amountProblem(v);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
const remark = z.string().trim().max(200, "备注最多 200 个字");

// ---------------------------------------------------------------------------------------------------------------
// Top-up

const chargeForm = z.object({
  money: amount,
  payType: z.enum([String(ChargePayType.Bank), String(ChargePayType.Alipay)]),
  pic: z.string().min(1, "请上传转账凭证"),
  remark,
});
type ChargeForm = z.input<typeof chargeForm>;
const emptyCharge: ChargeForm = { money: "", payType: String(ChargePayType.Alipay) as ChargeForm["payType"], pic: "", remark: "" };

export function ChargeDialog({ open, onOpenChange }: DialogProps) {
  const submit = useSubmitCharge();
  const form = useZodForm(chargeForm, { defaultValues: emptyCharge });
  const [uploading, setUploading] = useState(false);
  useEffect(() => {
    if (open) form.reset(emptyCharge);
  }, [open, form]);

  function onSubmit(v: z.output<typeof chargeForm>) {
    submit.mutate(
      { money: yuanOf(v.money)!, payType: Number(v.payType), pic: v.pic, ...(v.remark ? { remark: v.remark } : {}) },
      {
        onSuccess: (r) => {
          toast.success(`充值申请已提交：${formatYuan(r.money)}，平台审核通过后到账`);
          onOpenChange(false);
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="charge-dialog">
        <DialogHeader>
          <DialogTitle>充值</DialogTitle>
          <DialogDescription>先转账到下方的平台收款账户，再填写金额并上传转账截图；平台审核通过后金额计入余额。</DialogDescription>
        </DialogHeader>
        <ReceivingAccounts />
        <Form form={form} onSubmit={onSubmit}>
          <FormField
            form={form}
            name="money"
            label="充值金额（元）"
            required
            render={(f) => <Input {...f} inputMode="decimal" placeholder="例如 500.00" autoComplete="off" data-testid="charge-money" />}
          />
          <FormField
            form={form}
            name="payType"
            label="转账方式"
            required
            render={(f) => (
              <AllSelect
                value={f.value}
                onChange={f.onChange}
                label="转账方式"
                options={Object.entries(payTypeLabels).map(([value, label]) => ({ value, label }))}
                className="w-48"
                testId="charge-pay-type"
              />
            )}
          />
          <FormField
            form={form}
            name="pic"
            label="转账凭证"
            required
            render={(f) => (
              <ReceiptUpload
                id={f.id}
                value={f.value}
                onChange={f.onChange}
                onBusy={setUploading}
                aria-invalid={f["aria-invalid"]}
                aria-describedby={f["aria-describedby"]}
                testId="charge-receipt"
              />
            )}
          />
          <FormField
            form={form}
            name="remark"
            label="备注"
            render={(f) => <Textarea {...f} rows={2} maxLength={200} placeholder="选填，如转账户名、流水号" data-testid="charge-remark" />}
          />
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              取消
            </Button>
            <Button type="submit" loading={submit.isPending} disabled={uploading} data-testid="charge-submit">
              提交审核
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Withdrawal

const withdrawForm = z.object({
  money: amount,
  alipayAccount: z.string().trim().min(1, "请填写支付宝账号").max(100, "支付宝账号最多 100 个字符"),
  remark,
});
type WithdrawForm = z.input<typeof withdrawForm>;
const emptyWithdraw: WithdrawForm = { money: "", alipayAccount: "", remark: "" };

export function WithdrawDialog({ open, onOpenChange, balance }: DialogProps & { balance: number | undefined }) {
  const request = useRequestWithdraw();
  const form = useZodForm(withdrawForm, { defaultValues: emptyWithdraw });
  useEffect(() => {
    if (open) form.reset(emptyWithdraw);
  }, [open, form]);

  function onSubmit(v: z.output<typeof withdrawForm>) {
    const money = yuanOf(v.money)!;
    if (balance !== undefined && money > balance) {
      form.setError("money", { message: `余额不足：可提现 ${formatYuan(balance)}` });
      return;
    }
    request.mutate(
      { money, alipayAccount: v.alipayAccount, source: WithdrawSource.Balance, ...(v.remark ? { remark: v.remark } : {}) },
      {
        onSuccess: (r) => {
          toast.success(`提现申请已提交：${formatYuan(r.money)} 已从余额冻结，平台打款后完成`);
          onOpenChange(false);
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="withdraw-dialog">
        <DialogHeader>
          <DialogTitle>申请提现</DialogTitle>
          <DialogDescription>
            提现金额提交后立即从余额中冻结；平台打款到支付宝后完成，驳回时全额退回余额。
            {balance !== undefined ? ` 当前可提现 ${formatYuan(balance)}。` : ""}
          </DialogDescription>
        </DialogHeader>
        <Form form={form} onSubmit={onSubmit}>
          <FormField
            form={form}
            name="money"
            label="提现金额（元）"
            required
            render={(f) => <Input {...f} inputMode="decimal" autoComplete="off" data-testid="withdraw-money" />}
          />
          <FormField
            form={form}
            name="alipayAccount"
            label="支付宝账号"
            required
            render={(f) => <Input {...f} maxLength={100} placeholder="手机号或邮箱" data-testid="withdraw-account" />}
          />
          <FormField
            form={form}
            name="remark"
            label="备注"
            render={(f) => <Textarea {...f} rows={2} maxLength={200} placeholder="选填，如收款人姓名" data-testid="withdraw-remark" />}
          />
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              取消
            </Button>
            <Button type="submit" loading={request.isPending} data-testid="withdraw-submit">
              提交申请
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Host review

/** Top-ups and withdrawals are audited with the same decision values (ChargeStatus and WithdrawStatus share 2 and 3). */
export type ReviewTarget = { kind: "charge"; record: ChargeRecord } | { kind: "withdraw"; record: Withdrawal };

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[5.5rem_1fr] gap-2 text-sm">
      <span className="text-muted-foreground">{label}</span>
      <span className="min-w-0 break-all">{children}</span>
    </div>
  );
}

export function ReviewDialog({ target, onClose }: { target: ReviewTarget | null; onClose: () => void }) {
  const auditCharge = useAuditCharge();
  const auditWithdraw = useAuditWithdraw();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");
  const [reasonProblem, setReasonProblem] = useState<string | null>(null);
  useEffect(() => {
    setRejecting(false);
    setReason("");
    setReasonProblem(null);
  }, [target]);
  const pending = auditCharge.isPending || auditWithdraw.isPending;
  const what = target?.kind === "withdraw" ? "提现" : "充值";

  function decide(status: number) {
    if (!target) return;
    const trimmed = reason.trim();
    if (status === ChargeStatus.Rejected && !trimmed) {
      setReasonProblem("驳回时请填写原因");
      return;
    }
    const body = { id: target.record.id, status, ...(status === ChargeStatus.Rejected ? { reason: trimmed } : {}) };
    const done = {
      onSuccess: () => {
        toast.success(
          status === ChargeStatus.Approved
            ? target.kind === "charge"
              ? `已通过：${formatYuan(target.record.money)} 已计入 ${target.record.tenantName} 的余额`
              : `已通过：请确认已向 ${target.record.tenantName} 打款`
            : `已驳回${what}申请`,
        );
        onClose();
      },
    };
    if (target.kind === "charge") auditCharge.mutate(body, done);
    else auditWithdraw.mutate(body, done);
  }

  const r = target?.record;
  return (
    <Dialog open={!!target} onOpenChange={(o) => (o ? null : onClose())}>
      <DialogContent className="sm:max-w-3xl" data-testid="review-dialog">
        <DialogHeader>
          <DialogTitle>审核{what}申请</DialogTitle>
          <DialogDescription>
            {target?.kind === "charge"
              ? "核对转账凭证与金额：通过后金额计入该公司余额（只入账一次）；驳回需填写原因。"
              : "向该支付宝账号打款后再通过；驳回需填写原因，冻结的金额退回该公司余额。"}
          </DialogDescription>
        </DialogHeader>
        {r ? (
          <div className="grid gap-4 md:grid-cols-[1fr_16rem]">
            <div className="bg-muted/40 flex min-h-64 items-center justify-center rounded-md border p-2">
              {r.pic ? (
                <ReceiptImage pic={r.pic} className="max-h-[60vh] min-h-40 w-full" testId="review-receipt" />
              ) : (
                <span className="text-muted-foreground text-sm">未附图片</span>
              )}
            </div>
            <div className="flex flex-col gap-2">
              <Row label="公司">{r.tenantName}</Row>
              <Row label="金额">
                <b className="text-base tabular-nums" data-testid="review-money">
                  {formatYuan(r.money)}
                </b>
              </Row>
              {target.kind === "charge" ? (
                <Row label="转账方式">{payTypeLabel(target.record.payType)}</Row>
              ) : (
                <>
                  <Row label="支付宝账号">{target.record.alipayAccount}</Row>
                  <Row label="来源">{withdrawSourceLabel(target.record.source)}</Row>
                </>
              )}
              <Row label="提交时间">{formatDateTime(r.creationTime)}</Row>
              <Row label="备注">{r.remark || "-"}</Row>
              {rejecting ? (
                <div className="mt-2 flex flex-col gap-1.5">
                  <label htmlFor="review-reason" className="text-sm font-medium">
                    <span className="text-destructive">*</span>驳回原因
                  </label>
                  <Textarea
                    id="review-reason"
                    rows={3}
                    maxLength={200}
                    value={reason}
                    onChange={(e) => {
                      setReason(e.target.value);
                      setReasonProblem(null);
                    }}
                    aria-invalid={!!reasonProblem}
                    placeholder="如：凭证金额与申请金额不符"
                    data-testid="review-reason"
                  />
                  {reasonProblem ? (
                    <p role="alert" className="text-destructive text-xs">
                      {reasonProblem}
                    </p>
                  ) : null}
                </div>
              ) : null}
            </div>
          </div>
        ) : null}
        <DialogFooter>
          {rejecting ? (
            <>
              <Button variant="outline" onClick={() => setRejecting(false)} disabled={pending}>
                返回
              </Button>
              <Button
                variant="destructive"
                loading={pending}
                onClick={() => decide(ChargeStatus.Rejected)}
                data-testid="review-reject-confirm"
              >
                确认驳回
              </Button>
            </>
          ) : (
            <>
              <Button variant="outline" onClick={() => setRejecting(true)} disabled={pending} data-testid="review-reject">
                驳回
              </Button>
              <Button loading={pending} onClick={() => decide(ChargeStatus.Approved)} data-testid="review-approve">
                通过
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
