import type { BrowserContext, CDPSession, Frame, Page, Request } from "playwright-core";
import { RenderIdle } from "./errors";

/** How long a render may go without a request or work before it is ended (RendererOptions.idleMs). */
export const IDLE_MS = 4_000;
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
export class IdleWatch {
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
