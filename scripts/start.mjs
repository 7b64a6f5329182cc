// `npm start`: builds the console when its build is missing or older than its sources, then runs the server in this
// process.
import { register } from "tsx/esm/api";
import { ensureConsoleBuilt } from "./builds.mjs";

ensureConsoleBuilt();
register();
await import("../server/main.ts");
