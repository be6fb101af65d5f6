import "server-only";
import type { BrowserContext } from "playwright-core";
import { RENDER_VIEWPORTS, type RenderViewport } from "@/lib/contract/renders";
import { INERT_CSP } from "@/lib/inert/policy";
import { RendererBrowser } from "./chromium";
import { RendererBusy, renderFailure, withinLimit } from "./errors";
import { IDLE_MS, IdleWatch } from "./idle";

export { findChromium } from "./chromium";
export { RendererBusy, RenderIdle, RenderTimeout } from "./errors";

// The service's own browser: headless Chromium drawing pages of this server for the playground's
// renders and the safe view's drawings, and pictures (PNG) of inert documents (picture()). Bounded the way a shared image renderer must be: one browser, a fixed number of pages
// at once and a short queue behind them (past it, callers are told when to come back), each client
// address held to its share of both, a time limit per render after which its page is torn down, an
// earlier end for a render that waits on nothing, a memory ceiling past which the browser is
// restarted between renders, and a browser that dies or stops answering is started again.
//
// What it draws is hostile by assumption (dashboards are anyone's code), so nothing it draws may
// reach anything but this server, and the browser itself reaches nothing either: every request of
// the page and its frames is stopped before it is sent unless it is for the server's own origin,
// no name resolves, everything else is sent to a proxy the browser cannot even resolve (so it fails
// inside the browser, before any socket), WebRTC may use no UDP of its own, and the browser's own
// services that would call out are switched off.
//
// Here: the pages, the queue and the shares, and what one render or picture does in its page. The
// browser, its switches and its restarts are chromium.ts; the idle end is idle.ts; what a render
// ends with when it does not draw is errors.ts.

interface RendererOptions {
  /** The Chromium binary. */
  executablePath: string;
  /** Pages drawing at once. */
  concurrency: number;
  /** Renders waiting for a page; one more is refused with a time to come back. */
  queue: number;
  /** The longest one render may take, queueing excluded. */
  timeoutMs: number;
  /** Resident memory of the browser and its children past which it is restarted between renders. */
  memoryBytes: number;
  /** The only origin its pages may reach: this server's own (e.g. http://127.0.0.1:3000). */
  origin: string;
  /** The browser's environment. */
  env: Record<string, string>;
  /**
   * The port of the proxy that is not there (0.0.0.0, which the browser's own name rules turn into
   * nothing). Only a test sets it, to listen where the browser would connect if that ever changed.
   */
  proxyPort?: number;
  /** How long a render may go without a request or work before it is ended (RenderIdle). */
  idleMs?: number;
  log?: (line: string) => void;
}

interface RenderPage {
  /** A path of `origin` to open. */
  path: string;
  viewport: { width: number; height: number; mobile: boolean };
  /** A function body run in the page, true once the page has finished drawing. */
  ready: string;
  /** An expression evaluated once ready: the page's result, as JSON-safe data. */
  result: string;
  /** The element to picture (its whole box, however tall). */
  picture: string;
  /**
   * An expression evaluated once ready inside the frame `frame` (a selector of its element)
   * holds: what the page drew there, as JSON-safe data. Whatever ran in that frame could shape it.
   */
  frameResult?: { frame: string; expression: string };
}

interface RenderedPage {
  result: unknown;
  /** The frame's answer to `frameResult`, when asked. */
  frameResult?: unknown;
  png: Buffer;
  width: number;
  height: number;
  ms: number;
}

interface PictureInput {
  /** An inert document (lib/inert): whole, with no script and no address but `data:` images. */
  html: string;
  /** The width it is pictured at, as RENDER_VIEWPORTS names it: desktop (1280) or phone (390). */
  viewport: RenderViewport;
  /** The address it is drawn for, keyed as for render(): the picture takes that address's share. */
  client: string;
}

