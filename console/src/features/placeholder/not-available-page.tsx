// Shown for routes in the menus whose screens are built by a later area (issue), instead of an empty or fake screen.
import { Construction } from "lucide-react";
import type { PageProps } from "#shared/routes/table.ts";

export function NotAvailablePage({ route }: PageProps) {
  return (
    <div className="flex h-full min-h-80 flex-col items-center justify-center gap-3 text-center" data-testid="not-available">
      <Construction className="size-12 text-muted-foreground" aria-hidden />
      <h2 className="text-lg font-semibold">{route.meta.title}</h2>
      <p className="text-sm text-muted-foreground">该功能暂未开放，敬请期待</p>
    </div>
  );
}
