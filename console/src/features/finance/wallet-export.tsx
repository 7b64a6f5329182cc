// 导出 on /finance/wallet/list: the entries matching the list's filters as an xlsx file (amounts in yuan with two
// decimals). The export runs as a task; the dialog follows it to the end and then offers the file.
import { Download, FileDown } from "lucide-react";
import { useState } from "react";
import { TaskStatus, TaskType } from "@shared/contract/enums.ts";
import { Button } from "@shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@shared/ui/dialog.tsx";
import { toast } from "@shared/ui/toast.tsx";
import { handleServerError } from "../../lib/response-handler.ts";
import { isTaskDone, useTask } from "../../lib/task-queries.ts";
import { useDownloadWalletLogExport, useExportWalletLogs, type WalletExportFilter } from "./api/wallet-export.ts";

export function WalletExportButton({ filter, disabled }: { filter: WalletExportFilter; disabled?: boolean }) {
  const [taskId, setTaskId] = useState<string | null>(null);
  const start = useExportWalletLogs();
  return (
    <>
      <Button
        variant="outline"
        disabled={disabled}
        loading={start.isPending}
        onClick={() => start.mutate(filter, { onSuccess: (r) => setTaskId(r.taskId) })}
        data-testid="wallet-export"
      >
        <FileDown />
        导出
      </Button>
      {taskId ? <ExportProgressDialog taskId={taskId} onClose={() => setTaskId(null)} /> : null}
    </>
  );
}

function ExportProgressDialog({ taskId, onClose }: { taskId: string; onClose: () => void }) {
  const task = useTask(TaskType.ExportWalletLogs, taskId).data ?? null;
  const done = isTaskDone(task);
  const succeeded = task?.taskStatus === TaskStatus.Succeeded;
  const progress = succeeded ? 100 : Math.max(0, Math.min(100, task?.progress ?? 0));
  const download = useDownloadWalletLogExport();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="wallet-export-dialog">
        <DialogHeader>
          <DialogTitle>{succeeded ? "导出完成" : done ? "导出失败" : "正在导出钱包记录"}</DialogTitle>
          <DialogDescription>按当前筛选条件导出，金额单位为元；导出在后台进行，也可稍后在任务中心查看。</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2" data-testid="wallet-export-progress" data-status={task?.taskStatus ?? 0}>
          <div className="flex items-center justify-between text-sm">
            <span>{done && !succeeded ? (task?.taskRemark ?? "导出失败") : (task?.taskRemark ?? "任务已提交，等待开始...")}</span>
            <span className="text-muted-foreground tabular-nums">{progress}%</span>
          </div>
          <div className="bg-muted h-2 overflow-hidden rounded-full">
            <div className="bg-primary h-full transition-all" style={{ width: `${progress}%` }} />
          </div>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {done ? "关闭" : "后台运行"}
          </Button>
          {succeeded ? (
            <Button
              loading={download.isPending}
              onClick={() =>
                download.mutate(
                  { taskId, taskRemark: task?.taskRemark },
                  {
                    onSuccess: (name) => toast.success(`已下载 ${name}`),
                    onError: (e) => void (handleServerError(e) || toast.error("下载失败，请稍后重试")),
                  },
                )
              }
              data-testid="wallet-export-download"
            >
              <Download />
              下载文件
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
