// For tests under the root vitest (which does not load WXT's vitest plugin): installs WXT's in-memory fakeBrowser as
// the extension API. Import it first in a test file, before anything that imports wxt/browser or wxt/utils/storage,
// since @wxt-dev/browser picks its `browser` object when it is first imported.
import { fakeBrowser } from "wxt/testing/fake-browser";

const g = globalThis as unknown as { browser?: unknown; chrome?: unknown };
g.browser = fakeBrowser;
g.chrome = fakeBrowser;

export { fakeBrowser };
