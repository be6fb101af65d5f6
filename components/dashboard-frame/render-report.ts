import {
  REPORT_CONSOLE_MAX,
  REPORT_ERRORS_MAX,
  REPORT_MESSAGE_MAX,
  REPORT_PATH_MAX,
  REPORT_QUIET_MS,
  REPORT_REASON_MAX,
  REPORT_REFUSALS_MAX,
  REPORT_REQUESTS_MAX,
  REPORT_TEXT_MAX,
  REPORT_WAIT_MAX_MS,
} from "@/lib/contract/report-limits";
import type { RenderConsoleLine, RenderError, RenderRefusal, RenderReportInput, RenderRequest } from "@/lib/contract/reports";
import type { RenderNotice } from "@/lib/frame/protocol";
import type { RequestLogEntry } from "./broker";

// The host's half of a render report: one recorder per dashboard document. It gathers what the
// frame tells (already parsed by parseFrameMessage, so shaped but still the dashboard's words)
// and what the broker relayed or refused, bounds it by the contract's numbers, and hands over
// one report once the dashboard has settled: every request answered and nothing new asked for
// REPORT_QUIET_MS, then the frame's word that it painted; or, at the latest, REPORT_WAIT_MAX_MS
// after the start, with `settled` false.

/** A report as the frame's host makes it; the page adds the revision. */
export type RenderReportBody = Omit<RenderReportInput, "revision">;

interface RenderRecorderOptions {
  page: RenderReportBody["page"];
  /** Asks the frame to answer `painted` with this id after its next paint. */
  requestPaint: (id: number) => void;
  onDone: (report: RenderReportBody) => void;
  now?: () => number;
  quietMs?: number;
  maxWaitMs?: number;
  /** How long to wait for `painted` before reporting anyway (a frame that never paints). */
  paintWaitMs?: number;
}

const PAINT_WAIT_MS = 1_000;
const DURATION_MAX_MS = 600_000;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

