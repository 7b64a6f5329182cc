// A long host action on a tenant (copy, migration, restore, purge, clearing) runs as a task of the host's: the dialog
// follows it live (components/task, lib/task-queries.ts) and reloads the tenant list once it has ended. Closing the
// dialog leaves it running (任务中心 lists it).
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { TenantListItem } from "#shared/contract/hosted.ts";
import { TaskProgressDialog, useTaskProgress } from "../../components/task/task-progress.tsx";
import { tenantKeys } from "./api/get-tenants.ts";

export type FollowedTask = {
  taskId: string;
  taskType: number;
  /** What runs (复制商品 …). */
  title: string;
  /** From which tenant to which, and how much there is to go through. */
  description: string;
};

/** A 更多 dialog on one tenant whose action may start a task the page then follows. */
export type TenantDialogProps = {
  tenant: TenantListItem | null;
  onOpenChange: (open: boolean) => void;
  onTask: (task: FollowedTask) => void;
};

export function TenantTaskDialog({ task, onClose }: { task: FollowedTask; onClose: () => void }) {
  const state = useTaskProgress(task.taskId, task.taskType);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (state.done) void queryClient.invalidateQueries({ queryKey: tenantKeys.all });
  }, [state.done, queryClient]);
  return (
    <TaskProgressDialog
      state={state}
      onClose={onClose}
      titles={{ running: `正在${task.title}`, succeeded: `${task.title}完成`, failed: `${task.title}未完成` }}
      description={task.description}
      testId="tenant-task-progress"
      closePrimary
    />
  );
}
