// Debian's Chromium for the browser tests: headless, no sandbox (CI runs as root), and kept off the network.
import puppeteer, {
  ElementHandle,
  Frame,
  Page,
  type Browser,
  type BrowserContext,
  type FrameWaitForFunctionOptions,
  type LaunchOptions,
  type ScreenshotOptions,
} from "puppeteer-core";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

// A waitForFunction checks every 50 ms unless told otherwise, not at every animation frame (puppeteer's default): a
// frame-by-frame wait makes headless Chromium draw 60 frames a second for as long as it lasts, about a tenth of a core
// per waiting page, and the browser tests spend most of their time waiting on the server. (waitForSelector already
// waits on the page's DOM changes.)
const WAIT_POLL_MS = 50;
const waitForFunction = Frame.prototype.waitForFunction;
Frame.prototype.waitForFunction = function (this: Frame, fn: never, options: FrameWaitForFunctionOptions = {}, ...args: never[]) {
  return waitForFunction.call(this, fn, { polling: WAIT_POLL_MS, ...options }, ...args);
} as typeof waitForFunction;

// Screenshots (the artifacts a person looks at after a run) are encoded for speed, a faster zlib setting: about half of
// Chromium's CPU for a full page, for a file about a quarter larger. An element's screenshot goes through the page's.
const screenshot = Page.prototype.screenshot;
Page.prototype.screenshot = function (this: Page, options: ScreenshotOptions = {}) {
  return screenshot.call(this, { optimizeForSpeed: true, ...options });
} as typeof screenshot;

