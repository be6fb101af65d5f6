import "server-only";
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { chromium, type Browser, type BrowserContext, type CDPSession, type Frame, type Page, type Request } from "playwright-core";
import { RENDER_VIEWPORTS, type RenderViewport } from "@/lib/contract/renders";
import { INERT_CSP } from "@/lib/inert/policy";

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

/**
 * No render can be taken now: try again after this many seconds. `share` when the caller's own
 * address already holds its share of the renderer, `full` when every page and queue place is taken.
 */
export class RendererBusy extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly reason: "share" | "full" = "full",
  ) {
    super(reason === "share" ? "this address holds its share of the renderer" : "the renderer is busy");
  }
}

/** The render did not finish in time; its page was torn down. */
export class RenderTimeout extends Error {}

/** The render waited on nothing (no request, no work) for `idleMs` and was ended before its time limit. */
export class RenderIdle extends RenderTimeout {
  constructor(readonly idleMs: number) {
    super(`the page made no request and no work for ${idleMs} ms without finishing`);
  }
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

/** How long a render may go without a request or work before it is ended (RendererOptions.idleMs). */
const IDLE_MS = 4_000;
/** How often a render's work is read. */
const IDLE_SAMPLE_MS = 500;
/** Main-thread work below this share of one core, over the idle stretch, counts as none. */
const IDLE_WORK_SHARE = 0.02;
/** Frames of one render whose work is read: a page that makes more gains only its time limit. */
const IDLE_FRAMES_MAX = 16;

/**
 * Whether a render is waiting on nothing: no request of its own to the server in flight or made
 * for `idleMs`, and next to no main-thread work (Chromium's TaskDuration, read over CDP from the
 * page and from each frame drawn in a process of its own) over the same stretch. A page that waits
 * so, and has not said it is done, never will be — a frame that navigated away from its host, a
 * promise nothing resolves — and would otherwise hold a page until the time limit, using nothing
 * while another render waits for it. A dashboard that computes or is waiting for an answer is not
 * idle however slow it is; the render page's own waits (its report's quiet 500 ms, a paint) are a
 * fraction of `idleMs`. Requests the renderer stops are no activity: they reach nothing.
 */
class IdleWatch {
  private readonly inFlight = new Set<Request>();
  private lastRequest = Date.now();
  /** Seconds of main-thread work read so far, over every process of the render. */
  private work = 0;
  private readonly samples: { at: number; work: number }[] = [];
  /** CDP sessions by what they watch; null for a frame drawn in its parent's process. */
  private readonly sessions = new Map<Page | Frame, { session: CDPSession; last: number | null } | null>();
  private stopped = false;
  readonly idle: Promise<never>;

  constructor(
    private readonly context: BrowserContext,
    private readonly page: Page,
    private readonly origin: string,
    private readonly idleMs: number,
  ) {
    const own = (r: Request) => {
      try {
        return new URL(r.url()).origin === origin;
      } catch {
        return false;
      }
    };
    context.on("request", (r) => {
      if (!own(r)) return;
      this.inFlight.add(r);
      this.lastRequest = Date.now();
    });
    const ended = (r: Request) => {
      if (!this.inFlight.delete(r)) return;
      this.lastRequest = Date.now();
    };
    context.on("requestfinished", ended);
    context.on("requestfailed", ended);
    // A frame that navigates may move to another process: its session is looked for again.
    page.on("framenavigated", (f) => {
      if (f === page.mainFrame()) return;
      void this.sessions.get(f)?.session.detach().catch(() => {});
      this.sessions.delete(f);
    });
    this.idle = new Promise<never>((_, reject) => {
      void this.run().then((idle) => {
        if (idle) reject(new RenderIdle(idleMs));
      });
    });
    this.idle.catch(() => {});
  }

  /** The page said it is done: what remains is the renderer's own work. */
  stop(): void {
    this.stopped = true;
  }

