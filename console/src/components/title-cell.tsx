// A list row's title cell: the title as a button that opens the row (or a placeholder when empty). With details
// (children) the title keeps one line and the details sit under it; without, the title wraps to two lines, so a
// long title shows its first words whatever the row height (18px lines keep two of them inside a compact row).
import type { ReactNode } from "react";
import { cn } from "#shared/ui/cn.ts";

export type TitleCellProps = { testId: string; title: string; onOpen: () => void; dense?: boolean; children?: ReactNode };

export function TitleCell({ testId, title, onOpen, dense = false, children }: TitleCellProps) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5" data-testid={testId}>
      <button
        type="button"
        className={cn(
          "hover:text-primary max-w-full cursor-pointer text-left font-medium",
          children ? "truncate" : "line-clamp-2 break-words whitespace-normal",
          dense && "leading-[18px]",
        )}
        title={title}
        onClick={onOpen}
        data-slot="title-text"
      >
        {title || <span className="text-muted-foreground">（无标题）</span>}
      </button>
      {children ? <span className="text-muted-foreground flex min-w-0 items-center gap-2 text-xs">{children}</span> : null}
    </div>
  );
}
