// The receipt field of the top-up and withdrawal forms: choosing an image checks it (type, size), uploads it at once
// (UploadReceipt) and shows it; the form holds the answer's pic. A refused file says why.
import { ImagePlus, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ApiError } from "#shared/api/errors.ts";
import { Button } from "#shared/ui/button.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { uploadReceipt } from "./api/charge-records.ts";
import { RECEIPT_ACCEPT, RECEIPT_MAX_MB, receiptFileProblem } from "./receipt.ts";

export type ReceiptUploadProps = {
  id?: string;
  value: string;
  onChange: (pic: string) => void;
  /** While an upload runs (the form waits for it). */
  onBusy?: (busy: boolean) => void;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
  testId: string;
  /** The button's words (default 上传转账截图). */
  label?: string;
};

export function ReceiptUpload({ id, value, onChange, onBusy, testId, label = "上传转账截图", ...aria }: ReceiptUploadProps) {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  async function choose(file: File | undefined) {
    if (input.current) input.current.value = "";
    if (!file) return;
    const bad = receiptFileProblem(file);
    setProblem(bad);
    if (bad) return;
    setBusy(true);
    onBusy?.(true);
    try {
      const pic = await uploadReceipt(file);
      setPreview(URL.createObjectURL(file));
      onChange(pic);
    } catch (e) {
      setProblem(e instanceof ApiError ? e.serverMessage || e.message : "上传失败，请重试");
    } finally {
      setBusy(false);
      onBusy?.(false);
    }
  }

  return (
    <div className="flex flex-col gap-1.5" data-testid={testId} data-pic={value || undefined}>
      <input
        ref={input}
        id={id}
        type="file"
        accept={RECEIPT_ACCEPT}
        className="sr-only"
        onChange={(e) => void choose(e.target.files?.[0])}
        data-testid={`${testId}-file`}
        {...aria}
      />
      {value && preview ? (
        <div className="relative w-fit">
          <img src={preview} alt="转账凭证预览" className="max-h-40 rounded-md border object-contain" data-testid={`${testId}-preview`} />
          <Button
            variant="secondary"
            size="icon"
            className="absolute top-1 right-1 size-6"
            aria-label="移除凭证"
            onClick={() => {
              onChange("");
              setPreview(null);
            }}
          >
            <X className="size-3.5" />
          </Button>
        </div>
      ) : (
        <button
          type="button"
          className="hover:border-primary text-muted-foreground flex h-28 w-48 flex-col items-center justify-center gap-1 rounded-md border border-dashed text-xs"
          onClick={() => input.current?.click()}
          disabled={busy}
        >
          {busy ? <Spinner /> : <ImagePlus className="size-5" />}
          {busy ? "上传中…" : label}
        </button>
      )}
      <p className="text-muted-foreground text-xs">JPG、PNG、WebP 或 GIF，最大 {RECEIPT_MAX_MB} MB</p>
      {problem ? (
        <p role="alert" className="text-destructive text-xs" data-testid={`${testId}-problem`}>
          {problem}
        </p>
      ) : null}
    </div>
  );
}
