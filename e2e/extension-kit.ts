// What the extension's browser tests share: the built extension's folder (e2e/global-setup.ts builds it once), its id
// once Chromium has loaded it, and a TCP relay in front of the server that a test takes down to play an unreachable
// server (the extension's offline queues).
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { join } from "node:path";
import type { Browser } from "puppeteer-core";
import { repoRoot } from "./app-process.ts";

/** The built extension; E2E_EXTENSION_DIR names another build (a session building its own beside others' tests). */
export const extensionDir = process.env.E2E_EXTENSION_DIR ?? join(repoRoot, ".output/chrome-mv3");

/** The id of the extension Chromium loaded (its service worker's host). */
export async function extensionIdOf(browser: Browser): Promise<string> {
  const worker = await browser.waitForTarget((t) => t.type() === "service_worker" && t.url().startsWith("chrome-extension://"));
  return new URL(worker.url()).host;
}

/**
 * A TCP relay to `target` (a port on 127.0.0.1): `down()` refuses connections on its port, `up()` serves again on the
 * same port. `counted(line)` answers how many requests that went through start with one of `count`'s request lines
 * (e.g. "POST /api/Product/CreateOrUpdateProduct").
 */
export function createRelay(target: number, { count = [] }: { count?: string[] } = {}) {
  let server: Server | null = null;
  const sockets = new Set<Socket>();
  let port = 0;
  const seen = new Map<string, number>(count.map((line) => [line, 0]));
  return {
    get port() {
      return port;
    },
    counted(line: string): number {
      const n = seen.get(line);
      if (n === undefined) throw new Error(`the relay does not count ${line}`);
      return n;
    },
    async up() {
      server = createServer((client) => {
        sockets.add(client);
        const upstream = connect(target, "127.0.0.1");
        sockets.add(upstream);
        if (seen.size)
          client.on("data", (chunk: Buffer) => {
            const text = chunk.toString("latin1");
            for (const [line, n] of seen) seen.set(line, n + text.split(`${line} `).length - 1);
          });
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on("error", end).on("close", end);
        upstream.on("error", end).on("close", end);
      });
      await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
      port = (server!.address() as AddressInfo).port;
    },
    async down() {
      for (const sock of sockets) sock.destroy();
      sockets.clear();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = null;
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
