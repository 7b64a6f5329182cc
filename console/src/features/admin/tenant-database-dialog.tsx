// 更多 → 独立数据库 on the tenants screen (issue 31): where the tenant's data lives (the shared database, its own, or a
// move under way) with its own database's connection string, password hidden. The host sets a PostgreSQL connection
// string (confirmed) to move the tenant there, or moves it back (confirmed); either starts a task the page follows, and
// a move under way can be followed again from here. The server's refusal (PGlite, an unreachable or the shared
// database, a failed migration) is shown in the dialog.
import { useState } from "react";
import { ApiError } from "#shared/api/errors.ts";
import { TaskType } from "#shared/contract/enums.ts";
import { defaultConnectionStringQuery, type TenantConnection } from "#shared/contract/tenancy.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { Loading } from "#shared/ui/spinner.tsx";
import { useMoveToOwnDatabase, useMoveToSharedDatabase, useTenantDatabase } from "./api/tenant-database.ts";
import type { TenantDialogProps } from "./tenant-task.tsx";

const stateNames: Record<TenantConnection["state"], { label: string; tone: "secondary" | "success" | "warning" }> = {
  shared: { label: "共享数据库", tone: "secondary" },
  moving: { label: "正在迁往独立数据库", tone: "warning" },
  active: { label: "独立数据库", tone: "success" },
  returning: { label: "正在迁回共享数据库", tone: "warning" },
};

const toOwnTitle = "迁移到独立数据库";
const toSharedTitle = "迁回共享数据库";

/** The server's words for a refused call (the driver's detail, when it gave one, below). */
function ErrorNote({ error }: { error: Error | null }) {
  if (!error) return null;
  const detail = error instanceof ApiError && error.details && error.details !== error.message ? error.details : null;
  return (
    <div className="text-destructive flex flex-col gap-0.5 text-sm" role="alert" data-testid="tenant-database-error">
      <span>{error instanceof ApiError ? (error.serverMessage ?? error.message) : error.message}</span>
      {detail ? <span className="font-mono text-xs break-all">{detail}</span> : null}
    </div>
  );
}

export function TenantDatabaseDialog({ tenant, onOpenChange, onTask }: TenantDialogProps) {
  const current = useTenantDatabase(tenant?.id ?? null);
  const toOwn = useMoveToOwnDatabase();
  const toShared = useMoveToSharedDatabase();
  const [text, setText] = useState("");
  const pending = toOwn.isPending || toShared.isPending;
  const parsed = defaultConnectionStringQuery.safeParse({ defaultConnectionString: text });
  const invalid = text.trim() !== "" && !parsed.success ? (parsed.error?.issues[0]?.message ?? "连接字符串无效") : null;
  const c = current.data;

  function close() {
    setText("");
    toOwn.reset();
    toShared.reset();
    onOpenChange(false);
  }

  function follow(taskId: string, title: string) {
    if (!tenant) return;
    close();
    onTask({ taskId, taskType: TaskType.Maintenance, title, description: `公司 ${tenant.tenantName}` });
  }

  async function moveToOwn() {
    if (!tenant || !parsed.success) return;
    const ok = await confirm({
      title: toOwnTitle,
      description: `将检查该数据库并建表，然后把公司「${tenant.tenantName}」的全部数据复制过去；迁移期间该公司的操作会暂停等待。确定继续吗？`,
      tone: "warning",
      confirmText: "开始迁移",
    });
    if (!ok) return;
    toShared.reset();
    toOwn.mutate(
      { tenantId: tenant.id, connectionString: parsed.data.defaultConnectionString },
      { onSuccess: (r) => follow(r.taskId, toOwnTitle) },
    );
  }

  async function moveToShared() {
    if (!tenant) return;
    const ok = await confirm({
      title: toSharedTitle,
      description: `将把公司「${tenant.tenantName}」的全部数据复制回平台的共享数据库，之后不再使用其独立数据库（其中的数据保留）。确定继续吗？`,
      tone: "warning",
      confirmText: "迁回",
    });
    if (!ok) return;
    toOwn.reset();
    toShared.mutate(tenant.id, { onSuccess: (r) => follow(r.taskId, toSharedTitle) });
  }

  const moving = c?.state === "moving" || c?.state === "returning";
  return (
    <Dialog open={!!tenant} onOpenChange={(open) => !open && !pending && close()}>
      <DialogContent className="sm:max-w-lg" data-testid="tenant-database-dialog">
        <DialogHeader>
          <DialogTitle>独立数据库：{tenant?.tenantName}</DialogTitle>
          <DialogDescription>
            公司的数据默认存放在平台的共享数据库中；也可以迁移到它自己的 PostgreSQL 数据库，迁移和迁回都作为任务在后台进行。
          </DialogDescription>
        </DialogHeader>
        {current.isPending ? (
          <Loading />
        ) : c ? (
          <div className="flex flex-col gap-3 text-sm">
            <div className="flex items-center gap-2">
              <span className="text-muted-foreground">当前位置</span>
              <Badge variant={stateNames[c.state].tone} data-testid="tenant-database-state" data-state={c.state}>
                {stateNames[c.state].label}
              </Badge>
              {moving && c.taskId ? (
                <Button
                  variant="link"
                  size="sm"
                  className="h-auto px-0"
                  onClick={() => follow(c.taskId!, c.state === "moving" ? toOwnTitle : toSharedTitle)}
                  data-testid="tenant-database-follow"
                >
                  查看进度
                </Button>
              ) : null}
            </div>
            {c.connectionString ? (
              <div className="flex flex-col gap-1">
                <span className="text-muted-foreground">连接字符串</span>
                <code className="bg-muted rounded px-2 py-1 text-xs break-all" data-testid="tenant-database-connection">
                  {c.connectionString}
                </code>
              </div>
            ) : null}
            {c.state === "shared" ? (
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="tenant-database-input">独立数据库的连接字符串</Label>
                <Input
                  id="tenant-database-input"
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  placeholder="postgres://用户:密码@主机:端口/数据库"
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={2048}
                  className="font-mono"
                  data-testid="tenant-database-input"
                />
                {invalid ? <p className="text-destructive text-xs">{invalid}</p> : null}
              </div>
            ) : null}
          </div>
        ) : null}
        <ErrorNote error={toOwn.error ?? toShared.error} />
        <DialogFooter>
          <Button variant="outline" disabled={pending} onClick={close}>
            关闭
          </Button>
          {c?.state === "shared" ? (
            <Button
              disabled={!parsed.success}
              loading={toOwn.isPending}
              onClick={() => void moveToOwn()}
              data-testid="tenant-database-submit"
            >
              {toOwnTitle}
            </Button>
          ) : null}
          {c?.state === "active" ? (
            <Button
              variant="destructive"
              loading={toShared.isPending}
              onClick={() => void moveToShared()}
              data-testid="tenant-database-return"
            >
              {toSharedTitle}
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
