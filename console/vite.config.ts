import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The console build. `npm run dev` serves it on 5173 and forwards the API to the server (API_TARGET, default :3000).
const apiTarget = process.env.API_TARGET ?? "http://127.0.0.1:3000";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The bundle-size benchmark (bench/console-bundle.ts) reads this manifest to find the login route's chunks.
    manifest: true,
    rollupOptions: {
      output: {
        // Feature screens are lazy chunks by their import(); the framework libraries every screen needs share one
        // long-cached vendor chunk.
        manualChunks(id) {
          if (/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom)\//.test(id)) return "react";
          return undefined;
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": apiTarget, "/connect": apiTarget, "/health": apiTarget, "/swagger": apiTarget, "/downloads": apiTarget },
  },
});
