// 新建尺码表: a shop group without a chart for a fashion category makes one on Mercado Libre from the selected products'
// sizes (CreateMeliChart): a name, one of the category's genders and the sizes (read from the products' size option,
// editable). The created chart is answered and picked at once (onCreated).
import { useState, type FormEvent } from "react";
import type { CategoryAttribute } from "#shared/contract/category.ts";
import type { SizeChart } from "#shared/contract/size-charts.ts";
import { parseSizes } from "#shared/publish/size-chart-sizes.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useCreateSizeChart } from "./api/size-charts.ts";
import { withChinese } from "#shared/contract/names.ts";

export function CreateSizeChartDialog({
  site,
  accountGroupId,
  cateId,
  cateName,
  attributes,
  gender: chosenGender,
  sizes: productSizes,
  testId,
  onCreated,
  onClose,
}: {
  site: number;
  accountGroupId: string;
  cateId: string;
  cateName: string;
  /** The category's attributes: its GENDER values are the chart's choices. */
  attributes: readonly CategoryAttribute[];
  /** The GENDER already chosen for the category, if any. */
  gender: string | null;
  /** The products' sizes (the dialog starts with them). */
  sizes: readonly string[];
  testId: string;
  onCreated: (chart: SizeChart) => void;
  onClose: () => void;
}) {
  const genders = attributes.find((a) => a.id === "GENDER")?.values ?? [];
  const leafName = cateName.split(/\s*>\s*/).pop() ?? "";
  const [gender, setGender] = useState(genders.find((g) => g.id === chosenGender || g.name === chosenGender)?.name ?? "");
  const [name, setName] = useState("");
  const [sizesText, setSizesText] = useState(productSizes.join("、"));
  const sizes = parseSizes(sizesText);
  const create = useCreateSizeChart({
    mutationConfig: {
      onSuccess: (chart) => {
        toast.success(`已在美客多创建尺码表「${chart.name}」，并已选用`);
        onCreated(chart);
      },
    },
  });
  const chartName = (name.trim() || `${leafName} ${gender}尺码表`).slice(0, 60);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!gender || !sizes.length) return;
    create.mutate({ accountGroupId, site, cateId, name: chartName, gender, sizes });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !create.isPending && onClose()}>
      <DialogContent className="sm:max-w-lg" data-testid={testId}>
        <form onSubmit={submit} className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>新建尺码表</DialogTitle>
            <DialogDescription>
              在美客多为该类目创建店铺自己的尺码表（每个尺码一行），创建后即可选用。尺码需与商品规格中的尺码一致。
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-1.5">
            <Label htmlFor={`${testId}-name`}>名称</Label>
            <Input
              id={`${testId}-name`}
              value={name}
              maxLength={60}
              placeholder={chartName}
              onChange={(e) => setName(e.target.value)}
              data-testid={`${testId}-name`}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${testId}-gender`}>
              <span className="text-destructive">* </span>性别
            </Label>
            <Select value={gender} onValueChange={setGender}>
              <SelectTrigger id={`${testId}-gender`} className="h-8" data-testid={`${testId}-gender`}>
                <SelectValue placeholder={genders.length ? "选择性别" : "该类目没有性别取值"} />
              </SelectTrigger>
              <SelectContent>
                {genders.map((g) => (
                  <SelectItem key={g.id} value={g.name}>
                    {withChinese(g.name, g.zh)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${testId}-sizes`}>
              <span className="text-destructive">* </span>尺码
            </Label>
            <Textarea
              id={`${testId}-sizes`}
              rows={3}
              value={sizesText}
              placeholder="例如：S、M、L、XL"
              onChange={(e) => setSizesText(e.target.value)}
              data-testid={`${testId}-sizes`}
            />
            <p className="text-muted-foreground text-xs" data-testid={`${testId}-count`} data-count={sizes.length}>
              {sizes.length
                ? `共 ${sizes.length} 个尺码：${sizes.join("、")}`
                : productSizes.length
                  ? "请至少填写一个尺码"
                  : "所选商品没有尺码规格，请手动填写尺码（用逗号或顿号分隔）"}
            </p>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={create.isPending}>
              取消
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!gender || !sizes.length} data-testid={`${testId}-submit`}>
              创建并选用
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