// A click whose element was hidden or replaced for a moment between puppeteer's look at it and its click (a re-render,
// later on a busy machine) fails with NOT_CLICKABLE at once. It is tried again for a short while: page.click looks the
// selector up again, as a person clicks the button drawn in the old one's place; an element handle is tried as it is.
// An element that stays unclickable still fails, with puppeteer's own error.
const NOT_CLICKABLE = "Node is either not clickable or not an Element";
const CLICK_RETRY_MS = 3000;
async function retryUnclickable<T>(click: () => Promise<T>): Promise<T> {
  const last = Date.now() + CLICK_RETRY_MS;
  for (;;) {
    try {
      return await click();
    } catch (e) {
      if (!(e instanceof Error && e.message.includes(NOT_CLICKABLE)) || Date.now() > last) throw e;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const frameClick = Frame.prototype.click;
Frame.prototype.click = function (this: Frame, ...args: Parameters<typeof frameClick>) {
  return retryUnclickable(() => frameClick.apply(this, args));
};
const handleClick = ElementHandle.prototype.click;
ElementHandle.prototype.click = function (this: ElementHandle, ...args: Parameters<typeof handleClick>) {
  return retryUnclickable(() => handleClick.apply(this, args));
};

/**
 * Clicks `selector` and checks that the press landed on it. A redraw between puppeteer's look at the element and its
 * press (a part above it growing a line, later on a busy machine) moves the element, and the press lands on what took
 * its place: nothing happens, as when a person's pointer misses. Such a press is made again, at most 3 times, each miss
 * named in the log; a press that landed is the page's to answer.
 */
export async function clickLanded(page: Page, selector: string): Promise<void> {
  const misses: string[] = [];
  while (misses.length < 3) {
    await page.evaluate(() => {
      const w = window as unknown as { lastClick?: EventTarget | null };
      w.lastClick = null;
      document.addEventListener("click", (e) => (w.lastClick = e.target), { capture: true, once: true });
    });
    await page.click(selector);
    const miss = await page.evaluate((sel) => {
      const hit = (window as unknown as { lastClick?: EventTarget | null }).lastClick;
      if (!(hit instanceof Element)) return "no click event";
      // Landed, even when a redraw has replaced the element since: the page's answer is then the page's to give.
      if (hit.closest(sel)) return null;
      return `${hit.tagName.toLowerCase()} ${hit.getAttribute("data-testid") ?? hit.className} "${(hit.textContent ?? "").slice(0, 30)}"`;
    }, selector);
    if (miss === null) {
      if (misses.length) console.warn(`[click] ${selector} landed after ${misses.length} miss(es): ${misses.join("; ")}`);
      return;
    }
    misses.push(miss);
  }
  throw new Error(`${selector}: 3 presses landed elsewhere: ${misses.join("; ")}`);
}

/**
 * Chromium for a test file. A plain one (no options, no extra arguments) is one browser per test worker, shared by the
 * files the worker runs one after another: a launch costs about 1.2 s of CPU. The file gets a handle on it whose pages
 * open in browser contexts of their own (as openConsolePage's do) and whose close() closes those contexts, not the
 * browser, which ends with the worker. A browser with an extension or other settings is the file's own.
 */
export async function launchChromium(options: LaunchOptions = {}, extraArgs: string[] = []): Promise<Browser> {
  if (Object.keys(options).length || extraArgs.length) return launch(options, extraArgs);
  // Over a pipe, the browser ends with the worker however the worker ends (the pipe closes).
  let browser = await (sharedBrowser ??= launch({ pipe: true }, []));
  if (!browser.connected) browser = await (sharedBrowser = launch({ pipe: true }, []));
  return fileHandle(browser);
}

let sharedBrowser: Promise<Browser> | undefined;

function fileHandle(browser: Browser): Browser {
  const contexts: BrowserContext[] = [];
  const createBrowserContext: Browser["createBrowserContext"] = async (options) => {
    const context = await browser.createBrowserContext(options);
    contexts.push(context);
    return context;
  };
  const own: Partial<Browser> = {
    createBrowserContext,
    newPage: async () => (await createBrowserContext()).newPage(),
    close: async () => {
      await Promise.all(contexts.splice(0).map((context) => context.close().catch(() => {})));
    },
  };
  return new Proxy(browser, {
    get(target, key) {
      if (key in own) return own[key as keyof Browser];
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function launch(options: LaunchOptions, extraArgs: string[]): Promise<Browser> {
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
      // As a user who asks for less motion: the console's spinners and skeletons hold still (shared/ui/theme.css)
      // instead of having Chromium draw 60 frames a second while a page waits on the server (a fifth of its CPU).
      "--force-prefers-reduced-motion",
      ...extraArgs,
    ],
    ...options,
  });
}

export type ConsoleAccount = { tenant: string; user: string; password: string };

/**
 * A page in a browser context of its own, logged into the console with the login form and moved to `menuPath`
 * through the menu (as a user gets there). `beforeLoad` runs first (e.g. evaluateOnNewDocument).
 */
export async function openConsolePage(
  browser: Browser,
  consoleUrl: string,
  account: ConsoleAccount,
  menuPath: string,
  beforeLoad?: (page: Page) => Promise<void>,
): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1440, height: 900 });
  page.on("pageerror", (e) => console.error("[pageerror]", e instanceof Error ? e.message : e));
  await beforeLoad?.(page);
  await page.goto(`${consoleUrl}/#/login`);
  await page.waitForSelector("input[name=userName]");
  await page.type("input[name=tenantName]", account.tenant);
  await page.type("input[name=userName]", account.user);
  await page.type("input[name=password]", account.password);
  await page.click("[data-testid=login-submit]");
  await page.waitForFunction(() => location.hash === "#/dashboard/wrokbench", { timeout: 15_000 });
  await page.waitForSelector(`[data-menu-path='${menuPath}']`);
  await page.click(`[data-menu-path='${menuPath}']`);
  return page;
}

/** Lets the page's browser context save downloads into `dir` (headless Chromium refuses them by default). */
export async function allowDownloads(browser: Browser, page: Page, dir: string) {
  const session = await page.createCDPSession();
  const { targetInfo } = await session.send("Target.getTargetInfo");
  const browserSession = await browser.target().createCDPSession();
  await browserSession.send("Browser.setDownloadBehavior", {
    behavior: "allow",
    downloadPath: dir,
    browserContextId: targetInfo.browserContextId,
  });
}

/** Waits until a toast saying `text` shows (the console's toasts carry data-toast-type). */
export const toastSays = (page: Page, text: string) =>
  page.waitForFunction((t) => [...document.querySelectorAll("[data-toast-type]")].some((e) => e.textContent?.includes(t)), {}, text);
