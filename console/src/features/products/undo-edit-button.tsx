// 撤销上次批量修改: the caller's last bulk edit (GetLastProductEdit), offered while it can still be undone (within the
// undo window, not undone yet); undoing asks first, then puts back what the edit changed.
import { Undo2 } from "lucide-react";
import { Button } from "#shared/ui/button.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { countText } from "./bulk-target.ts";
import { useLastProductEdit, useUndoProductEdit } from "./api/undo-product-edit.ts";
import { editKindLabel } from "./product-names.ts";

export function UndoEditButton() {
  const last = useLastProductEdit();
  const undo = useUndoProductEdit();
  const edit = last.data;
  if (!edit || !edit.canUndo || Date.parse(edit.undoUntil) <= Date.now()) return null;
  const what = `${editKindLabel(edit.kind)}，${countText(edit.rowCount)} 个商品`;

  async function onUndo() {
    if (!edit) return;
    const ok = await confirm({
      title: "撤销上次批量修改？",
      description: `${what}（${formatDateTime(edit.creationTime)}）。这些商品将恢复到修改前的内容。`,
      confirmText: "撤销",
      tone: "warning",
    });
    if (!ok) return;
    undo.mutate(edit.id, {
      onSuccess: (r) =>
        r.taskId
          ? toast.info("商品较多，撤销已转为后台任务，进度显示在列表上方")
          : toast.success(`已撤销：恢复了 ${countText(r.count)} 个商品`),
    });
  }

  return (
    <Button
      variant="outline"
      size="sm"
      loading={undo.isPending}
      onClick={() => void onUndo()}
      title={`可撤销至 ${formatDateTime(edit.undoUntil)}`}
      data-testid="products-undo"
      data-edit-id={edit.id}
    >
      <Undo2 />
      撤销上次批量修改（{what}）
    </Button>
  );
}
