// Debian's Chromium for the browser tests: headless, no sandbox (CI runs as root), and kept off the network.
import puppeteer, { type Browser, type LaunchOptions } from "puppeteer-core";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchChromium(options: LaunchOptions = {}, extraArgs: string[] = []): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-component-update",
      "--disable-background-networking",
      "--no-first-run",
      "--disable-sync",
      ...extraArgs,
    ],
    ...options,
  });
}
