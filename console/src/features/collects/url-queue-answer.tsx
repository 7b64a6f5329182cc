// What adding URLs to the queue did, the same for pasted links and an imported file: how many joined the queue, how
// many were left out, and where their progress shows.
import { CircleCheck, Info } from "lucide-react";
import type { z } from "zod";
import type { importResult } from "#shared/contract/collect.ts";

export type QueueAnswer = z.output<typeof importResult>;

export function UrlQueueAnswer({ answer, testId }: { answer: QueueAnswer; testId: string }) {
  const added = answer.successCount > 0;
  return (
    <div
      role="status"
      className={`flex flex-col gap-1 rounded-md border px-3 py-2 text-sm ${added ? "bg-success/5 border-success/30" : "bg-muted/40"}`}
      data-testid={testId}
      data-success={answer.successCount}
      data-ignore={answer.ignoreCount}
    >
      <p className="flex flex-wrap items-center gap-x-1">
        {added ? <CircleCheck aria-hidden="true" className="text-success size-4" /> : <Info aria-hidden="true" className="size-4" />}
        已加入采集队列 <b className="tabular-nums">{answer.successCount}</b> 个链接
        {answer.ignoreCount ? (
          <>
            ，忽略 <b className="tabular-nums">{answer.ignoreCount}</b> 个（已在队列中或无效）
          </>
        ) : null}
      </p>
      <p className="text-muted-foreground text-xs">
        {answer.isDelayImport ? "链接较多，将在后台分批采集，" : ""}
        {added ? "可在下方采集队列查看进度。" : "已在队列中的链接可在下方采集队列查看或重新采集。"}
      </p>
    </div>
  );
}
