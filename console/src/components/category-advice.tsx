// The category advice of every screen that sets a category (the product editor, the publish screen): the category
// mapped to the product's source category on the site (类目映射, offered first), then 推荐类目 — PredictMeliCategory for
// the title in the site's language (a Chinese title after translation, or by the categories' Chinese names) — with
// its answer. One component, so 推荐类目 works the same wherever a category is chosen.
import { Sparkles } from "lucide-react";
import type { PredictedCategory } from "#shared/contract/category.ts";
import { Button } from "#shared/ui/button.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { CategoryPredictions } from "./category-predictions.tsx";
import { useSuggestedCategory } from "../lib/category-mapping.ts";
import { categoryTitleOf, usePredictCategory } from "../lib/category-prediction.ts";
import type { SiteId } from "../stores/platform.ts";

export type CategoryAdviceProps = {
  site: SiteId | null;
  /** The product whose source category's mapping is offered (none: no mapping offered). */
  productId?: string | null;
  /** The titles predicted from, read at the click. */
  titles: () => Record<string, string> | null;
  /** The category currently chosen: its mapping is not offered again. */
  chosen?: string | null;
  onChoose: (cateId: string, fullName: string) => void;
  /** Said when there is no title to predict from. */
  noTitle?: string;
  /** Shown above the predictions (which title they came from). */
  describe?: (title: string) => string;
  /**
   * Test ids: the button, the prefix of the predictions (`<list>-predictions`, `<list>-use-<id>`) and the mapping
   * (`<list>-mapping`), and the block holding an answer while it shows.
   */
  testIds: { button: string; list: string; answer?: string };
};

export function CategoryAdvice({
  site,
  productId,
  titles,
  chosen,
  onChoose,
  noTitle = "请先填写标题",
  describe,
  testIds,
}: CategoryAdviceProps) {
  const predict = usePredictCategory();
  const mapping = useSuggestedCategory(site, productId).data;
  const choose = (p: PredictedCategory) => {
    onChoose(p.cateId, p.fullName);
    predict.reset();
  };
  return (
    <div className="flex flex-col gap-2">
      {mapping && mapping.cateId !== chosen ? (
        <p className="flex items-center gap-2 text-xs" data-testid={`${testIds.list}-mapping`} data-cate-id={mapping.cateId}>
          <span className="text-muted-foreground shrink-0">类目映射：</span>
          <span className="min-w-0 truncate" title={mapping.categoryName}>
            {mapping.fullZh ?? mapping.categoryName}
          </span>
          <span className="text-muted-foreground shrink-0">已用 {mapping.useCount} 次</span>
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0 text-xs"
            onClick={() => onChoose(mapping.cateId, mapping.categoryName)}
            data-testid={`${testIds.list}-mapping-use`}
          >
            使用
          </Button>
        </p>
      ) : null}
      <div>
        <Button
          variant="outline"
          size="sm"
          disabled={!site}
          loading={predict.isPending}
          onClick={() => {
            const title = site ? categoryTitleOf(titles() ?? {}, site) : "";
            if (!title) {
              toast.warning(noTitle);
              return;
            }
            predict.mutate({ site: site!, title: title.slice(0, 1000) });
          }}
          data-testid={testIds.button}
        >
          <Sparkles />
          推荐类目
        </Button>
      </div>
      {predict.data ? (
        <div className="flex flex-col gap-1" data-testid={testIds.answer}>
          {describe ? (
            <p className="text-muted-foreground line-clamp-1 text-xs" title={predict.data.title}>
              {describe(predict.data.title)}
            </p>
          ) : null}
          <CategoryPredictions result={predict.data} onChoose={choose} testId={testIds.list} />
        </div>
      ) : null}
    </div>
  );
}
