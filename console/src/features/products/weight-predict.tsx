// 预估重量 (PredictWightByTitle): the weight of similar products of the tenant, from the title being edited; shows the
// products it rests on and applies the figure to the weight field on request.
import { Sparkles } from "lucide-react";
import type { PredictWeightByTitleResult } from "#shared/contract/product.ts";
import { Button } from "#shared/ui/button.tsx";
import { toast } from "#shared/ui/toast.tsx";
import type { EditorForm } from "./editor-types.ts";
import { usePredictWeight } from "./api/predict-product-fields.ts";

/** The title to predict from: the first non-empty one, Chinese first. */
function predictTitleOf(titles: Record<string, string>): string {
  for (const lang of ["zh", "en", "es", "pt"]) if (titles[lang]?.trim()) return titles[lang].trim();
  return (
    Object.values(titles)
      .find((t) => t.trim())
      ?.trim() ?? ""
  );
}

const grams = (n: number) => `${n.toLocaleString("zh-CN", { maximumFractionDigits: 0 })} g`;

export function WeightPredictButton({ form, productId }: { form: EditorForm; productId: string | null }) {
  const predict = usePredictWeight();
  return (
    <div className="flex flex-col gap-2">
      <div>
        <Button
          variant="outline"
          size="sm"
          loading={predict.isPending}
          onClick={() => {
            const title = predictTitleOf(form.getValues("titles"));
            if (!title) {
              toast.warning("请先填写标题");
              return;
            }
            predict.mutate({ title: title.slice(0, 1000), productId });
          }}
          data-testid="products-editor-predict-weight"
        >
          <Sparkles />
          预估重量
        </Button>
      </div>
      {predict.data ? (
        <Evidence
          result={predict.data}
          onUse={(w) => form.setValue("weight", String(Math.round(w)), { shouldDirty: true, shouldValidate: true })}
        />
      ) : null}
    </div>
  );
}

function Evidence({ result, onUse }: { result: PredictWeightByTitleResult; onUse: (weight: number) => void }) {
  return (
    <div className="bg-muted/40 flex flex-col gap-2 rounded-md border p-2 text-xs" data-testid="products-editor-predict-result">
      <div className="flex flex-wrap items-center gap-2">
        {result.weight !== null ? (
          <>
            <span>
              预估重量 <b className="text-foreground text-sm tabular-nums">{grams(result.weight)}</b>
            </span>
            <Button size="sm" className="h-6 px-2" onClick={() => onUse(result.weight!)} data-testid="products-editor-predict-use">
              使用该重量
            </Button>
          </>
        ) : (
          <span className="text-muted-foreground">无法预估</span>
        )}
        {result.message ? <span className="text-muted-foreground">{result.message}</span> : null}
      </div>
      {result.neighbours.length ? (
        <ul className="flex flex-col gap-1" aria-label="参考商品">
          {result.neighbours.map((n) => (
            <li key={n.id} className="flex items-center gap-2">
              <span className="min-w-0 flex-1 truncate" title={n.title}>
                {n.title}
              </span>
              <span className="shrink-0 tabular-nums">{grams(n.weight)}</span>
              <span className="text-muted-foreground shrink-0 text-right whitespace-nowrap tabular-nums">
                相似 {Math.round(n.similarity <= 1 ? n.similarity * 100 : n.similarity)}%
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
