// Public API of the product extractor (shared by the browser extension and the server crawler).
export { extract, detectPlatform, pickAdapter, type ExtractOptions } from "./extract.ts";
export { adapters } from "./adapters/index.ts";
export {
  extractedProduct,
  extractResult,
  platforms,
  platform,
  expectedFields,
  type ExtractedProduct,
  type ExtractResult,
  type PartialProduct,
  type Platform,
  type BlockKind,
  type ProductField,
} from "./product.ts";
export {
  snapshotSchema,
  scrubSecrets,
  readGlobal,
  type Adapter,
  type Snapshot,
  type InterceptedResponse,
  type Located,
} from "./snapshot.ts";
export { parseLiteral, parseJsonExact, parseData, LiteralError } from "./literal.ts";
