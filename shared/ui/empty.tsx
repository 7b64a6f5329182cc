import { Inbox } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn.ts";

export const EMPTY_TEXT = "暂无数据";

export type EmptyProps = Omit<ComponentProps<"div">, "title"> & {
  /** Defaults to 暂无数据. */
  text?: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  /** e.g. a "新建" button. */
  action?: ReactNode;
};

export function Empty({ className, text = EMPTY_TEXT, description, icon, action, ...props }: EmptyProps) {
  return (
    <div
      data-slot="empty"
      className={cn("text-muted-foreground flex flex-col items-center justify-center gap-2 py-10 text-center text-sm", className)}
      {...props}
    >
      {icon ?? <Inbox aria-hidden="true" className="size-10 stroke-1" />}
      <p className="text-foreground/70">{text}</p>
      {description && <p className="text-xs">{description}</p>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
