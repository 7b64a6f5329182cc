// A receipt image (GetReceipt needs the session's headers, so it is fetched and shown from a blob): a thumbnail (the
// small preview the server made at upload) that opens the full image, or the full image itself in the review dialog.
import { ImageOff, ZoomIn } from "lucide-react";
import { useEffect, useState } from "react";
import { cn } from "#shared/ui/cn.ts";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { receiptObjectUrl } from "./api/charge-records.ts";

/** The image's object URL while mounted (revoked after); "error" when it could not be read. */
function useReceiptUrl(pic: string | null, preview = false): string | null | "error" {
  const [url, setUrl] = useState<string | null | "error">(null);
  useEffect(() => {
    if (!pic) return;
    let made: string | null = null;
    let live = true;
    setUrl(null);
    receiptObjectUrl(pic, preview).then(
      (u) => {
        made = u;
        if (live) setUrl(u);
        else URL.revokeObjectURL(u);
      },
      () => live && setUrl("error"),
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [pic, preview]);
  return url;
}

/** The image; `preview` for a small place (a list's thumbnail, a QR code beside a form). */
export function ReceiptImage({ pic, className, testId, preview }: { pic: string; className?: string; testId?: string; preview?: boolean }) {
  const url = useReceiptUrl(pic, preview);
  if (url === "error")
    return (
      <div className={cn("text-muted-foreground flex items-center justify-center gap-1 text-xs", className)} data-testid={testId}>
        <ImageOff className="size-4" />
        凭证无法读取
      </div>
    );
  if (!url)
    return (
      <div className={cn("flex items-center justify-center", className)} data-testid={testId} data-loading="true">
        <Spinner />
      </div>
    );
  return (
    <img
      src={url}
      alt="转账凭证"
      className={cn("object-contain", className)}
      data-testid={testId}
      data-loaded="true"
      onLoad={(e) => e.currentTarget.setAttribute("data-ready", "true")}
    />
  );
}

/** A thumbnail that opens the full image in a dialog. */
export function ReceiptThumb({ pic, testId }: { pic: string; testId?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="group relative size-10 overflow-hidden rounded border"
        onClick={() => setOpen(true)}
        title="查看转账凭证"
        data-testid={testId}
      >
        <ReceiptImage pic={pic} className="size-full object-cover" preview />
        <span className="absolute inset-0 hidden items-center justify-center bg-black/40 text-white group-hover:flex">
          <ZoomIn className="size-4" />
        </span>
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="sm:max-w-3xl">
          <DialogHeader>
            <DialogTitle>转账凭证</DialogTitle>
            <DialogDescription className="sr-only">转账凭证原图</DialogDescription>
          </DialogHeader>
          <ReceiptImage pic={pic} className="max-h-[70vh] min-h-40 w-full" />
        </DialogContent>
      </Dialog>
    </>
  );
}
