// Changing a mapping's category: the category tree-select of the mapping's site (leaves only), saved with
// UpdateCategoryMapping. The source category stays; its next product is offered the new category.
import { useState } from "react";
import type { CategoryMapping } from "#shared/contract/category-mapping.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { CategorySelect } from "../../components/category-select.tsx";
import { platformLabel } from "../../lib/labels.ts";
import type { SiteId } from "../../stores/platform.ts";
import { useUpdateCategoryMapping } from "./api/category-mappings.ts";

export function MappingDialog({ mapping, onClose }: { mapping: CategoryMapping | null; onClose: () => void }) {
  const [choice, setChoice] = useState<{ id: string; fullName: string } | null>(null);
  const save = useUpdateCategoryMapping();
  const close = () => {
    setChoice(null);
    onClose();
  };
  const current = choice ?? (mapping ? { id: mapping.cateId, fullName: mapping.categoryName } : null);
  return (
    <Dialog open={!!mapping} onOpenChange={(open) => !open && !save.isPending && close()}>
      <DialogContent className="sm:max-w-xl" data-testid="category-mapping-dialog">
        <DialogHeader>
          <DialogTitle>修改类目映射</DialogTitle>
          <DialogDescription>
            {mapping
              ? `${platformLabel(mapping.platformType)} 类目 ${mapping.sourcePath ?? mapping.sourceKey} 的商品将优先推荐这个类目。`
              : ""}
          </DialogDescription>
        </DialogHeader>
        {mapping ? (
          <CategorySelect
            site={mapping.site as SiteId}
            value={current?.id ?? null}
            valueLabel={current?.fullName ?? null}
            onChange={(node) => setChoice(node ? { id: node.id, fullName: node.fullName } : null)}
            testId="category-mapping-category"
          />
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={close} disabled={save.isPending}>
            取消
          </Button>
          <Button
            loading={save.isPending}
            disabled={!choice || choice.id === mapping?.cateId}
            onClick={() =>
              mapping &&
              choice &&
              save.mutate(
                { id: mapping.id, cateId: choice.id },
                {
                  onSuccess: () => {
                    toast.success("类目映射已保存");
                    close();
                  },
                },
              )
            }
            data-testid="category-mapping-save"
          >
            保存
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
