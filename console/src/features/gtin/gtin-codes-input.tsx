// 添加编码: codes pasted (one per line, or separated by commas or spaces) or read from a .txt/.csv file in the browser,
// each checked with the GS1 check digit before anything is sent (shared/contract/gtin.ts checkCodes, the server's rule
// too). The invalid ones are listed in red and left out; the answer says how many were added, ignored and skipped.
import { FileUp, Plus } from "lucide-react";
import { useMemo, useRef, useState } from "react";
import { checkCodes, GTIN_FILE_MAX_BYTES, MAX_CODES_PER_CALL } from "#shared/contract/gtin.ts";
import { Button } from "#shared/ui/button.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useSetGtinCodes } from "./api/gtin-codes.ts";

/** How many invalid codes the list under the box shows (the rest are counted). */
const SHOWN_INVALID = 50;
const FILE_MAX_KB = GTIN_FILE_MAX_BYTES / 1024;

const n = (x: number) => x.toLocaleString("zh-CN");

/** What is wrong with a chosen file before it is read, or null. */
function codeFileProblem(file: { name: string; size: number }): string | null {
  if (!/\.(txt|csv)$/i.test(file.name)) return "请选择 txt 或 csv 文件";
  if (file.size === 0) return "文件是空的";
  if (file.size > GTIN_FILE_MAX_BYTES) return `文件过大，最大 ${n(FILE_MAX_KB)} KB（约 6 万个编码）`;
  return null;
}

export function GtinCodesInput() {
  const [text, setText] = useState("");
  const check = useMemo(() => checkCodes(text), [text]);
  const file = useRef<HTMLInputElement>(null);
  const add = useSetGtinCodes();
  const tooMany = check.valid.length > MAX_CODES_PER_CALL;

  async function choose(f: File | null) {
    if (file.current) file.current.value = "";
    if (!f) return;
    const problem = codeFileProblem(f);
    if (problem) return void toast.error(problem);
    const content = await f.text();
    setText((t) => (t.trim() ? `${t.trimEnd()}\n${content}` : content));
  }

  function submit() {
    const skipped = check.invalid.length;
    add.mutate(check.valid, {
      onSuccess: (r) => {
        const parts = [`已添加 ${n(r.added)} 个编码`];
        if (r.ignored) parts.push(`忽略 ${n(r.ignored)} 个（已在码池中或已使用）`);
        if (skipped) parts.push(`跳过无效 ${n(skipped)} 个`);
        (skipped ? toast.warning : toast.success)(parts.join("，"));
        setText(skipped ? check.invalid.join("\n") : "");
      },
    });
  }

  return (
    <section className="flex flex-col gap-2" data-testid="gtin-input">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-medium">添加编码</h3>
        <span className="text-muted-foreground text-xs">
          每行一个编码，也可用逗号或空格分隔；支持 EAN-8、UPC-A（12 位）、EAN-13、GTIN-14
        </span>
      </div>
      <Textarea
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={8}
        placeholder={"粘贴购买的 GTIN 编码，例如：\n7501234567893\n7501234567909"}
        aria-label="GTIN 编码"
        aria-invalid={check.invalid.length > 0 || undefined}
        className="font-mono"
        data-testid="gtin-text"
      />
      <div className="flex flex-wrap items-center gap-3 text-xs" data-testid="gtin-check">
        <span>
          有效 <b data-testid="gtin-valid-count">{n(check.valid.length)}</b> 个
        </span>
        {check.repeated ? <span className="text-muted-foreground">重复 {n(check.repeated)} 个（只添加一次）</span> : null}
        <span className={check.invalid.length ? "text-destructive" : "text-muted-foreground"}>
          无效 <b data-testid="gtin-invalid-count">{n(check.invalid.length)}</b> 个{check.invalid.length ? "（不会添加）" : ""}
        </span>
        {tooMany ? <span className="text-destructive">一次最多添加 {n(MAX_CODES_PER_CALL)} 个编码，请分批添加</span> : null}
      </div>
      {check.invalid.length ? (
        <div className="border-destructive/40 bg-destructive/5 rounded-md border p-2 text-xs" data-testid="gtin-invalid">
          <div className="text-destructive mb-1">以下编码位数或校验位不正确（应为 8、12、13 或 14 位数字）：</div>
          <ul className="flex flex-wrap gap-x-3 gap-y-0.5 font-mono">
            {check.invalid.slice(0, SHOWN_INVALID).map((c) => (
              <li key={c}>{c}</li>
            ))}
            {check.invalid.length > SHOWN_INVALID ? <li>… 等 {n(check.invalid.length)} 个</li> : null}
          </ul>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button onClick={submit} disabled={!check.valid.length || tooMany} loading={add.isPending} data-testid="gtin-add">
          <Plus />
          添加到码池{check.valid.length ? `（${n(check.valid.length)}）` : ""}
        </Button>
        <input
          ref={file}
          type="file"
          accept=".txt,.csv,text/plain,text/csv"
          className="sr-only"
          tabIndex={-1}
          aria-label="导入编码文件"
          onChange={(e) => void choose(e.target.files?.[0] ?? null)}
          data-testid="gtin-file"
        />
        <Button
          variant="outline"
          onClick={() => file.current?.click()}
          title={`txt 或 csv，最大 ${n(FILE_MAX_KB)} KB`}
          data-testid="gtin-import"
        >
          <FileUp />
          导入文件
        </Button>
        <Button variant="ghost" disabled={!text} onClick={() => setText("")} data-testid="gtin-text-clear">
          清空输入
        </Button>
      </div>
    </section>
  );
}
