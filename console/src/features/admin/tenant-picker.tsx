// Picking another tenant by name (GetTenantNameBySearch): the recommending agency, the destination of a copy or a
// migration. Typing lists the matches; choosing one clears the search and names it in the placeholder.
import { useState } from "react";
import { Input } from "#shared/ui/input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { useTenantNameSearch } from "./api/recommend.ts";

export type PickedTenant = { id: string; name: string };

export function TenantPicker(p: {
  id: string;
  label: string;
  value: PickedTenant | null;
  onChange: (tenant: PickedTenant) => void;
  /** The tenant itself, never offered. */
  excludeId?: string;
  testId: string;
}) {
  const [search, setSearch] = useState("");
  const found = useTenantNameSearch(search.trim(), search.trim().length > 0);
  const candidates = (found.data ?? []).filter((t) => t.id !== p.excludeId);
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={p.id}>{p.label}</Label>
      <Input
        id={p.id}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        placeholder={p.value ? `已选：${p.value.name}（输入以更换）` : "输入公司名称搜索"}
        maxLength={64}
        autoComplete="off"
        data-testid={`${p.testId}-search`}
      />
      {search.trim() ? (
        <div className="max-h-40 overflow-auto rounded-md border">
          {candidates.length === 0 ? (
            <p className="text-muted-foreground p-2 text-sm">{found.isFetching ? "搜索中..." : "没有找到公司"}</p>
          ) : null}
          {candidates.map((t) => (
            <button
              key={t.id}
              type="button"
              className="hover:bg-muted block w-full px-3 py-1.5 text-left text-sm"
              onClick={() => {
                p.onChange(t);
                setSearch("");
              }}
              data-testid={`${p.testId}-option`}
            >
              {t.name}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
