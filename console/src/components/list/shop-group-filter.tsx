// The shop-group filter of the publish records and the publish logs: all shops, or one account group (GetMeliAccGroup).
import { useAccountGroups } from "../../lib/account-groups.ts";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import type { ListFilter } from "./list-toolbar.tsx";

/** The value that stands for every shop. */
const ALL_SHOPS = "all";

function ShopGroupFilter(p: { value: string; onChange: (groupId: string) => void; testId: string }) {
  const groups = useAccountGroups();
  return (
    <Select value={p.value} onValueChange={p.onChange}>
      <SelectTrigger className="w-56" aria-label="店铺" data-testid={p.testId}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL_SHOPS}>全部店铺</SelectItem>
        {(groups.data?.groups ?? []).map((g) => (
          <SelectItem key={g.groupId} value={g.groupId}>
            {g.alias || g.name}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** The filter as a list toolbar's entry (the groups are read by the select itself, so it is the screen's own control). */
export const shopGroupListFilter = (key: string, value: string, onChange: (groupId: string) => void, testId: string): ListFilter => ({
  kind: "custom",
  key,
  render: () => <ShopGroupFilter value={value} onChange={onChange} testId={testId} />,
});
