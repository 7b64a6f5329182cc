// Every batch action of the listing centre in one dialog: how many listings it reaches (the rows ticked, or every
// listing matching the filter), the action's fields, and for a price change the result for a sample of the rows
// (the old price and the new one). The call answers a task at once; the screen then follows its progress.
import { useState, type FormEvent } from "react";
import { BATCH_EDIT_MAX, BATCH_IMAGES_MAX } from "#shared/contract/listing-edits.ts";
import { LISTING_COUNT_CAP } from "#shared/contract/listings.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useBatchEdit, useMeliPricePreview, type ListingKind } from "./api/listings.ts";
import { batchEditOf, byPercent, countOf, type ListingBatchAction, type ListingTarget } from "./listing-batch-body.ts";

const titles: Record<ListingBatchAction, string> = {
  price: "批量改价",
  meliPrice: "按店铺规则重新定价",
  stock: "批量改库存",
  title: "批量改标题",
  description: "批量改描述",
  weight: "批量改重量尺寸",
  image: "批量改图片",
  up: "批量上架",
  down: "批量下架",
  sync: "批量同步",
};

const hints: Record<ListingBatchAction, string> = {
  price: "逐条修改美客多上的价格；与目标价格相同的刊登不会调用美客多。",
  meliPrice:
    "按刊登时的同一公式重新计算：商品价格 × 汇率，按店铺定价规则（调价比例、尾数、最低价/最高价）并计入平台费用；填写最低价时以它代替店铺的最低价（刊登币种）。",
  stock: "修改刊登的库存；全球商品的库存由各站点共享。",
  title: "用同一个标题替换所选刊登的标题（已有销量的刊登美客多可能拒绝修改标题）。",
  description: "用纯文本描述替换所选刊登的描述（HTML 会被去除）。",
  weight: "修改美客多上的包装重量和尺寸（全球商品改在全球商品上）；不填尺寸时沿用刊登或商品的尺寸。",
  image: "按顺序替换美客多上的图片（第一张为主图）；已知小于500像素的图片会被跳过。",
  up: "把已暂停的刊登重新上架。",
  down: "暂停所选刊登（不会删除，可随时上架）。",
  sync: "从美客多重新读取所选刊登的状态、价格、库存、销量和浏览量。",
};

/** A labelled field of the dialog (its test id is its id); `rows` makes it a text area. */
function Field(p: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  rows?: number;
  inputMode?: "decimal" | "numeric";
  maxLength?: number;
  placeholder?: string;
  autoFocus?: boolean;
}) {
  const common = { id: p.id, value: p.value, maxLength: p.maxLength, autoFocus: p.autoFocus, "data-testid": p.id };
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={p.id}>{p.label}</Label>
      {p.rows ? (
        <Textarea {...common} rows={p.rows} onChange={(e) => p.onChange(e.target.value)} />
      ) : (
        <Input {...common} inputMode={p.inputMode} placeholder={p.placeholder} onChange={(e) => p.onChange(e.target.value)} />
      )}
    </div>
  );
}

