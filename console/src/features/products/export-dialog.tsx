// 导出: the chosen products (or every product matching the filter) as an xlsx file. ExportProduct queues the export;
// the dialog follows its task to the end and then offers the file (DownloadExport).
import { useState } from "react";
import { TaskType } from "#shared/contract/enums.ts";
import { PRODUCT_EXPORT_KEEP_DAYS } from "#shared/contract/product-export.ts";
import { ExportTaskDialog } from "../../components/task/task-progress.tsx";
import { BulkDialog, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { useDownloadProductExport, useExportProducts } from "./api/export-products.ts";

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
  const download = useDownloadProductExport({ mutationConfig: { meta: { silent: true } } });
  return (
    <ExportTaskDialog
      taskId={taskId}
      taskType={TaskType.ExportProducts}
      title="正在导出"
      description="导出在后台进行，关闭窗口不影响；也可稍后在任务中心查看。"
      download={download}
      testId="products-export"
      onClose={onClose}
    />
  );
}