  private async run(): Promise<boolean> {
    try {
      const main = await this.context.newCDPSession(this.page);
      await main.send("Performance.enable");
      this.sessions.set(this.page, { session: main, last: null });
    } catch {
      // No work can be read: no render is called idle.
      return false;
    }
    while (!this.stopped) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS));
      if (this.stopped) return false;
      try {
        await this.read();
      } catch {
        // The page is closing.
        return false;
      }
      if (this.isIdle()) return !this.stopped;
    }
    return false;
  }

  private async read(): Promise<void> {
    for (const frame of this.page.frames().slice(1, 1 + IDLE_FRAMES_MAX)) {
      if (this.sessions.has(frame)) continue;
      try {
        const session = await this.context.newCDPSession(frame);
        await session.send("Performance.enable");
        this.sessions.set(frame, { session, last: null });
      } catch {
        this.sessions.set(frame, null);
      }
    }
    for (const [key, watched] of this.sessions) {
      if (!watched) continue;
      let taskSeconds: number;
      try {
        const { metrics } = await watched.session.send("Performance.getMetrics");
        taskSeconds = metrics.find((m) => m.name === "TaskDuration")?.value ?? 0;
      } catch (err) {
        if (key === this.page) throw err;
        // The frame is gone, or moved to another process.
        this.sessions.delete(key);
        continue;
      }
      if (watched.last !== null) this.work += Math.max(0, taskSeconds - watched.last);
      watched.last = taskSeconds;
    }
    const now = Date.now();
    this.samples.push({ at: now, work: this.work });
    // Kept: the newest sample at least idleMs old, and everything after it.
    while (this.samples.length > 1 && (this.samples[1]?.at ?? now) <= now - this.idleMs) this.samples.shift();
  }

  private isIdle(): boolean {
    const now = Date.now();
    if (this.inFlight.size > 0 || now - this.lastRequest < this.idleMs) return false;
    const oldest = this.samples[0];
    if (!oldest || oldest.at > now - this.idleMs) return false;
    return this.work - oldest.work < (IDLE_WORK_SHARE * this.idleMs) / 1000;
  }
}

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

/** The Chromium to use: the configured path, the first candidate that exists for `auto`, or null. */
export function findChromium(setting: string): string | null {
  if (setting === "off") return null;
  const paths = setting === "auto" ? CANDIDATES : [setting];
  return paths.find((p) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }) ?? null;
}

/** Bytes of resident memory of a process and every process under it (Linux /proc; 0 elsewhere). */
function treeRss(root: number): number {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return 0;
  }
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const e of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, "utf8");
      // Fields after the command (which may hold spaces and parentheses): state, ppid, …, rss (24th).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(e), Number(fields[1]));
      rss.set(Number(e), Number(fields[21]) * 4096);
    } catch {
      // The process ended while being read.
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        total += bytes;
        break;
      }
    }
  }
  return total;
}

/**
 * Chromium reads one --disable-features, the last it is given: this list replaces the one
 * Playwright passes, so it carries Playwright's own (the first line) as well as the renderer's.
 */
const DISABLED_FEATURES = [
  ...["AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades", "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch"],
  // The address bar's popups are pages of their own, started for every context: a render paid
  // about 0.8 s of CPU for a popup a headless browser never shows.
  "WebUIOmniboxPopup",
  "WebUIOmniboxAimPopup",
  // Services that call out on their own once a page has loaded (with a listener on the proxy:
  // form classification at content-autofill.googleapis.com on every page; Playwright's list above,
  // which the renderer had been replacing, stops network time and optimization hints), model
  // downloads, and the casting and translation services that would look for devices or servers.
  "AutofillServerCommunication",
  "OptimizationGuideModelDownloading",
  "OptimizationHintsFetching",
  "OptimizationTargetPrediction",
  "DialMediaRouteProvider",
  "CastMediaRouteProvider",
  "GlobalMediaControls",
  "Translate",
  "CertificateTransparencyComponentUpdater",
  "InterestFeedContentSuggestions",
];

/**
 * The proxy every request not for the server is sent to. 0.0.0.0 is an address the resolver rules
 * below turn into nothing, so a connection to it fails inside the browser: no DNS query, no socket,
 * and the name a page chose (which a proxy's CONNECT line would carry) never leaves. Were the
 * rules to stop applying to it, a connection to 0.0.0.0 would arrive at this machine's listener on
 * that port, where the renderer's test listens.
 */
const DEAD_PROXY_HOST = "0.0.0.0";
/** The discard port: nothing is expected to listen there. */
const DEAD_PROXY_PORT = 9;

function argsFor(origin: string, proxyPort: number): string[] {
  const { host, hostname } = new URL(origin);
  return [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    // The browser's own traffic: background fetches, component updates, sync, extensions and their
    // updates, error reports, network-error reports, hyperlink auditing pings.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--no-pings",
    "--no-first-run",
    "--disable-quic",
    "--mute-audio",
    `--disable-features=${DISABLED_FEATURES.join(",")}`,
    // No name resolves: the server is reached by its address, and a dashboard's names go nowhere.
    `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE ${hostname}`,
    // Anything not for the server goes to the dead proxy (loopback included, which Chromium would
    // otherwise reach directly): what no interception catches first — a WebSocket, a TURN server
    // over TCP, the connection Chromium opens ahead of a navigation it will never send, the two
    // calls of Chromium's own no switch here stops (its account list at accounts.google.com, the
    // on-device models' manifest from the component updater) — fails there, inside the browser.
    // WebRTC may send no UDP but through that proxy, which is none.
    `--proxy-server=http://${DEAD_PROXY_HOST}:${proxyPort}`,
    `--proxy-bypass-list=<-loopback>;${host}`,
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  ];
}

