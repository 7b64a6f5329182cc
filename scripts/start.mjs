// `npm start`: builds the console when it has not been built, then runs the server in this process.
import { existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = fileURLToPath(new URL("..", import.meta.url));
if (!existsSync(`${root}console/dist/index.html`)) {
  console.log("[start] building the console (first start)…");
  execFileSync(
    process.execPath,
    [`${root}node_modules/vite/bin/vite.js`, "build", "--config", "console/vite.config.ts", "--logLevel", "warn"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
}
register();
await import("../server/main.ts");
