// The category picker of every screen that sets a product's category: the shared tree-select fed with the site's
// tree from the platform store and the local cache (lib/category-trees.ts). Only leaves can be chosen; onChange gives
// the node, whose fullName is the selection text the product keeps as its category name. The search box promises
// Chinese only when the site's tree has Chinese names (the glossary's, or AckCategory's).
import { useMemo } from "react";
import type { CategoryTreeNode } from "#shared/contract/category.ts";
import { siteLanguage } from "#shared/contract/meli.ts";
import { TreeSelect, type TreeSelectProps } from "#shared/ui/tree-select.tsx";
import { useCategoryTree } from "../lib/category-trees.ts";
import type { SiteId } from "../stores/platform.ts";

export type CategorySelectProps = Omit<TreeSelectProps, "nodes" | "onChange" | "loading" | "emptyText"> & {
  site: SiteId | null;
  onChange: (node: CategoryTreeNode | null) => void;
};

const languageNames = { es: "西语", pt: "葡语", en: "英语" } as const;

/** Whether any node of the tree has a Chinese name. */
const hasChinese = (nodes: CategoryTreeNode[]): boolean => nodes.some((n) => !!n.zh || hasChinese(n.children ?? []));

/** What the search matches: the Chinese names when the tree has them, and the site's own names. */
function categorySearchHint(site: number, chinese: boolean): string {
  const own = languageNames[siteLanguage(site)];
  return chinese ? `搜索类目：中文或${own}名称` : `搜索类目：${own}名称（该站点暂无中文类目名）`;
}

export function CategorySelect({ site, onChange, disabled, placeholder, testId = "category-select", ...props }: CategorySelectProps) {
  const tree = useCategoryTree(site);
  const chinese = useMemo(() => hasChinese(tree.nodes), [tree.nodes]);
  return (
    <TreeSelect
      nodes={tree.nodes}
      onChange={(node) => onChange(node as CategoryTreeNode | null)}
      loading={tree.loading}
      disabled={disabled || site === null}
      placeholder={site === null ? "请先选择站点" : (placeholder ?? (chinese ? "请选择类目，可输入中文搜索" : "请选择类目"))}
      searchPlaceholder={site === null ? undefined : categorySearchHint(site, chinese)}
      emptyText={
        tree.error ? "类目加载失败，请稍后重试" : tree.synced === false ? "该站点的类目尚未同步，请联系管理员同步类目" : "暂无类目"
      }
      testId={testId}
      {...props}
    />
  );
}
