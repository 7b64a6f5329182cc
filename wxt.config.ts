// The browser extension (ARCHITECTURE "Extension"; STACK "WXT"): Manifest V3, sources in extension/, React through
// @wxt-dev/module-react. `npm run build:extension` writes .output/chrome-mv3 (load it unpacked).
import { defineConfig } from "wxt";

export default defineConfig({
  srcDir: "extension",
  modules: ["@wxt-dev/module-react"],
  // Explicit imports everywhere (wxt/browser, wxt/utils/storage, ...): the same code then runs under the root vitest
  // without WXT's plugin, and reads the same in the extension as in shared/.
  imports: false,
  // The extension's pages are drawn with Preact through its React compatibility layer (the code is written against
  // React's API, and the console keeps React): the side panel's first load is on the press that opens it, and React
  // DOM was most of its first chunk (bench/side-panel.ts; docs/decisions.md).
  vite: () => ({
    resolve: {
      alias: [
        { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
        { find: /^react-dom$/, replacement: "preact/compat" },
        { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
        { find: /^react\/jsx-dev-runtime$/, replacement: "preact/jsx-dev-runtime" },
        { find: /^react$/, replacement: "preact/compat" },
      ],
    },
  }),
  manifest: {
    name: "Mercado ERP 采集助手",
    description: "Mercado ERP 的浏览器助手：登录后台，在货源网站一键采集商品。",
    // sidePanel: the product panel (opened from the collect button, the popup and the shortcut below).
    permissions: ["storage", "alarms", "sidePanel"],
    commands: {
      "open-side-panel": { suggested_key: { default: "Alt+Shift+E" }, description: "打开商品侧边栏（编辑与刊登）" },
    },
    // The server URL is a setting the user types in the popup, so the background worker must be allowed to call any
    // origin. Narrow this (or move to optional_host_permissions requested at login) when the content scripts of a
    // later issue define which source sites the extension runs on.
    host_permissions: ["<all_urls>"],
  },
});
