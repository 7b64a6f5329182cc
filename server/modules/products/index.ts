// The products module's door: what other modules use of it. A module imports another only through its index.ts (lint:
// eslint.config.js); what it uses of another's service is handed to its factory by deps.ts.
export { selectionWhere, visibleProducts } from "./filter.ts";
export { productsFollowListings } from "./listing-status.ts";
export { forgetProductEdits } from "./edits.ts";
export { toVariantItems, type StoredOption, type StoredVariant } from "./variants.ts";
export type { ProductService } from "./service.ts";
