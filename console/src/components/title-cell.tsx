// A list row's title cell: the title as a button that opens the row (or a placeholder when empty), with one line of
// details under it. Shared by the collection and product lists.
import type { ReactNode } from "react";

export function TitleCell({ testId, title, onOpen, children }: { testId: string; title: string; onOpen: () => void; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5" data-testid={testId}>
      <button
        type="button"
        className="hover:text-primary max-w-full cursor-pointer truncate text-left font-medium"
        title={title}
        onClick={onOpen}
      >
        {title || <span className="text-muted-foreground">（无标题）</span>}
      </button>
      <span className="text-muted-foreground flex min-w-0 items-center gap-2 text-xs">{children}</span>
    </div>
  );
}
