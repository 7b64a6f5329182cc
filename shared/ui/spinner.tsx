import { LoaderCircle } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "./cn.ts";

/** The spec's loading text. */
const LOADING_TEXT = "加载中...";

export function Spinner({ className, ...props }: ComponentProps<typeof LoaderCircle>) {
  return <LoaderCircle aria-hidden="true" className={cn("size-4 animate-spin", className)} {...props} />;
}

export type LoadingProps = ComponentProps<"div"> & { text?: string };

/** A block placeholder for a region whose data is on its way. */
export function Loading({ className, text = LOADING_TEXT, ...props }: LoadingProps) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={cn("text-muted-foreground flex items-center justify-center gap-2 py-10 text-sm", className)}
      {...props}
    >
      <Spinner />
      <span>{text}</span>
    </div>
  );
}
