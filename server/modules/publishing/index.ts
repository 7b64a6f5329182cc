// The publishing module's door: what other modules use of it. A module imports another only through its index.ts (lint:
// eslint.config.js); what it uses of another's service is handed to its factory by deps.ts.
export { PREVIEW_PROBE_MS, PUBLISH_CONCURRENCY } from "./constants.ts";
export { hiddenBatchIds, listingView } from "./batch-state.ts";
export { imageSizesOf, probeImageSizes, type PictureFetchOptions } from "./pictures.ts";
export { cachedFees, feeInput } from "./fees.ts";
