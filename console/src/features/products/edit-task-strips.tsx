// The product list's bulk edit tasks (edit-tasks.ts): a strip per task with its remark and live progress, a link to
// the task centre; when one ends the list and the undo button are asked again.
import { useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { TaskProgressStrip, taskState } from "../../components/task/task-progress.tsx";
import { useInvalidateProducts } from "./api/get-products.ts";
import { useProductEditTasks } from "./api/edit-tasks.ts";
import { editTaskStrips, ENDED_SHOWN_MS, tasksToRefreshFor } from "./edit-tasks.ts";

const TASK_LIST_PATH = "/task/list";

export function ProductEditTaskStrips() {
  const { data } = useProductEditTasks();
  const tasks = useMemo(() => data ?? [], [data]);
  const [since] = useState(() => Date.now() - ENDED_SHOWN_MS);
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  const refreshed = useRef(new Set<string>());
  const invalidate = useInvalidateProducts();
  useEffect(() => {
    const ended = tasksToRefreshFor(tasks, since, refreshed.current);
    if (!ended.length) return;
    for (const id of ended) refreshed.current.add(id);
    void invalidate();
  }, [tasks, since, invalidate]);

  const shown = editTaskStrips(tasks, since, closed);
  if (!shown.length) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="products-edit-tasks">
      {shown.map((t) => (
        <TaskProgressStrip
          key={t.id}
          state={taskState(t)}
          label={t.content}
          pendingText="排队中…"
          testId="products-edit-task"
          taskId={t.id}
          onClose={() => setClosed((c) => new Set([...c, t.id]))}
          actions={
            <Link to={TASK_LIST_PATH} className="text-primary text-xs hover:underline">
              任务中心
            </Link>
          }
        />
      ))}
    </div>
  );
}