function cleanText(s: string, max: number): string {
  const t = s.replace(CONTROLS, " ");
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

const ms = (n: number) => Math.min(DURATION_MAX_MS, Math.max(0, Math.round(n)));

export class RenderRecorder {
  private readonly now: () => number;
  private readonly started: number;
  private readonly errors = new Map<string, RenderError>();
  private readonly console = new Map<string, RenderConsoleLine>();
  private readonly refusals = new Map<string, RenderRefusal>();
  private readonly requests: RenderRequest[] = [];
  private text = 0;
  private dropped = 0;
  private inFlight = 0;
  private lastActivity: number;
  private loaded = false;
  private done = false;
  private paintId = 0;
  private waitingPaint: number | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly deadline: ReturnType<typeof setTimeout>;

  constructor(private readonly options: RenderRecorderOptions) {
    this.now = options.now ?? Date.now;
    this.started = this.now();
    this.lastActivity = this.started;
    this.deadline = setTimeout(() => this.finish(false), options.maxWaitMs ?? REPORT_WAIT_MAX_MS);
  }

  /** The dashboard's document has been written and has loaded. */
  documentLoaded(): void {
    this.loaded = true;
    this.schedule();
  }

  /** The broker took a request from the frame. */
  requestStarted(): void {
    if (this.done) return;
    this.inFlight++;
    this.touch();
  }

  /** The broker answered a request (or refused it itself). */
  requestAnswered(entry: RequestLogEntry): void {
    if (this.done) return;
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (entry.refused) {
      this.addRefusal({ method: entry.method, path: entry.path, error: entry.refused.error, reason: entry.refused.reason });
    } else if (entry.status >= 100 && entry.status <= 599) {
      const path = cleanText(entry.path, REPORT_PATH_MAX);
      if (this.requests.length < REPORT_REQUESTS_MAX && this.fits(path.length)) {
        this.requests.push({ method: entry.method, path, status: entry.status, ms: ms(entry.ms) });
      } else this.dropped++;
    }
    this.touch();
  }

  /** Something the frame said about the render. */
  notice(n: RenderNotice): void {
    if (this.done) return;
    switch (n.type) {
      case "error": {
        const message = cleanText(n.message, REPORT_MESSAGE_MAX);
        this.addCounted(this.errors, `${n.kind}\n${message}\n${n.line}\n${n.column}`, REPORT_ERRORS_MAX, message.length, () => ({
          kind: n.kind,
          message,
          line: n.line,
          column: n.column,
          count: 1,
        }));
        break;
      }
      case "console": {
        // The report keeps console.error lines; the other levels are the editor's console alone.
        if (n.level !== "error") break;
        const message = cleanText(n.message, REPORT_MESSAGE_MAX);
        this.addCounted(this.console, message, REPORT_CONSOLE_MAX, message.length, () => ({ message, count: 1 }));
        break;
      }
      case "refusal":
        this.addRefusal(n);
        break;
      case "painted":
        if (n.id === this.waitingPaint) {
          this.waitingPaint = null;
          if (this.inFlight === 0) this.finish(true);
          else this.schedule();
        }
        return;
    }
    this.touch();
  }

  /** The document is gone before it settled: nothing is reported. */
  cancel(): void {
    this.done = true;
    clearTimeout(this.timer);
    clearTimeout(this.deadline);
  }

  private addRefusal(r: { method: string | null; path: string; error: string; reason: string }): void {
    const path = cleanText(r.path, REPORT_PATH_MAX);
    const reason = cleanText(r.reason, REPORT_REASON_MAX);
    const method = r.method !== null && /^[A-Z]{1,16}$/.test(r.method) ? r.method : null;
    const error = /^[a-z_]{1,64}$/.test(r.error) ? r.error : "refused";
    this.addCounted(this.refusals, `${method}\n${path}\n${error}`, REPORT_REFUSALS_MAX, path.length + reason.length, () => ({ method, path, error, reason, count: 1 }));
  }

  /** The same entry again counts once more; a new one takes room, if there is any. */
  private addCounted<T extends { count: number }>(into: Map<string, T>, key: string, max: number, chars: number, make: () => T): void {
    const seen = into.get(key);
    if (seen) {
      seen.count++;
      return;
    }
    if (into.size >= max || !this.fits(chars)) {
      this.dropped++;
      return;
    }
    into.set(key, make());
  }

  private fits(chars: number): boolean {
    if (this.text + chars > REPORT_TEXT_MAX) return false;
    this.text += chars;
    return true;
  }

  private touch(): void {
    this.lastActivity = this.now();
    // A request that starts while the paint is awaited means the dashboard is not done.
    if (this.inFlight > 0) this.waitingPaint = null;
    this.schedule();
  }

  private schedule(): void {
    if (this.done || !this.loaded || this.waitingPaint !== null) return;
    clearTimeout(this.timer);
    if (this.inFlight > 0) return;
    const quiet = this.options.quietMs ?? REPORT_QUIET_MS;
    const wait = Math.max(0, this.lastActivity + quiet - this.now());
    this.timer = setTimeout(() => {
      if (this.done || this.inFlight > 0) return;
      if (this.now() - this.lastActivity < quiet) {
        this.schedule();
        return;
      }
      const id = ++this.paintId;
      this.waitingPaint = id;
      this.options.requestPaint(id);
      this.timer = setTimeout(() => {
        if (this.waitingPaint === id) this.finish(true);
      }, this.options.paintWaitMs ?? PAINT_WAIT_MS);
    }, wait);
  }

  private finish(settled: boolean): void {
    if (this.done) return;
    this.cancel();
    this.options.onDone({
      page: this.options.page,
      settled,
      elapsedMs: ms(this.now() - this.started),
      errors: [...this.errors.values()],
      console: [...this.console.values()],
      refusals: [...this.refusals.values()],
      requests: [...this.requests],
      dropped: this.dropped,
    });
  }
}