/** The tallest picture drawn, in CSS pixels (a frame never grows past 20,000: FRAME_HEIGHT_MAX). */
const MAX_PICTURE_HEIGHT = 20_000;
/**
 * Where a picture's document is opened: an address of the server's own origin, so a request that
 * escaped interception could reach only the server, but answered by the renderer itself (the
 * document never travels to the server and back).
 */
const PICTURE_PATH = "/dashboards/picture";
/** After the viewport grows, a moment for the frame's own process to paint what came into view. */
const PAINT_SETTLE_MS = 150;

/** One client address's renders: drawing now, and waiting in turn. */
interface ClientRenders {
  running: number;
  waiting: { start: () => void; refuse: (err: Error) => void }[];
}

export class Renderer {
  private readonly browser: RendererBrowser;
  private running = 0;
  private waitingTotal = 0;
  /** Renders by client address, in the order the addresses first asked (the queue's turns). */
  private readonly clients = new Map<string, ClientRenders>();
  /** The address whose waiting render was started last: the turn passes to the next one. */
  private lastServed: string | null = null;
  /** Recent render times, for the wait a busy caller is told. */
  private readonly recentMs: number[] = [];
  private closed = false;
  /**
   * One address's share. Pages: half of them, at least one (one of the default two), so while one
   * address floods, another's render finds a page free and is drawn at once rather than after the
   * flood's renders, each of which may take the whole time limit. Pages and queue places together:
   * its pages and a quarter of the queue, so it takes at least four addresses to fill the queue,
   * and one address's flood is refused at once past its share instead of queueing ahead of
   * everyone. A page an address may not take stays free for others even when nobody else is
   * asking: a lone caller draws more slowly, the price of a page always being there for the next.
   */
  private readonly pagesPerClient: number;
  private readonly heldPerClient: number;

  constructor(private readonly o: RendererOptions) {
    this.browser = new RendererBrowser(o);
    this.pagesPerClient = Math.max(1, Math.floor(o.concurrency / 2));
    this.heldPerClient = this.pagesPerClient + (o.queue === 0 ? 0 : Math.max(1, Math.floor(o.queue / 4)));
  }

