// The batch just submitted, filling in live (read by its id, GetPublishBatch: the publishBatch progress events refetch
// it; polled while the stream is down): status, counts of live / refused or failed / skipped of the total, Publish's
// notice, and the way to its records.
import { Link } from "react-router-dom";
import { Badge } from "#shared/ui/badge.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import type { PublishBatch } from "#shared/contract/publish.ts";
import { batchPercent, isBatchRunning } from "#shared/publish/batch.ts";
import { ProgressBar } from "../../components/task/task-progress.tsx";
import { usePublishBatch } from "./api/get-publish-batches.ts";
import { batchStatusLabel, batchStatusTones } from "./publish-names.ts";

const RECORDS_PATH = "/proudcts/publish-records/v2";

/** `notice`: what Publish said about the request (a selection cut to the batch maximum, products already listed). */
export function BatchProgress({ submitted }: { submitted: PublishBatch & { notice?: string | null } }) {
  // As submitted until the first read answers.
  const batch = usePublishBatch(submitted.id).data ?? submitted;
  const percent = batchPercent(batch);
  const running = isBatchRunning(batch.status);
  return (
    <div className="flex flex-col gap-2 rounded-md border p-3" data-testid="publish-batch" data-status={batch.status} data-id={batch.id}>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <Badge variant={batchStatusTones[batch.status] ?? "outline"} data-testid="publish-batch-status">
          {running ? <Spinner /> : null}
          {batchStatusLabel(batch.status)}
        </Badge>
        <span data-testid="publish-batch-counts">
          共 <b className="tabular-nums">{batch.total}</b> 条：成功 <b className="text-success tabular-nums">{batch.success}</b>，失败{" "}
          <b className="text-destructive tabular-nums">{batch.fail}</b>，未发送 <b className="text-warning tabular-nums">{batch.skipped}</b>
        </span>
        <Link to={`${RECORDS_PATH}?batch=${batch.id}`} className="text-primary ml-auto hover:underline" data-testid="publish-batch-records">
          查看刊登记录
        </Link>
      </div>
      {submitted.notice ? (
        <p className="text-warning text-sm" data-testid="publish-batch-notice">
          {submitted.notice}
        </p>
      ) : null}
      <ProgressBar value={percent} label="刊登进度" className="h-1.5" />
    </div>
  );
}
