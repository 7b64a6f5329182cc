// The free sub-account number on the host's package screen (issue 28): a package adds to it, so without it (no limit)
// packages change nothing and cannot be bought; the host sets it here, next to the packages.
import { useEffect, useState } from "react";
import { MAX_PACKAGE_COUNT } from "#shared/contract/subaccount-orders.ts";
import { Button } from "#shared/ui/button.tsx";
import { Input } from "#shared/ui/input.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useFreeCount, useSaveFreeCount } from "./api/free-count.ts";

export function FreeCountEditor() {
  const current = useFreeCount();
  const save = useSaveFreeCount();
  const stored = current.data?.trim() ?? "";
  const [text, setText] = useState("");
  useEffect(() => setText(stored), [stored]);
  const n = Number(text.trim());
  const valid = /^\d+$/.test(text.trim()) && n <= MAX_PACKAGE_COUNT;

  return (
    <div className="flex flex-col gap-2 rounded-md border p-3" data-testid="free-count-editor" data-value={stored || undefined}>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="free-count" className="text-sm font-medium">
          每个公司的免费子账号数
        </label>
        <Input
          id="free-count"
          value={text}
          onChange={(e) => setText(e.target.value)}
          inputMode="numeric"
          placeholder="不限"
          className="w-24"
          aria-invalid={!!text.trim() && !valid}
          data-testid="free-count-input"
        />
        <Button
          size="sm"
          disabled={!valid || text.trim() === stored}
          loading={save.isPending}
          onClick={() => save.mutate(n, { onSuccess: () => toast.success(`免费子账号数已设为 ${n} 个`) })}
          data-testid="free-count-save"
        >
          保存
        </Button>
        {stored ? (
          <Button
            size="sm"
            variant="link"
            disabled={save.isPending}
            onClick={() => save.mutate(null, { onSuccess: () => toast.success("已取消子账号数量限制") })}
            data-testid="free-count-clear"
          >
            改为不限
          </Button>
        ) : null}
      </div>
      <p className={stored ? "text-muted-foreground text-xs" : "text-destructive text-xs"} data-testid="free-count-hint">
        {stored
          ? `公司可启用的子账号上限 = ${stored} 个 + 生效中套餐的子账号数。`
          : `未设置：不限制子账号数量，套餐不会增加任何名额，卖家也无法购买。请填写 0 到 ${MAX_PACKAGE_COUNT} 的整数。`}
      </p>
    </div>
  );
}
