// The collection list's filters (spec §3 product filter, the parts a collection has): creation dates, status,
// platform, infringement flag, owner (main accounts), title and source item id. Every change goes back to page 1.
import { RotateCcw } from "lucide-react";
import { Button } from "@shared/ui/button.tsx";
import { DataTableToolbar } from "@shared/ui/data-table.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@shared/ui/select.tsx";
import { DateRangeFilter } from "./date-range-filter.tsx";
import { collectStatusOptions, platformOptions } from "./labels.ts";
import { SearchInput } from "@shared/ui/search-input.tsx";
import type { CollectListState } from "./search-params.ts";
import type { UserOption } from "./user-options.ts";

export type CollectFiltersProps = {
  state: CollectListState;
  onChange: (change: Partial<CollectListState>) => void;
  onReset: () => void;
  /** Owner choices (main accounts); null hides the owner filter. */
  users: UserOption[] | null;
  canReset: boolean;
};

export function CollectFilters({ state, onChange, onReset, users, canReset }: CollectFiltersProps) {
  return (
    <DataTableToolbar>
      <SearchInput
        value={state.title}
        onSearch={(title) => onChange({ title })}
        placeholder="搜索商品标题"
        aria-label="搜索商品标题"
        maxLength={200}
        className="sm:w-64"
        data-testid="collects-search"
      />
      <SearchInput
        plain
        value={state.sku}
        onSearch={(sku) => onChange({ sku })}
        placeholder="商品ID（精确）"
        aria-label="商品ID"
        maxLength={128}
        className="sm:w-40"
        data-testid="collects-sku"
      />
      <Select value={state.status} onValueChange={(status) => onChange({ status })}>
        <SelectTrigger className="w-36" aria-label="状态" data-testid="collects-status-filter">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="all">全部状态</SelectItem>
          {collectStatusOptions.map((o) => (
            <SelectItem key={o.value} value={String(o.value)} data-testid={`collects-status-${o.value}`}>
              {o.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Select value={state.platform} onValueChange={(platform) => onChange({ platform })}>
        <SelectTrigger className="w-32" aria-label="来源平台" data-testid="collects-platform-filter">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="all">全部平台</SelectItem>
          {platformOptions.map((o) => (
            <SelectItem key={o.value} value={String(o.value)} data-testid={`collects-platform-${o.value}`}>
              {o.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Select value={state.infringement} onValueChange={(v) => onChange({ infringement: v as CollectListState["infringement"] })}>
        <SelectTrigger className="w-36" aria-label="侵权词" data-testid="collects-infringement-filter">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="all">侵权词：全部</SelectItem>
          <SelectItem value="yes">含侵权词</SelectItem>
          <SelectItem value="no">不含侵权词</SelectItem>
        </SelectContent>
      </Select>
      {users ? (
        <Select value={state.user} onValueChange={(user) => onChange({ user })}>
          <SelectTrigger className="w-40" aria-label="采集人" data-testid="collects-user-filter">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">全部账号</SelectItem>
            {users.map((u) => (
              <SelectItem key={u.id} value={u.id}>
                {u.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      ) : null}
      <DateRangeFilter start={state.start} end={state.end} onChange={(range) => onChange(range)} testId="collects-date" />
      <Button variant="ghost" onClick={onReset} disabled={!canReset} data-testid="collects-reset">
        <RotateCcw />
        重置
      </Button>
    </DataTableToolbar>
  );
}
