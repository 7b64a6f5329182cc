// The category picker of every screen that sets a product's category: the shared tree-select fed with the site's
// tree from the platform store and the local cache (lib/category-trees.ts). Only leaves can be chosen; onChange gives
// the node, whose fullName is the selection text the product keeps as its category name.
import type { CategoryTreeNode } from "@shared/contract/category.ts";
import { TreeSelect, type TreeSelectProps } from "@shared/ui/tree-select.tsx";
import { useCategoryTree } from "../lib/category-trees.ts";
import type { SiteId } from "../stores/platform.ts";

export type CategorySelectProps = Omit<TreeSelectProps, "nodes" | "onChange" | "loading" | "emptyText"> & {
  site: SiteId | null;
  onChange: (node: CategoryTreeNode | null) => void;
};

export function CategorySelect({ site, onChange, disabled, placeholder, testId = "category-select", ...props }: CategorySelectProps) {
  const tree = useCategoryTree(site);
  return (
    <TreeSelect
      nodes={tree.nodes}
      onChange={(node) => onChange(node as CategoryTreeNode | null)}
      loading={tree.loading}
      disabled={disabled || site === null}
      placeholder={site === null ? "请先选择站点" : (placeholder ?? "请选择类目，可输入名称搜索")}
      searchPlaceholder="搜索类目名称（西语、葡语、英语或中文）"
      emptyText={
        tree.error ? "类目加载失败，请稍后重试" : tree.synced === false ? "该站点的类目尚未同步，请联系管理员同步类目" : "暂无类目"
      }
      testId={testId}
      {...props}
    />
  );
}
