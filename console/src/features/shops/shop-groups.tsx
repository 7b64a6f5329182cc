// The 账号分组 tab (GetMeliAccGroup): one card per account group, i.e. per Mercado Libre seller account, with its
// authorization state, its sites, the salespeople holding its shops, and the shops themselves.
import { TriangleAlert, Store, KeyRound } from "lucide-react";
import type { ReactNode } from "react";
import { MeliAccountStatus } from "#shared/contract/enums.ts";
import type { AccountGroupResponse } from "#shared/contract/meli.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { DataTable } from "#shared/ui/data-table.tsx";
import { Empty } from "#shared/ui/empty.tsx";
import { Loading } from "#shared/ui/spinner.tsx";
import { useAccountGroups } from "./api/get-shops.ts";
import { groupShopColumns } from "./shop-columns.tsx";
import { siteName } from "./names.ts";

type Group = AccountGroupResponse["groups"][number];

export type ShopGroupsProps = {
  /** The whole group authorized again (its sites, the owner of its shops). */
  onReauthorize: (group: Group) => void;
  /** The empty state's button. */
  connectButton: ReactNode;
};

function GroupCard({ group, onReauthorize }: { group: Group; onReauthorize: (g: Group) => void }) {
  const needsAuth = group.status === MeliAccountStatus.NeedsAuthorization;
  return (
    <section className="flex flex-col gap-3 rounded-lg border p-4" data-testid={`shops-group-${group.groupId}`} aria-label={group.name}>
      <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <Store aria-hidden="true" className="text-muted-foreground size-4" />
            <h4 className="font-semibold" data-testid="shops-group-name">
              {group.alias?.trim() || group.name}
            </h4>
            {group.alias?.trim() ? <span className="text-muted-foreground text-xs">美客多昵称：{group.name}</span> : null}
            <Badge variant={group.isCbt ? "default" : "secondary"}>{group.isCbt ? "跨境（CBT）全球卖家" : "本地卖家"}</Badge>
            <Badge variant={needsAuth ? "destructive" : "success"}>{needsAuth ? "需重新授权" : "授权正常"}</Badge>
          </div>
          <div className="text-muted-foreground flex flex-wrap gap-x-4 gap-y-1 text-xs">
            <span>
              卖家ID <span className="text-foreground tabular-nums">{group.custId}</span>
            </span>
            <span>
              站点 <span className="text-foreground">{group.sites.map(siteName).join("、") || "-"}</span>
            </span>
            <span>
              业务员 <span className="text-foreground">{group.subUsers.map((u) => u.name).join("、") || "未知业务员"}</span>
            </span>
            {group.brand ? (
              <span>
                品牌 <span className="text-foreground">{group.brand}</span>
              </span>
            ) : null}
          </div>
          {needsAuth && group.statusMessage ? (
            <p className="text-destructive flex items-center gap-1 text-xs">
              <TriangleAlert aria-hidden="true" className="size-3.5" />
              {group.statusMessage}
            </p>
          ) : null}
        </div>
        {needsAuth ? (
          <Button size="sm" variant="outline" onClick={() => onReauthorize(group)} data-testid={`shops-group-reauthorize-${group.groupId}`}>
            <KeyRound />
            重新授权
          </Button>
        ) : null}
      </div>
      <DataTable
        aria-label={`${group.name} 的店铺`}
        columns={groupShopColumns}
        rows={group.accs}
        rowKey={(s) => s.id}
        className="[&_table]:min-w-[760px]"
      />
    </section>
  );
}

export function ShopGroups({ onReauthorize, connectButton }: ShopGroupsProps) {
  const groups = useAccountGroups();
  if (groups.isPending) return <Loading className="h-48" />;
  if (groups.isError) {
    return (
      <Empty
        icon={<TriangleAlert aria-hidden="true" className="text-destructive size-10 stroke-1" />}
        text="账号分组加载失败"
        action={
          <Button variant="outline" onClick={() => void groups.refetch()}>
            重试
          </Button>
        }
        data-testid="shops-groups-error"
      />
    );
  }
  const list = groups.data.groups;
  if (!list.length) {
    return (
      <Empty
        icon={<Store aria-hidden="true" className="size-10 stroke-1" />}
        text="还没有绑定店铺"
        description="绑定美客多卖家账号后，同一账号下各站点的店铺会归为一组显示在这里。"
        action={connectButton}
        data-testid="shops-groups-empty"
      />
    );
  }
  return (
    <div className="flex flex-col gap-4" data-testid="shops-groups">
      <p className="text-muted-foreground text-sm">
        共 <b className="text-foreground tabular-nums">{list.length}</b> 个美客多账号，
        <b className="text-foreground tabular-nums">{list.reduce((n, g) => n + g.accs.length, 0)}</b> 个店铺
      </p>
      {list.map((g) => (
        <GroupCard key={g.groupId} group={g} onReauthorize={onReauthorize} />
      ))}
    </div>
  );
}
