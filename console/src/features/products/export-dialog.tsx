// 导出: the chosen products (or every product matching the filter) as an xlsx file. ExportProduct queues the export;
// the dialog follows its task to the end and then offers the file (DownloadExport).
import { Download } from "lucide-react";
import { useState } from "react";
import { TaskType } from "@shared/contract/enums.ts";
import { PRODUCT_EXPORT_KEEP_DAYS } from "@shared/contract/product-export.ts";
import { Button } from "@shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@shared/ui/dialog.tsx";
import { toast } from "@shared/ui/toast.tsx";
import { handleServerError } from "../../lib/response-handler.ts";
import { BulkDialog, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { useDownloadProductExport, useExportProducts } from "./api/export-products.ts";
import { TaskProgress, useTaskProgress } from "./task-progress.tsx";

export function ExportDialog({ target, onClose }: BulkDialogBaseProps) {
  const [taskId, setTaskId] = useState<string | null>(null);
  const start = useExportProducts({ mutationConfig: { onSuccess: (r) => setTaskId(r.taskId) } });
  if (taskId) return <ExportProgressDialog taskId={taskId} onClose={onClose} />;
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title="导出商品"
      verb="导出"
      description={`导出为 Excel 文件（xlsx），包含标题、价格、重量、状态、标签、来源等列；文件保留 ${PRODUCT_EXPORT_KEEP_DAYS} 天。`}
      onConfirm={() => start.mutate(target)}
      pending={start.isPending}
      submitText="开始导出"
      testId="products-export-dialog"
    />
  );
}

function ExportProgressDialog({ taskId, onClose }: { taskId: string; onClose: () => void }) {
  const state = useTaskProgress(taskId, TaskType.ExportProducts);
  const download = useDownloadProductExport({
    mutationConfig: {
      onSuccess: (name) => toast.success(`已下载 ${name}`),
      onError: (e) => void (handleServerError(e) || toast.error("下载失败，请稍后重试")),
      meta: { silent: true },
    },
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="products-export-progress-dialog">
        <DialogHeader>
          <DialogTitle>{state.succeeded ? "导出完成" : state.failed ? "导出失败" : "正在导出"}</DialogTitle>
          <DialogDescription>导出在后台进行，关闭窗口不影响；也可稍后在任务中心查看。</DialogDescription>
        </DialogHeader>
        <TaskProgress state={state} testId="products-export-progress" />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {state.done ? "关闭" : "后台运行"}
          </Button>
          {state.succeeded ? (
            <Button
              loading={download.isPending}
              onClick={() => download.mutate({ taskId, taskRemark: state.task?.taskRemark })}
              data-testid="products-export-download"
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
