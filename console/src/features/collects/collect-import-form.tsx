// 导入文件: an xlsx, csv or txt file of product URLs (read by content on the server; at most IMPORT_MAX_BYTES and
// IMPORT_MAX_ROWS) → ImportUrls (multipart), which queues the URLs; the answer (imported, ignored, message, whether
// the queue works through them in the background) is shown as for pasted links.
import { FileUp } from "lucide-react";
import { useRef, useState } from "react";
import { ApiError } from "#shared/api/errors.ts";
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from "#shared/contract/collect.ts";
import { Button } from "#shared/ui/button.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { useImportUrls } from "./api/start-collecting.ts";
import { requestOptionsOf, type CollectOptionsValue } from "./collect-options.tsx";
import { fileProblem } from "./format.ts";
import { UrlQueueAnswer, type QueueAnswer } from "./url-queue-answer.tsx";

const ACCEPT = ".xlsx,.csv,.txt,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv,text/plain";
const MAX_MB = IMPORT_MAX_BYTES / 1024 / 1024;

export function CollectImportForm({ options, onImported }: { options: CollectOptionsValue; onImported?: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [answer, setAnswer] = useState<QueueAnswer | null>(null);
  const importUrls = useImportUrls();

  function choose(f: File | null) {
    setFile(f);
    setProblem(f ? fileProblem(f) : null);
  }

  function submit() {
    if (!file) {
      setProblem("请选择要导入的文件");
      return;
    }
    const p = fileProblem(file);
    if (p) {
      setProblem(p);
      return;
    }
    setAnswer(null);
    importUrls.mutate(
      { file, options: requestOptionsOf(options) },
      {
        onSuccess: (r) => {
          setAnswer(r);
          choose(null);
          if (input.current) input.current.value = "";
          onImported?.();
        },
        onError: (error) => {
          // 413 (too large) and 415 (not a workbook or text) get no global notice: say it here.
          if (error instanceof ApiError && error.notice == null && error.status !== 0) {
            setProblem(error.serverMessage || error.message);
          }
        },
      },
    );
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-2">
        <Label htmlFor="collect-import-file">链接文件</Label>
        <Input
          ref={input}
          id="collect-import-file"
          type="file"
          accept={ACCEPT}
          onChange={(e) => choose(e.target.files?.[0] ?? null)}
          aria-invalid={!!problem}
          aria-describedby="collect-import-hint"
          className="h-10 cursor-pointer py-1.5"
          data-testid="collect-import-file"
        />
        <p id="collect-import-hint" className="text-muted-foreground text-xs">
          支持 xlsx、csv、txt：表格中任意单元格或文本中每行的 http/https 链接都会被导入；最大 {MAX_MB} MB，最多{" "}
          {IMPORT_MAX_ROWS.toLocaleString("zh-CN")} 行。已在队列中的链接会自动忽略。
        </p>
        {problem ? (
          <p role="alert" className="text-destructive text-xs" data-testid="collect-import-error">
            {problem}
          </p>
        ) : null}
      </div>
      <div>
        <Button onClick={submit} loading={importUrls.isPending} disabled={!file || !!problem} data-testid="collect-import-submit">
          <FileUp />
          导入链接
        </Button>
      </div>
      {answer ? <UrlQueueAnswer answer={answer} testId="collect-import-result" /> : null}
    </div>
  );
}
