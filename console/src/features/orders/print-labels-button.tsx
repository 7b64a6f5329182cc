// 批量打单 on the orders screen: one PDF of the labels of the ready-to-ship orders the list's filter matches, in packing
// order (source shop, then SKU) behind a packing list. It runs as a task; the dialog follows it and then offers the file.
import { Printer } from "lucide-react";
import { useState } from "react";
import { TaskType } from "#shared/contract/enums.ts";
import { Button } from "#shared/ui/button.tsx";
import { TaskProgressDialog, useTaskProgress } from "../../components/task/task-progress.tsx";
import { useDownloadPrintedLabels, usePrintLabels } from "./api/print-labels.ts";
import type { OrderQuery } from "./order-search-params.ts";

export function PrintLabelsButton({ filter, ready }: { filter: OrderQuery; ready: number | null }) {
  const [task, setTask] = useState<{ id: string; orders: number } | null>(null);
  const start = usePrintLabels();
  return (
    <>
      <Button
        variant="outline"
        loading={start.isPending}
        disabled={ready === 0}
        title={ready === 0 ? "当前筛选下没有待发货的订单" : "按当前筛选打印所有待发货订单的面单"}
        onClick={() => start.mutate(filter, { onSuccess: (r) => setTask({ id: r.taskId, orders: r.orders }) })}
        data-testid="orders-print-labels"
      >
        <Printer />
        批量打单{ready ? `（${ready}）` : ""}
      </Button>
      {task ? <PrintProgressDialog taskId={task.id} orders={task.orders} onClose={() => setTask(null)} /> : null}
    </>
  );
}

function PrintProgressDialog({ taskId, orders, onClose }: { taskId: string; orders: number; onClose: () => void }) {
  const download = useDownloadPrintedLabels();
  return (
    <TaskProgressDialog
      state={useTaskProgress(taskId, TaskType.PrintLabels)}
      onClose={onClose}
      titles={{ running: "正在生成面单", succeeded: "面单已生成", failed: "打单失败" }}
      description={`${orders} 个待发货订单的面单合并为一个 PDF：第一页是拣货单，面单按货源店铺、SKU 排序；打印后订单标记为已打单。也可稍后在任务中心查看。`}
      testId="orders-print"
      download={{ mutation: download, testId: "orders-print-download" }}
    />
  );
}
