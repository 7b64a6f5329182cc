// 类目映射 in the side panel: the category the seller picked before for products of this product's source category on
// the site (GetSuggestedCategory, the console's call), offered first with 使用. Nothing shows without one.
import { useEffect, useState } from "react";
import type { CategoryMapping } from "#shared/contract/category-mapping.ts";
import { sendMessage } from "../../lib/messaging.ts";

export function MappingSuggestion({
  site,
  productId,
  chosen,
  onChoose,
}: {
  site: number;
  productId: string;
  chosen: string;
  onChoose: (id: string, name: string) => void;
}) {
  const [found, setFound] = useState<{ key: string; mapping: CategoryMapping | null } | null>(null);
  const key = `${site}:${productId}`;
  useEffect(() => {
    let live = true;
    sendMessage("suggestCategory", { site, productId }).then(
      (mapping) => live && setFound({ key, mapping }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [site, productId, key]);
  const mapping = found?.key === key ? found.mapping : null;
  if (!mapping || mapping.cateId === chosen) return null;
  return (
    <p className="small" data-testid="panel-category-mapping" data-cate-id={mapping.cateId}>
      <span className="muted">类目映射：</span>
      {mapping.fullZh ?? mapping.categoryName}
      <span className="muted">（已用 {mapping.useCount} 次）</span>
      <button
        type="button"
        className="secondary small"
        onClick={() => onChoose(mapping.cateId, mapping.categoryName)}
        data-testid="panel-category-mapping-use"
      >
        使用
      </button>
    </p>
  );
}
