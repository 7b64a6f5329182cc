// 导入: an xlsx, csv or txt file of words (every non-empty cell, or every cell of every line; at most
// INFRINGEMENT_IMPORT_MAX_BYTES) → ImportInfringementWord (multipart). Choosing the file imports it; the answer's counts
// are shown as a toast, and a rejected file (413/415, which get no global notice) is explained the same way.
import { FileUp } from "lucide-react";
import { useRef } from "react";
import { ApiError } from "#shared/api/errors.ts";
import { Button } from "#shared/ui/button.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useImportInfringementWords } from "./api/edit-infringement-words.ts";
import { answerText, IMPORT_MAX_MB, wordFileProblem } from "./words.ts";

const ACCEPT = ".xlsx,.csv,.txt,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv,text/plain";

export function SensitivesImportButton({ disabled }: { disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const importWords = useImportInfringementWords();

  function choose(file: File | null) {
    if (input.current) input.current.value = "";
    if (!file) return;
    const problem = wordFileProblem(file);
    if (problem) {
      toast.error(problem);
      return;
    }
    importWords.mutate(file, {
      onSuccess: (r) => {
        if (r.successCount) toast.success(answerText(r, "成功导入"));
        else toast.info(answerText(r, "成功导入"));
      },
      onError: (error) => {
        if (error instanceof ApiError && error.notice == null && error.status !== 0) {
          toast.error(error.serverMessage || error.message);
        }
      },
    });
  }

  return (
    <>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-label="导入侵权词文件"
        disabled={disabled || importWords.isPending}
        onChange={(e) => choose(e.target.files?.[0] ?? null)}
        data-testid="sensitives-import-file"
      />
      <Button
        variant="outline"
        disabled={disabled}
        loading={importWords.isPending}
        onClick={() => input.current?.click()}
        title={`支持 xlsx、csv、txt：每个单元格或每行一个词，最大 ${IMPORT_MAX_MB} MB`}
        data-testid="sensitives-import"
      >
        <FileUp />
        导入
      </Button>
    </>
  );
}
