// How an application's status and content read on both screens.
import { authContentNames, moduleAuthStatusNames } from "#shared/contract/module-auth.ts";
import { ModuleAuthStatus } from "#shared/contract/enums.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { formatDateTime } from "../../lib/format.ts";

const variants: Record<number, "success" | "warning" | "secondary" | "destructive" | "outline"> = {
  [ModuleAuthStatus.Pending]: "warning",
  [ModuleAuthStatus.Approved]: "success",
  [ModuleAuthStatus.Rejected]: "destructive",
  [ModuleAuthStatus.Revoked]: "secondary",
  [ModuleAuthStatus.Expired]: "secondary",
};

export function AuthStatusBadge({ status }: { status: number }) {
  return (
    <Badge variant={variants[status] ?? "outline"} data-testid="auth-status" data-status={status}>
      {moduleAuthStatusNames[status] ?? `状态 ${status}`}
    </Badge>
  );
}

export const contentText = (content: string[]) => content.map((c) => authContentNames[c] ?? c).join("、");

export const timeCell = (iso: string | null) => <span className="tabular-nums">{iso ? formatDateTime(iso) : "-"}</span>;

/** The status facet's options. */
export const statusOptions = Object.values(ModuleAuthStatus).map((v) => ({ value: String(v), label: moduleAuthStatusNames[v] }));
