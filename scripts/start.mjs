// `npm start`: builds the console and the server when a build is missing or older than its sources, then runs the
// server in this process.
import { pathToFileURL } from "node:url";
import { ensureConsoleBuilt, ensureServerBuilt } from "./builds.mjs";

ensureConsoleBuilt();
await import(pathToFileURL(await ensureServerBuilt()).href);