export function ListingBatchDialog(p: {
  kind: ListingKind;
  action: ListingBatchAction;
  target: ListingTarget;
  onClose: () => void;
  onStarted: (task: { taskId: string; total: number; label: string }) => void;
}) {
  const { action, target } = p;
  const edit = useBatchEdit(p.kind);
  const [mode, setMode] = useState<"fixed" | "ratio">("fixed");
  const [value, setValue] = useState("");
  const [text, setText] = useState("");
  const [size, setSize] = useState("");
  const { count, capped } = countOf(target);
  const tooMany = !capped && count > BATCH_EDIT_MAX;
  const testId = `listing-batch-${action}`;

  const number = Number(value.trim());
  const validNumber = value.trim() !== "" && Number.isFinite(number);
  const sampleIds = target.rows.slice(0, 3).map((r) => r.id);
  const floor = action === "meliPrice" && value.trim() && validNumber && number >= 0 ? number : null;
  const preview = useMeliPricePreview(p.kind, action === "meliPrice" ? sampleIds : [], floor);
  const sample =
    action === "price" && validNumber && (mode === "fixed" || target.kind === "ids")
      ? target.rows.slice(0, 3).map((r) => ({
          row: r,
          next: mode === "fixed" ? number : r.price === null ? null : byPercent(r.price, number),
        }))
      : [];

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const b = batchEditOf(action, target, { mode, value, text, size });
    if (typeof b === "string") return void toast.error(b);
    edit.mutate(b, {
      onSuccess: (task) => {
        toast.success(`${titles[action]}：已提交 ${task.total} 条刊登，正在逐条处理`);
        p.onStarted({ ...task, label: titles[action] });
        p.onClose();
      },
    });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !edit.isPending && p.onClose()}>
      <DialogContent className="sm:max-w-lg" data-testid={testId}>
        <DialogHeader>
          <DialogTitle>{titles[action]}</DialogTitle>
          <DialogDescription asChild>
            <div className="flex flex-col gap-1">
              <p data-testid={`${testId}-count`} data-count={count}>
                将处理{" "}
                <b className="text-foreground tabular-nums">
                  {count.toLocaleString("zh-CN")}
                  {capped ? "+" : ""}
                </b>{" "}
                条刊登
                {target.kind === "filter" ? "（当前筛选条件下的全部刊登）" : ""}
              </p>
              <p className="text-xs">{hints[action]}</p>
              {capped ? (
                <p className="text-xs" data-testid={`${testId}-capped`}>
                  超过 {LISTING_COUNT_CAP.toLocaleString("zh-CN")} 条时不逐条计数；一次最多处理 {BATCH_EDIT_MAX.toLocaleString("zh-CN")}{" "}
                  条，超出时提交会被拒绝，请先缩小筛选范围。
                </p>
              ) : null}
              {tooMany ? (
                <p className="text-destructive text-xs">一次最多处理 {BATCH_EDIT_MAX.toLocaleString("zh-CN")} 条，请缩小筛选范围</p>
              ) : null}
            </div>
          </DialogDescription>
        </DialogHeader>
        <form id={`${testId}-form`} className="flex flex-col gap-3" onSubmit={onSubmit}>
          {action === "price" ? (
            <>
              <div className="flex gap-2 text-sm">
                <Button type="button" size="sm" variant={mode === "fixed" ? "default" : "outline"} onClick={() => setMode("fixed")}>
                  统一价格
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant={mode === "ratio" ? "default" : "outline"}
                  disabled={target.kind !== "ids"}
                  title={target.kind !== "ids" ? "按比例调价需勾选刊登" : undefined}
                  onClick={() => setMode("ratio")}
                  data-testid={`${testId}-ratio`}
                >
                  按比例调整
                </Button>
              </div>
              <Field
                id={`${testId}-value`}
                label={mode === "fixed" ? "新价格（刊登币种）" : "调整比例（%，如 -10 表示降价10%）"}
                value={value}
                onChange={setValue}
                inputMode="decimal"
                autoFocus
              />
            </>
          ) : null}
          {action === "meliPrice" ? (
            <Field id={`${testId}-value`} label="最低价（可选，刊登币种）" value={value} onChange={setValue} inputMode="decimal" />
          ) : null}
          {action === "stock" ? (
            <Field id={`${testId}-value`} label="库存" value={value} onChange={setValue} inputMode="numeric" autoFocus />
          ) : null}
          {action === "title" ? (
            <Field id={`${testId}-value`} label="新标题" value={text} onChange={setText} maxLength={255} autoFocus />
          ) : null}
          {action === "description" ? (
            <Field id={`${testId}-value`} label="新描述" value={text} onChange={setText} rows={6} maxLength={50_000} />
          ) : null}
          {action === "weight" ? (
            <div className="grid grid-cols-2 gap-3">
              <Field id={`${testId}-value`} label="重量（克）" value={value} onChange={setValue} inputMode="numeric" autoFocus />
              <Field id={`${testId}-size`} label="尺寸（长x宽x高，厘米，可选）" value={size} onChange={setSize} placeholder="20x15x10" />
            </div>
          ) : null}
          {action === "image" ? (
            <Field
              id={`${testId}-value`}
              label={`图片链接（每行一个，最多 ${BATCH_IMAGES_MAX} 张）`}
              value={text}
              onChange={setText}
              rows={5}
            />
          ) : null}
          {action === "meliPrice" && sampleIds.length ? (
            <div className="rounded-md border p-2 text-xs" data-testid={`${testId}-sample`}>
              <p className="text-muted-foreground mb-1">按公式计算的示例（前 {sampleIds.length} 条，未修改）：</p>
              {(preview.data ?? []).map((x) => (
                <div key={x.id} className="flex items-center gap-2 tabular-nums">
                  <span className="min-w-0 flex-1 truncate">{x.itemId}</span>
                  <span className="text-muted-foreground">
                    {x.price ?? "-"} {x.currency}
                  </span>
                  <span>→</span>
                  {x.next !== null ? (
                    <b data-testid={`${testId}-sample-price`}>
                      {x.next} {x.currency}
                    </b>
                  ) : (
                    <span className="text-destructive">{x.reason}</span>
                  )}
                </div>
              ))}
              {preview.isFetching && !preview.data ? <Spinner /> : null}
            </div>
          ) : null}
          {sample.length ? (
            <div className="rounded-md border p-2 text-xs" data-testid={`${testId}-sample`}>
              <p className="text-muted-foreground mb-1">示例（前 {sample.length} 条）：</p>
              {sample.map(({ row, next }) => (
                <div key={row.id} className="flex items-center gap-2 tabular-nums">
                  <span className="min-w-0 flex-1 truncate">{row.itemId ?? row.title}</span>
                  <span className="text-muted-foreground">
                    {row.price ?? "-"} {row.currency}
                  </span>
                  <span>→</span>
                  <b data-testid={`${testId}-sample-price`}>
                    {next ?? "-"} {row.currency}
                  </b>
                </div>
              ))}
            </div>
          ) : null}
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={p.onClose} disabled={edit.isPending}>
            取消
          </Button>
          <Button
            type="submit"
            form={`${testId}-form`}
            loading={edit.isPending}
            disabled={count === 0 || tooMany}
            data-testid={`${testId}-submit`}
          >
            确定
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
