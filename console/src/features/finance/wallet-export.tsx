// 导出 on /finance/wallet/list: the entries matching the list's filters as an xlsx file (amounts in yuan with two
// decimals). The export runs as a task; the dialog follows it to the end and then offers the file.
import { FileDown } from "lucide-react";
import { useState } from "react";
import { TaskType } from "#shared/contract/enums.ts";
import { Button } from "#shared/ui/button.tsx";
import { ExportTaskDialog } from "../../components/task/task-progress.tsx";
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
  const download = useDownloadWalletLogExport();
  return (
    <ExportTaskDialog
      taskId={taskId}
      taskType={TaskType.ExportWalletLogs}
      title="正在导出钱包记录"
      description="按当前筛选条件导出，金额单位为元；导出在后台进行，也可稍后在任务中心查看。"
      download={download}
      testId="wallet-export"
      onClose={onClose}
    />
  );
}
