// The open bulk action's dialog (one at a time), for the products the page has chosen.
import type { UserOption } from "../../components/list/owner-filter.ts";
import { BulkAssignDialog } from "./bulk-assign-dialog.tsx";
import { BulkCategoryDialog } from "./bulk-category-dialog.tsx";
import { BulkDeleteDialog, BulkScreenDialog } from "./bulk-confirm-dialogs.tsx";
import { BulkLabelDialog } from "./bulk-label-dialog.tsx";
import { AdjustPriceDialog, SamePriceDialog } from "./bulk-price-dialogs.tsx";
import { BulkReplaceDialog } from "./bulk-replace-dialog.tsx";
import { BulkStatusDialog } from "./bulk-status-dialog.tsx";
import type { BulkTarget } from "./bulk-target.ts";
import { BulkTranslateDialog } from "./bulk-translate-dialog.tsx";
import { BulkWeightDialog } from "./bulk-weight-dialog.tsx";
import type { BulkAction } from "./product-bulk-bar.tsx";

export type ProductBulkDialogsProps = {
  action: BulkAction | null;
  target: BulkTarget;
  /** Accounts products may be assigned to (main accounts); null: no assigning. */
  users: UserOption[] | null;
  onClose: () => void;
  /** After a delete: the chosen rows are gone. */
  onDeleted: () => void;
};

export function ProductBulkDialogs({ action, target, users, onClose, onDeleted }: ProductBulkDialogsProps) {
  const props = { target, onClose };
  switch (action) {
    case "samePrice":
      return <SamePriceDialog {...props} />;
    case "adjustPrice":
      return <AdjustPriceDialog {...props} />;
    case "weight":
      return <BulkWeightDialog {...props} />;
    case "status":
      return <BulkStatusDialog {...props} />;
    case "label":
      return <BulkLabelDialog {...props} />;
    case "category":
      return <BulkCategoryDialog {...props} />;
    case "replace":
      return <BulkReplaceDialog {...props} />;
    case "translate":
      return <BulkTranslateDialog {...props} />;
    case "assign":
      return users ? <BulkAssignDialog {...props} users={users} /> : null;
    case "screen":
      return <BulkScreenDialog {...props} />;
    case "delete":
      return <BulkDeleteDialog {...props} onDeleted={onDeleted} />;
    default:
      return null;
  }
}