  get busy(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingTotal };
  }

  /**
   * Draws one page for `client` (its address as the rate limits key it, IPv6 by /64); throws
   * RendererBusy past the address's share or when the queue is full, RenderTimeout past the time
   * limit, RenderIdle when it waits on nothing.
   */
  async render(page: RenderPage, client: string): Promise<RenderedPage> {
    return this.admitted(client, () => this.drawWithin(page));
  }

  /**
   * A PNG of an inert document at the viewport's width and its whole height (up to 20,000 CSS
   * pixels), for `client` under the same pages, queue, shares and time limit as render(). The
   * document is loaded with JavaScript off, under INERT_CSP with `sandbox` as its response's
   * policy, and with every request but its own stopped, so it could not act even were it not inert.
   * Throws as render() does (RendererBusy, RenderTimeout).
   */
  async picture({ html, viewport, client }: PictureInput): Promise<Buffer> {
    return this.admitted(client, () => this.pictureWithin(html, RENDER_VIEWPORTS[viewport]));
  }

  /** Runs `work` once `client` has a page: at once, after its turn in the queue, or refused. */
  private async admitted<T>(client: string, work: () => Promise<T>): Promise<T> {
    if (this.closed) throw new Error("the renderer is closed");
    const mine = this.clients.get(client) ?? { running: 0, waiting: [] };
    // Back in about one render's time, when one of the address's own renders is done.
    if (mine.running + mine.waiting.length >= this.heldPerClient) throw new RendererBusy(this.retryAfterSeconds(0, this.pagesPerClient), "share");
    this.clients.set(client, mine);
    // Nobody who could take a free page is waiting (dispatch leaves none), so a free page the
    // address may use is taken at once without passing anyone.
    if (this.running < this.o.concurrency && mine.running < this.pagesPerClient) {
      this.start(client, mine);
    } else {
      if (this.waitingTotal >= this.o.queue) {
        this.forget(client, mine);
        throw new RendererBusy(this.retryAfterSeconds(this.waitingTotal, this.o.concurrency), "full");
      }
      this.waitingTotal++;
      // Started by dispatch(), which has counted it as running by then.
      await new Promise<void>((start, refuse) => mine.waiting.push({ start, refuse }));
    }
    try {
      return await work();
    } finally {
      this.running--;
      mine.running--;
      this.forget(client, mine);
      this.dispatch();
    }
  }

  private start(client: string, mine: ClientRenders): void {
    this.running++;
    mine.running++;
    this.lastServed = client;
  }

  private forget(client: string, mine: ClientRenders): void {
    if (mine.running === 0 && mine.waiting.length === 0 && this.clients.get(client) === mine) this.clients.delete(client);
  }

  /** Free pages go to waiting renders one address at a time, in turn, each address within its share. */
  private dispatch(): void {
    while (this.running < this.o.concurrency && this.waitingTotal > 0) {
      const order = [...this.clients.keys()];
      const from = this.lastServed === null ? -1 : order.indexOf(this.lastServed);
      let next: string | null = null;
      for (let i = 1; i <= order.length; i++) {
        const key = order[(from + i + order.length) % order.length] ?? "";
        const entry = this.clients.get(key);
        if (entry && entry.waiting.length > 0 && entry.running < this.pagesPerClient) {
          next = key;
          break;
        }
      }
      // Every address that waits holds its pages already: the free page stays free for another.
      if (next === null) return;
      const entry = this.clients.get(next)!;
      const waiter = entry.waiting.shift()!;
      this.waitingTotal--;
      this.start(next, entry);
      waiter.start();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    // Renders still waiting would never be started.
    for (const [client, entry] of this.clients) {
      for (const waiter of entry.waiting.splice(0)) waiter.refuse(new Error("the renderer is closed"));
      this.forget(client, entry);
    }
    this.waitingTotal = 0;
    await this.browser.stop();
  }

  /** Seconds until `ahead` renders drawn `pages` at a time are done, from recent render times. */
  private retryAfterSeconds(ahead: number, pages: number): number {
    const typical = this.recentMs.length ? this.recentMs.reduce((a, b) => a + b, 0) / this.recentMs.length : this.o.timeoutMs / 4;
    return Math.max(1, Math.ceil(((ahead + 1) * typical) / pages / 1000));
  }

  private async drawWithin(spec: RenderPage): Promise<RenderedPage> {
    const started = Date.now();
    const browser = await this.browser.forRender(this.running === 1);
    const context = await browser.newContext({
      viewport: { width: spec.viewport.width, height: spec.viewport.height },
      deviceScaleFactor: 1,
      isMobile: spec.viewport.mobile,
      hasTouch: spec.viewport.mobile,
      serviceWorkers: "block",
      acceptDownloads: false,
      javaScriptEnabled: true,
    });
    let watch: IdleWatch | undefined;
    try {
      // Every request of the page and its frames, navigations included, is stopped before it is
      // sent unless it is for the server itself.
      await context.route("**/*", (route) => {
        let allowed = false;
        try {
          allowed = new URL(route.request().url()).origin === this.o.origin;
        } catch {
          allowed = false;
        }
        return allowed ? route.continue() : route.abort("blockedbyclient");
      });
      const page = await context.newPage();
      page.on("dialog", (d) => void d.dismiss().catch(() => {}));
      const idle = (watch = new IdleWatch(context, page, this.o.origin, this.o.idleMs ?? IDLE_MS));
      const work = (async () => {
        await page.goto(`${this.o.origin}${spec.path}`, { waitUntil: "domcontentloaded", timeout: this.o.timeoutMs });
        await page.waitForFunction(spec.ready, undefined, { timeout: this.o.timeoutMs, polling: 100 });
        idle.stop();
        const result: unknown = await page.evaluate(spec.result);
        let frameResult: unknown;
        if (spec.frameResult) {
          const inner = await (await page.$(spec.frameResult.frame))?.contentFrame();
          frameResult = inner ? await inner.evaluate(spec.frameResult.expression) : undefined;
        }
        const target = page.locator(spec.picture);
        let box = await target.boundingBox();
        // A frame's content below the viewport is not painted, so the viewport grows to hold the
        // whole frame first (the frame's own viewport, and so its layout, stays as it was).
        const bottom = box ? Math.ceil(box.y + box.height) : 0;
        if (bottom > spec.viewport.height) {
          await page.setViewportSize({ width: spec.viewport.width, height: Math.min(bottom, MAX_PICTURE_HEIGHT) });
          await page.evaluate((ms) => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, ms)))), PAINT_SETTLE_MS);
          box = await target.boundingBox();
        }
        const png = await target.screenshot({ type: "png", animations: "disabled", timeout: this.o.timeoutMs });
        return { result, frameResult, png, width: Math.round(box?.width ?? spec.viewport.width), height: Math.round(box?.height ?? spec.viewport.height) };
      })();
      const drawn = await withinLimit(work, this.o.timeoutMs, "the render", [idle.idle]);
      return { ...drawn, ms: this.took(started) };
    } catch (err) {
      throw renderFailure(err);
    } finally {
      watch?.stop();
      await this.closeContext(context);
    }
  }

  private async pictureWithin(html: string, viewport: { width: number; height: number; mobile: boolean }): Promise<Buffer> {
    const started = Date.now();
    const browser = await this.browser.forRender(this.running === 1);
    const context = await browser.newContext({
      viewport: { width: viewport.width, height: viewport.height },
      deviceScaleFactor: 1,
      isMobile: viewport.mobile,
      hasTouch: viewport.mobile,
      serviceWorkers: "block",
      acceptDownloads: false,
      javaScriptEnabled: false,
    });
    const url = `${this.o.origin}${PICTURE_PATH}`;
    try {
      // The document is the one answer; every other request is stopped before it is sent.
      await context.route("**/*", (route) => {
        const request = route.request();
        if (request.url() !== url || !request.isNavigationRequest() || request.frame().parentFrame() !== null) return route.abort("blockedbyclient");
        return route.fulfill({
          status: 200,
          headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": `${INERT_CSP}; sandbox`, "cache-control": "no-store" },
          body: html,
        });
      });
      const page = await context.newPage();
      const work = (async () => {
        await page.goto(url, { waitUntil: "load", timeout: this.o.timeoutMs });
        // Read from the browser's layout, not from the page: no script runs there.
        const cdp = await context.newCDPSession(page);
        const { cssContentSize } = await cdp.send("Page.getLayoutMetrics");
        await cdp.detach().catch(() => {});
        const height = Math.max(viewport.height, Math.min(MAX_PICTURE_HEIGHT, Math.ceil(cssContentSize.height)));
        return page.screenshot({ type: "png", animations: "disabled", fullPage: true, clip: { x: 0, y: 0, width: viewport.width, height }, timeout: this.o.timeoutMs });
      })();
      const png = await withinLimit(work, this.o.timeoutMs, "the picture");
      this.took(started);
      return png;
    } catch (err) {
      throw renderFailure(err);
    } finally {
      await this.closeContext(context);
    }
  }

  /** Keeps a render's time for the wait a busy caller is told; answers it. */
  private took(started: number): number {
    const ms = Date.now() - started;
    this.recentMs.push(ms);
    if (this.recentMs.length > 20) this.recentMs.shift();
    return ms;
  }

  private async closeContext(context: BrowserContext): Promise<void> {
    // A page whose script never yields can hold its context open: past a short wait the whole
    // browser is restarted rather than left wedged for the next render.
    const closed = await Promise.race([context.close().then(() => true).catch(() => false), new Promise<boolean>((r) => setTimeout(() => r(false), 5_000))]);
    if (!closed) {
      this.o.log?.("a render's page would not close; restarting the renderer's browser");
      await this.browser.stop();
    }
  }
}