// 推荐类目's answer (PredictMeliCategory): how the categories were found (Mercado Libre on the title, after translation,
// or by the categories' Chinese names), then each category with its Chinese path first where known and 使用 to take it.
// The product editor and the publish screen show it.
import type { CategoryPredictionMethod, PredictedCategory, PredictMeliCategoryResult } from "#shared/contract/category.ts";
import { Button } from "#shared/ui/button.tsx";

/** How the predictions were found, for the seller. */
const predictionMethodText: Record<CategoryPredictionMethod, string> = {
  direct: "美客多按标题推荐",
  translated: "翻译后预测",
  chineseNames: "按中文类目名匹配",
};

export function CategoryPredictions({
  result,
  onChoose,
  testId = "products-editor-category",
}: {
  result: PredictMeliCategoryResult;
  onChoose: (p: PredictedCategory) => void;
  /** Prefix of the test ids: `<testId>-method`, `<testId>-predictions`, `<testId>-use-<cateId>`. */
  testId?: string;
}) {
  const { items, method, translatedTitle, note } = result;
  const how = (
    <p className="text-muted-foreground text-xs" data-testid={`${testId}-method`} data-method={method}>
      {predictionMethodText[method]}
      {translatedTitle ? `：${translatedTitle}` : null}
      {note ? <span className="ml-1.5 text-amber-600">{note}</span> : null}
    </p>
  );
  if (!items.length) {
    return method === "direct" ? (
      <p className="text-muted-foreground text-xs">美客多没有为这个标题推荐类目，请换个标题或直接搜索类目。</p>
    ) : (
      how
    );
  }
  return (
    <ul className="bg-muted/40 flex flex-col gap-1 rounded-md border p-2 text-xs" data-testid={`${testId}-predictions`}>
      {method !== "direct" || note ? <li>{how}</li> : null}
      {items.map((p) => (
        <li key={p.cateId} className="flex items-center gap-2">
          <span className="min-w-0 flex-1 truncate" title={p.fullZh ? `${p.fullZh} · ${p.fullName}` : p.fullName}>
            {p.fullZh ?? p.fullName}
            {p.fullZh ? <span className="text-muted-foreground ml-1.5">· {p.fullName}</span> : null}
          </span>
          {p.selectable ? (
            <Button
              variant="link"
              size="sm"
              className="h-auto p-0 text-xs"
              onClick={() => onChoose(p)}
              data-testid={`${testId}-use-${p.cateId}`}
            >
              使用
            </Button>
          ) : (
            <span className="text-muted-foreground">{p.known ? "不可选" : "未同步"}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
