// The bulk actions without fields, in the same frame as the edits: 删除 (BatchDeleteProducts; deleted products can be
// recovered from the recycle bin, and the delete can be undone) and 侵权检测 (ScreeningforInfringement against the
// tenant's and the default infringement words).
import { toast } from "#shared/ui/toast.tsx";
import { BulkDialog, useBulkSubmit, type BulkDialogBaseProps } from "./bulk-dialog.tsx";
import { selectionBody, countText } from "./bulk-target.ts";
import { useScreenProducts } from "./api/bulk-edit-products.ts";

export function BulkDeleteDialog({ target, onClose, onDeleted }: BulkDialogBaseProps & { onDeleted: () => void }) {
  const { submit, pending } = useBulkSubmit("删除商品", () => {
    onDeleted();
    onClose();
  });
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title="删除商品"
      verb="删除"
      description="删除后可在 24 小时内通过“撤销上次批量修改”恢复。"
      onConfirm={() => submit({ edit: "delete", body: selectionBody(target) })}
      pending={pending}
      submitText="删除"
      danger
      testId="products-delete-dialog"
    />
  );
}

export function BulkScreenDialog({ target, onClose }: BulkDialogBaseProps) {
  const screen = useScreenProducts();
  return (
    <BulkDialog
      target={target}
      onClose={onClose}
      title="侵权检测"
      verb="检测"
      description="用公司的侵权词和默认侵权词检查标题和描述，命中的商品会标记侵权词。"
      onConfirm={() =>
        screen.mutate(target, {
          onSuccess: (r) => {
            const message = `侵权检测完成：共检测 ${countText(r.count)} 个，${countText(r.flagged)} 个含侵权词`;
            if (r.flagged) toast.warning(message, { duration: 6000 });
            else toast.success(message);
            onClose();
          },
        })
      }
      pending={screen.isPending}
      submitText="开始检测"
      testId="products-screen-dialog"
    />
  );
}
