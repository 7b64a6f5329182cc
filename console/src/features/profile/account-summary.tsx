// The account card of the profile screen (GetMyInfo): who I am, in which company, with which roles, and the
// company's balance, sub-account and shop counts.
import { Store, Users, Wallet } from "lucide-react";
import type { ReactNode } from "react";
import { AccountPaymentType } from "#shared/contract/enums.ts";
import type { TenantAccountSummary } from "#shared/contract/users.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { Skeleton } from "#shared/ui/skeleton.tsx";
import { useUserStore } from "../../stores/user.ts";
import { formatAmount, formatDateTime } from "../../lib/format.ts";
import { useMyInfo } from "./api/get-profile.ts";

const roleNames: Record<string, string> = { host: "平台管理员", super: "主账号", sub: "子账号" };
const paymentTypeNames: Record<number, string> = {
  [AccountPaymentType.Trial]: "试用",
  [AccountPaymentType.Monthly]: "包月",
  [AccountPaymentType.Yearly]: "包年",
  [AccountPaymentType.Permanent]: "永久",
};

const roleName = (role: string) => roleNames[role] ?? role;

function Item({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex items-start justify-between gap-4 border-b py-2.5 text-sm last:border-b-0">
      <dt className="text-muted-foreground shrink-0">{label}</dt>
      <dd className="min-w-0 text-right break-all" data-testid={testId}>
        {children || <span className="text-muted-foreground">未设置</span>}
      </dd>
    </div>
  );
}

function Figure({ icon, label, value, testId }: { icon: ReactNode; label: string; value: ReactNode; testId: string }) {
  return (
    <div className="bg-muted/50 flex flex-col items-center gap-1 rounded-md px-2 py-3 text-center">
      <span aria-hidden="true" className="text-primary [&_svg]:size-4">
        {icon}
      </span>
      <span className="text-base font-semibold tabular-nums" data-testid={testId}>
        {value}
      </span>
      <span className="text-muted-foreground text-xs">{label}</span>
    </div>
  );
}

export function AccountSummary() {
  const info = useMyInfo();
  const roles = useUserStore((s) => s.roleList);
  const me = info.data;

  return (
    <Card data-testid="profile-summary">
      <CardHeader>
        <CardTitle>账号信息</CardTitle>
      </CardHeader>
      <CardContent>{me ? <SummaryBody me={me} roles={roles} /> : <SummarySkeleton />}</CardContent>
    </Card>
  );
}

function SummaryBody({ me, roles }: { me: TenantAccountSummary; roles: string[] }) {
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <div className="bg-primary/10 text-primary grid size-12 shrink-0 place-items-center rounded-full text-lg font-semibold">
          {(me.name || me.userName).slice(0, 1).toUpperCase()}
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <span className="truncate font-medium" data-testid="profile-username">
            {me.userName}
          </span>
          <div className="flex flex-wrap gap-1" data-testid="profile-roles">
            {roles.map((r) => (
              <Badge key={r} variant={r === "sub" ? "secondary" : "default"}>
                {roleName(r)}
              </Badge>
            ))}
            {!me.isActive ? <Badge variant="destructive">已停用</Badge> : null}
          </div>
        </div>
      </div>
      {/* The company's figures are the main account's business; the host has no company. */}
      {me.isHost || !me.isMainAccount ? null : (
        <div className="grid grid-cols-3 gap-2">
          <Figure icon={<Wallet />} label="账户余额" value={formatAmount(me.balance)} testId="profile-balance" />
          <Figure icon={<Users />} label="子账号数" value={me.subAccountCount} testId="profile-sub-account-count" />
          <Figure icon={<Store />} label="店铺数" value={me.meliAccountCount} testId="profile-meli-account-count" />
        </div>
      )}
      <dl>
        <Item label="公司名称" testId="profile-tenant">
          {me.isHost ? "平台" : me.tenantName}
        </Item>
        <Item label="邮箱" testId="profile-email">
          {me.email}
        </Item>
        <Item label="手机号" testId="profile-phone">
          {me.phoneNumber}
        </Item>
        {me.isHost ? null : (
          <>
            <Item label="账号类型">{paymentTypeNames[me.accountPaymentType] ?? "-"}</Item>
            <Item label="到期时间">{me.accountExpireTime ? formatDateTime(me.accountExpireTime) : "长期有效"}</Item>
            {me.isMainAccount ? null : (
              <Item label="子账号到期">{me.subAccountExpireTime ? formatDateTime(me.subAccountExpireTime) : "长期有效"}</Item>
            )}
          </>
        )}
      </dl>
    </div>
  );
}

function SummarySkeleton() {
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <div className="flex items-center gap-3">
        <Skeleton className="size-12 rounded-full" />
        <div className="flex flex-col gap-2">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-20" />
        </div>
      </div>
      <Skeleton className="h-20 w-full" />
      <Skeleton className="h-32 w-full" />
    </div>
  );
}
