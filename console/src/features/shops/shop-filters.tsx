// The shop list's filters (GetAccounts: KeyWord, Site, Status, UserId for main accounts) and its order. Every change
// goes back to page 1 (the page's update does that).
import { RotateCcw } from "lucide-react";
import { Button } from "@shared/ui/button.tsx";
import { DataTableToolbar } from "@shared/ui/data-table.tsx";
import { SearchInput } from "@shared/ui/search-input.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@shared/ui/select.tsx";
import type { UserOption } from "../collects/user-options.ts";
import { accountStatusOptions, siteOptions } from "./names.ts";
import { sortOptions, type ShopListState } from "./search-params.ts";

type Choice = { value: string | number; label: string };

function ChoiceFilter(p: {
  value: string;
  onChange: (v: string) => void;
  /** The "no filter" choice's text; without it every choice is a real value. */
  all?: string;
  choices: readonly Choice[];
  label: string;
  testId: string;
  className: string;
}) {
  // Radix's Select cannot hold "" as an item value; the default order travels as "default".
  const toItem = (v: string | number) => (v === "" ? "default" : String(v));
  return (
    <Select value={toItem(p.value)} onValueChange={(v) => p.onChange(v === "default" ? "" : v)}>
      <SelectTrigger className={p.className} aria-label={p.label} data-testid={p.testId}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {p.all ? <SelectItem value="all">{p.all}</SelectItem> : null}
        {p.choices.map((c) => (
          <SelectItem key={c.value} value={toItem(c.value)} data-testid={`${p.testId}-${toItem(c.value)}`}>
            {c.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

export type ShopFiltersProps = {
  state: ShopListState;
  onChange: (change: Partial<ShopListState>) => void;
  onReset: () => void;
  /** Owner choices (main accounts); null hides the owner filter. */
  users: UserOption[] | null;
  canReset: boolean;
};

export function ShopFilters({ state, onChange, onReset, users, canReset }: ShopFiltersProps) {
  return (
    <DataTableToolbar data-testid="shops-filters">
      <SearchInput
        value={state.keyword}
        onSearch={(keyword) => onChange({ keyword })}
        placeholder="搜索店铺别名、昵称、邮箱、卖家ID"
        aria-label="搜索店铺"
        maxLength={100}
        className="sm:w-72"
        data-testid="shops-search"
      />
      <ChoiceFilter
        value={state.site}
        onChange={(site) => onChange({ site })}
        all="全部站点"
        choices={siteOptions}
        label="站点"
        testId="shops-filter-site"
        className="w-40"
      />
      <ChoiceFilter
        value={state.status}
        onChange={(status) => onChange({ status })}
        all="全部状态"
        choices={accountStatusOptions}
        label="状态"
        testId="shops-filter-status"
        className="w-32"
      />
      {users ? (
        <ChoiceFilter
          value={state.user}
          onChange={(user) => onChange({ user })}
          all="全部业务员"
          choices={users.map((u) => ({ value: u.id, label: u.name }))}
          label="所属业务员"
          testId="shops-filter-user"
          className="w-40"
        />
      ) : null}
      <ChoiceFilter
        value={state.sort}
        onChange={(sort) => onChange({ sort })}
        choices={sortOptions}
        label="排序"
        testId="shops-sort"
        className="w-44"
      />
      <Button variant="ghost" onClick={onReset} disabled={!canReset} data-testid="shops-reset">
        <RotateCcw />
        重置
      </Button>
    </DataTableToolbar>
  );
}