/** The browser process started with `marker` among its arguments (Linux /proc), or null. */
function pidWithArgument(marker: string): number | null {
  try {
    for (const e of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(e)) continue;
      try {
        if (fs.readFileSync(`/proc/${e}/cmdline`, "utf8").split("\0").includes(marker)) return Number(e);
      } catch {
        // The process ended while being read.
      }
    }
  } catch {
    // No /proc: the memory ceiling and the forced stop are not available here.
  }
  return null;
}

/** One client address's renders: drawing now, and waiting in turn. */
interface ClientRenders {
  running: number;
  waiting: { start: () => void; refuse: (err: Error) => void }[];
}

export class Renderer {
  /** The running browser and its process id (found by the marker it was started with). */
  private current: { browser: Browser; pid: number | null } | null = null;
  private browser: Promise<Browser> | null = null;
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
    await this.stopBrowser();
  }

  /** Seconds until `ahead` renders drawn `pages` at a time are done, from recent render times. */
  private retryAfterSeconds(ahead: number, pages: number): number {
    const typical = this.recentMs.length ? this.recentMs.reduce((a, b) => a + b, 0) / this.recentMs.length : this.o.timeoutMs / 4;
    return Math.max(1, Math.ceil(((ahead + 1) * typical) / pages / 1000));
  }

  private async launch(): Promise<Browser> {
    // Chromium ignores a switch it does not know: this one names the process, for its memory and a forced stop.
    const marker = `--dashboards-renderer=${randomBytes(8).toString("hex")}`;
    const browser = await chromium.launch({
      executablePath: this.o.executablePath,
      args: [...argsFor(this.o.origin, this.o.proxyPort ?? DEAD_PROXY_PORT), marker],
      env: this.o.env,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const current = { browser, pid: pidWithArgument(marker) };
    this.current = current;
    // A browser that crashed is started again for the next render.
    browser.on("disconnected", () => {
      if (this.current === current) {
        this.current = null;
        this.browser = null;
      }
    });
    return browser;
  }

  private async stopBrowser(): Promise<void> {
    const current = this.current;
    this.current = null;
    this.browser = null;
    if (!current) return;
    await Promise.race([current.browser.close(), new Promise((r) => setTimeout(r, 3_000))]).catch(() => {});
    if (current.pid) {
      try {
        process.kill(current.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }

  /** The browser, started when there is none; restarted when it grew past the memory ceiling. */
  private async browserForRender(): Promise<Browser> {
    const pid = this.current?.pid;
    if (pid && this.running === 1 && treeRss(pid) > this.o.memoryBytes) {
      this.o.log?.(`the renderer's browser uses more than ${Math.round(this.o.memoryBytes / 1048576)} MiB; restarting it`);
      await this.stopBrowser();
    }
    this.browser ??= this.launch().catch((err: unknown) => {
      this.browser = null;
      throw err;
    });
    return this.browser;
  }

  private async drawWithin(spec: RenderPage): Promise<RenderedPage> {
    const started = Date.now();
    const browser = await this.browserForRender();
    const context = await browser.newContext({
      viewport: { width: spec.viewport.width, height: spec.viewport.height },
      deviceScaleFactor: 1,
      isMobile: spec.viewport.mobile,
      hasTouch: spec.viewport.mobile,
      serviceWorkers: "block",
      acceptDownloads: false,
      javaScriptEnabled: true,
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
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
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          reject(new RenderTimeout(`the render took longer than ${this.o.timeoutMs} ms`));
        }, this.o.timeoutMs);
      });
      work.catch(() => {});
      const drawn = await Promise.race([work, limit, idle.idle]);
      return { ...drawn, ms: this.took(started) };
    } catch (err) {
      if (timedOut || err instanceof RenderIdle) throw err;
      const message = err instanceof Error ? err.message : String(err);
      if (/Timeout/i.test(message)) throw new RenderTimeout(message.split("\n")[0] ?? message);
      throw err;
    } finally {
      clearTimeout(timer);
      watch?.stop();
      await this.closeContext(context);
    }
  }

  private async pictureWithin(html: string, viewport: { width: number; height: number; mobile: boolean }): Promise<Buffer> {
    const started = Date.now();
    const browser = await this.browserForRender();
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
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
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
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          reject(new RenderTimeout(`the picture took longer than ${this.o.timeoutMs} ms`));
        }, this.o.timeoutMs);
      });
      work.catch(() => {});
      const png = await Promise.race([work, limit]);
      this.took(started);
      return png;
    } catch (err) {
      if (timedOut) throw err;
      const message = err instanceof Error ? err.message : String(err);
      if (/Timeout/i.test(message)) throw new RenderTimeout(message.split("\n")[0] ?? message);
      throw err;
    } finally {
      clearTimeout(timer);
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
      await this.stopBrowser();
    }
  }
}
