// `npm run dev`: the server (restarting on change, on :3000) and the console's vite dev server (on :5173, hot reload,
// forwarding /api and /connect to the server). Open http://localhost:5173.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = (name) => `${root}node_modules/.bin/${name}`;
const children = [
  // Sellers connecting a shop come back to the console's origin (vite forwards /api to the server).
  spawn(bin("tsx"), ["watch", "server/main.ts"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PUBLIC_URL: process.env.PUBLIC_URL ?? "http://localhost:5173" },
  }),
  spawn(bin("vite"), ["--config", "console/vite.config.ts"], { cwd: root, stdio: "inherit" }),
];
const stop = () => {
  for (const c of children) c.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const c of children) c.on("exit", (code) => code && stop());
