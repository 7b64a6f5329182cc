// Which shop groups a migration (迁移店铺, MigrateAccount) or a removal (移除店铺, RemoveMeliAccount) takes: the groups
// ticked in the list, the sites (with groups ticked: those of them selling there; with none: every group selling
// there) and the sellers left alone (protectedCustIds), as the server reads the selection.
import { useState } from "react";
import { MELI_SITES, type MeliSiteNumber } from "#shared/contract/meli.ts";
import type { TenantMeliAccountInfo } from "#shared/contract/tenant-transfer.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Checkbox } from "#shared/ui/checkbox.tsx";
import { Label } from "#shared/ui/label.tsx";
import { Loading } from "#shared/ui/spinner.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { custIdList } from "./clear-confirm.ts";

type ShopGroup = TenantMeliAccountInfo["groups"][number];

const SITES = Object.entries(MELI_SITES).map(([n, s]) => ({ site: Number(n) as MeliSiteNumber, name: s.name }));

/**
 * The groups the server will take, as it reads the selection: those ticked (on the chosen sites, when any), else every
 * group selling on the chosen sites; less those whose seller, or one of whose shops' sellers, is protected.
 */
type SelectableGroup = { groupId: string; custId: string; sites: number[]; accounts: { custId: string }[] };

export function takenGroups<G extends SelectableGroup>(
  groups: G[],
  picked: ReadonlySet<string>,
  sites: ReadonlySet<number>,
  protectedCustIds: string[],
): G[] {
  const chosen = groups.filter((g) => picked.has(g.groupId));
  const guarded = new Set(protectedCustIds);
  return (chosen.length ? chosen : sites.size ? groups : [])
    .filter((g) => sites.size === 0 || g.sites.some((s) => sites.has(s)))
    .filter((g) => !guarded.has(g.custId) && !g.accounts.some((a) => guarded.has(a.custId)));
}

export function useShopSelection(groups: ShopGroup[]) {
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [sites, setSites] = useState<Set<number>>(new Set());
  const [protectedText, setProtectedText] = useState("");
  const protectedIds = custIdList(protectedText);
  const chosen = groups.filter((g) => picked.has(g.groupId));
  const taken = takenGroups(groups, picked, sites, protectedIds.items);
  const toggleIn =
    <T,>(set: (f: (s: Set<T>) => Set<T>) => void) =>
    (value: T, on: boolean) =>
      set((s) => {
        const next = new Set(s);
        if (on) next.add(value);
        else next.delete(value);
        return next;
      });
  return {
    picked,
    sites,
    protectedText,
    setProtectedText,
    togglePicked: toggleIn(setPicked),
    toggleSite: toggleIn(setSites),
    /** Groups ticked, or sites chosen: something to select by. */
    ready: (chosen.length > 0 || sites.size > 0) && !protectedIds.problem,
    problem: protectedIds.problem,
    taken,
    /** The call's selection fields. */
    body: () => ({
      groupIds: chosen.map((g) => g.groupId),
      selfIds: [],
      sites: [...sites].sort(),
      protectedCustIds: protectedIds.items,
    }),
    reset: () => {
      setPicked(new Set());
      setSites(new Set());
      setProtectedText("");
    },
  };
}
export type ShopSelection = ReturnType<typeof useShopSelection>;

export function ShopGroupList({
  groups,
  loading,
  sel,
  testId,
}: {
  groups: ShopGroup[];
  loading: boolean;
  sel: ShopSelection;
  testId: string;
}) {
  if (loading) return <Loading className="h-32" />;
  if (groups.length === 0) return <p className="text-muted-foreground py-6 text-center text-sm">该公司没有店铺</p>;
  return (
    <ul className="flex max-h-64 flex-col divide-y overflow-auto rounded-md border" aria-label="店铺组" data-testid={`${testId}-groups`}>
      {groups.map((g) => (
        <li key={g.groupId} className="flex items-center gap-3 px-3 py-2 text-sm">
          <Checkbox
            checked={sel.picked.has(g.groupId)}
            onCheckedChange={(on) => sel.togglePicked(g.groupId, on === true)}
            aria-label={`选择 ${g.alias || g.name}`}
            data-testid={`${testId}-group-${g.groupId}`}
          />
          <span className="flex min-w-0 flex-1 flex-col">
            <span className="truncate font-medium">
              {g.alias || g.name} <span className="text-muted-foreground font-normal">({g.custId})</span>
            </span>
            <span className="text-muted-foreground text-xs">
              {g.accounts.map((a) => a.siteCode.toUpperCase()).join(" / ")} · 负责人 {g.ownerName ?? "-"}
            </span>
          </span>
          {g.isCbt ? <Badge variant="secondary">CBT</Badge> : null}
          {g.authStatus !== 1 ? <Badge variant="warning">需重新授权</Badge> : null}
          <span className="text-muted-foreground text-xs whitespace-nowrap tabular-nums">
            刊登 {g.listingCount} · 商品 {g.productCount}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** 按站点 and 保留卖家: the selection's optional fields. */
export function SelectionFields({ sel, testId }: { sel: ShopSelection; testId: string }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <fieldset className="flex flex-col gap-1.5">
        <legend className="mb-1.5 text-sm font-medium">按站点（可选）</legend>
        <div className="flex flex-wrap gap-x-3 gap-y-1.5">
          {SITES.map((s) => (
            <div key={s.site} className="flex items-center gap-1.5">
              <Checkbox
                id={`${testId}-site-${s.site}`}
                checked={sel.sites.has(s.site)}
                onCheckedChange={(on) => sel.toggleSite(s.site, on === true)}
                data-testid={`${testId}-site-${s.site}`}
              />
              <Label htmlFor={`${testId}-site-${s.site}`} className="font-normal">
                {s.name}
              </Label>
            </div>
          ))}
        </div>
        <p className="text-muted-foreground text-xs">
          勾选了店铺组时只取其中在这些站点销售的；未勾选店铺组时取在这些站点销售的全部店铺组。
        </p>
      </fieldset>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${testId}-protected`}>保留的卖家ID（可选）</Label>
        <Textarea
          id={`${testId}-protected`}
          value={sel.protectedText}
          onChange={(e) => sel.setProtectedText(e.target.value)}
          placeholder="这些卖家的店铺组不受影响，多个用逗号或换行分隔"
          rows={2}
          className="min-h-14"
          data-testid={`${testId}-protected`}
        />
        {sel.problem ? <p className="text-destructive text-xs">{sel.problem}</p> : null}
      </div>
    </div>
  );
}
