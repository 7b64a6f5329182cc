// The infringement module's door: what other modules use of it. A module imports another only through its index.ts (lint:
// eslint.config.js); what it uses of another's service is handed to its factory by deps.ts.
export { htmlText } from "./service.ts";
