// 添加侵权词: a textarea of words, one per line → CreateIfringementWord; the answer's counts are shown as a toast.
import { useEffect, useState } from "react";
import { INFRINGEMENT_WORD_MAX_CHARS } from "#shared/contract/infringement.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Label } from "#shared/ui/label.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useCreateInfringementWords } from "./api/edit-infringement-words.ts";
import { answerText, wordsOf, wordsProblem } from "./words.ts";

export type SensitivesAddDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Which list the words go to, for the description. */
  listName: string;
};

export function SensitivesAddDialog({ open, onOpenChange, listName }: SensitivesAddDialogProps) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateInfringementWords();

  useEffect(() => {
    if (open) {
      setText("");
      setProblem(null);
    }
  }, [open]);

  const words = wordsOf(text);

  function submit() {
    const p = wordsProblem(words);
    if (p) {
      setProblem(p);
      return;
    }
    create.mutate(words, {
      onSuccess: (r) => {
        if (r.successCount) toast.success(answerText(r, "成功添加"));
        else toast.info(answerText(r, "成功添加"));
        onOpenChange(false);
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !create.isPending && onOpenChange(o)}>
      <DialogContent className="sm:max-w-lg" data-testid="sensitives-add-dialog">
        <DialogHeader>
          <DialogTitle>添加侵权词</DialogTitle>
          <DialogDescription>添加到{listName}。每行一个词，不区分大小写；已存在的词会自动忽略。</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2">
          <Label htmlFor="sensitives-add-input">侵权词</Label>
          <Textarea
            id="sensitives-add-input"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setProblem(null);
            }}
            rows={10}
            placeholder={"每行一个词，例如：\nNike\nAdidas"}
            aria-invalid={!!problem}
            aria-describedby="sensitives-add-hint"
            className="font-mono"
            data-testid="sensitives-add-input"
          />
          <p id="sensitives-add-hint" className="text-muted-foreground text-xs">
            共 {words.length.toLocaleString("zh-CN")} 个词；每个词最多 {INFRINGEMENT_WORD_MAX_CHARS} 个字符。
          </p>
          {problem ? (
            <p role="alert" className="text-destructive text-xs" data-testid="sensitives-add-error">
              {problem}
            </p>
          ) : null}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={create.isPending}>
            取消
          </Button>
          <Button loading={create.isPending} disabled={!words.length} onClick={submit} data-testid="sensitives-add-submit">
            确定
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
