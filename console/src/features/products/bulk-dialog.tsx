// The frame every bulk edit dialog shares: its title, how many products it will change (the chosen rows' count, or
// CountProducts of the filter for "all matching"), the dialog's own fields, and 取消 / the submit button (which
// submits the dialog's form by id, or runs onConfirm when there is no form). useBulkSubmit runs the edit and reports
// its count.
import type { ReactNode } from "react";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { countText, type BulkTarget } from "./bulk-target.ts";
import { useBulkEdit, type BulkEdit } from "./api/bulk-edit-products.ts";
import { useTargetCount } from "./api/get-products.ts";

/** What every bulk dialog gets: the products it works on, and how to close it. */
export type BulkDialogBaseProps = { target: BulkTarget; onClose: () => void };

export type BulkDialogProps = BulkDialogBaseProps & {
  title: string;
  description?: ReactNode;
  /** The verb of the preview line, 将{verb} N 个商品 (default 修改). */
  verb?: string;
  /** The id of the dialog's <form>; the submit button submits it. */
  formId?: string;
  /** Without a form: what the submit button does. */
  onConfirm?: () => void;
  pending: boolean;
  submitText?: string;
  danger?: boolean;
  /** data-testid of the dialog; the preview line is `${testId}-count`, the submit button `${testId}-submit`. */
  testId: string;
  className?: string;
  children?: ReactNode;
};

export function BulkDialog({
  target,
  onClose,
  title,
  description,
  verb = "修改",
  formId,
  onConfirm,
  pending,
  submitText = "确定",
  danger,
  testId,
  className,
  children,
}: BulkDialogProps) {
  const { count, loading } = useTargetCount(target);
  const empty = count === 0;
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className={className ?? "sm:max-w-md"} data-testid={testId}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription asChild>
            <div className="flex flex-col gap-1">
              <p data-testid={`${testId}-count`} data-count={count ?? ""}>
                {count === null ? (
                  <span className="inline-flex items-center gap-1.5">
                    <Spinner />
                    正在统计符合条件的商品...
                  </span>
                ) : (
                  <>
                    将{verb} <b className="text-foreground tabular-nums">{countText(count)}</b> 个商品
                    {target.kind === "filter" ? "（当前筛选条件下的全部商品）" : ""}
                    {loading ? <Spinner className="ml-1 inline" /> : null}
                  </>
                )}
              </p>
              {description ? <p className="text-xs">{description}</p> : null}
            </div>
          </DialogDescription>
        </DialogHeader>
        {children}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            取消
          </Button>
          <Button
            type={formId ? "submit" : "button"}
            form={formId}
            onClick={formId ? undefined : onConfirm}
            variant={danger ? "destructive" : "default"}
            loading={pending}
            disabled={empty || count === null}
            data-testid={`${testId}-submit`}
          >
            {submitText}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Runs a bulk edit: a toast with how many products it changed, then the dialog closes. */
export function useBulkSubmit(label: string, onClose: () => void) {
  const edit = useBulkEdit();
  const submit = (bulkEdit: BulkEdit) =>
    edit.mutate(bulkEdit, {
      onSuccess: (r) => {
        if (r.taskId) toast.info(`${label}：商品较多，已转为后台任务分批修改，进度显示在列表上方`);
        else if (r.count > 0) toast.success(`${label}：已修改 ${countText(r.count)} 个商品`);
        else toast.info(`${label}：没有商品需要修改`);
        onClose();
      },
    });
  return { submit, pending: edit.isPending };
}
