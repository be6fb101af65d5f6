import "server-only";
import { HEARTBEAT_FRAME, openingFrame, reconnectFrame } from "./sse";

// The in-process registry of everyone watching a draft. The stream carries the latest snapshot,
// not a queue: each revision is framed once (by the caller) and the same bytes are handed to
// every watcher; a watcher is never sent a revision older than one it already has.
//
// Each watcher has a small queue of its own, emptied only as fast as its connection takes frames.
// The frames go out one of two ways: through the web stream the route returns (its internal
// buffer kept at zero, highWaterMark 0, so a frame leaves the queue only when the framework's pipe
// asks for more, which it does only as the socket drains), or straight to the Node response the
// stream was handed to (a frame leaves the queue when the last write did not fill the socket's
// buffer, or on its `drain`). The second costs a watcher its queue and a few listeners, where
// the first keeps a web stream, its pipe and the framework's whole request pending for the life
// of the stream. A watcher whose queue goes past its bound, or that takes nothing for `stallMs`,
// has stopped reading: it is dropped (its connection is torn down) instead of being buffered for.

export interface HubOptions {
  /** Comment lines sent to idle streams; at most 15 s keeps proxies from closing them. */
  heartbeatMs?: number;
  /** Frames a watcher may have waiting before it is dropped. */
  maxPendingFrames?: number;
  /** Bytes a watcher may have waiting (one frame of any size is always allowed). */
  maxPendingBytes?: number;
  /** A watcher that has had something waiting this long without taking it is dropped. */
  stallMs?: number;
  /** Reconnection delay suggested to clients. */
  retryMs?: number;
  /** Called on each heartbeat tick while anyone is watching. */
  onTick?: () => void;
  now?: () => number;
}

/**
 * The caps on open streams. Every map below holds entries only for open streams, so these caps
 * bound them all: at most `total` watchers (each with at most maxPendingBytes queued), and one
 * entry per watched draft, per address and per (draft, address) pair.
 */
interface WatchLimits {
  /** Streams to one draft from one address: one client cannot fill a draft for everyone else. */
  perDraftPerAddress: number;
  perAddress: number;
  /** Streams in this process; kept above `perAddress` so no single address can reach it. */
  total: number;
}

/** A refusal says nothing about why, so a refused watcher cannot count the others. */
type OpenResult = { ok: true; watch: Watch } | { ok: false };

/** The part of a Node `ServerResponse` a watcher's frames are written to. */
interface SocketResponse {
  write(chunk: Uint8Array): boolean;
  end(): unknown;
  destroy(): unknown;
  on(event: "drain" | "error", listener: () => void): unknown;
  once(event: "close", listener: () => void): unknown;
}

/** One open stream, as its route sees it. */
interface Watch {
  /** The stream as a web stream, made when first asked for; use it or `writeTo`, not both. */
  readonly stream: ReadableStream<Uint8Array>;
  /**
   * Writes the stream straight to a Node response whose headers are set, instead of through
   * `stream`. Frames published before this wait in the watcher's queue, within its bounds.
   */
  writeTo(response: SocketResponse): void;
  /**
   * Sends the draft as the client first sees it, unless it already has that revision (its
   * Last-Event-ID) or a newer one arrived while the row was being read.
   */
  start(revision: number, frame: () => Uint8Array, clientHas: number | null): void;
  close(): void;
}

interface Watcher {
  draftId: string;
  address: string;
  /** The newest revision queued or written to this watcher; 0 = none yet. */
  revision: number;
  queue: Uint8Array[];
  queuedBytes: number;
  /** Something has been waiting since (ms), or null when the queue is empty. */
  waitingSince: number | null;
  /** The connection asked for data and the queue was empty. */
  wantsData: boolean;
  /** Where frames are written; none until the route has chosen how the stream is sent. */
  sink: Sink | null;
  /** Written straight to its Node response (counted in `onSocket`). */
  direct: boolean;
  closed: boolean;
  /**
   * Closed before it had a sink: how its connection is to end once it has one. "reconnect"
   * sends what the queue holds (the retry hint last) first.
   */
  ending?: "close" | "drop" | "reconnect";
  /** Told once, whichever way the stream ends. */
  onEnd?: () => void;
}

interface HubStats {
  opened: number;
  closed: number;
  dropped: number;
  framesWritten: number;
}

interface Sink {
  /** Writes a frame; true when the connection can take another at once. */
  write(bytes: Uint8Array): boolean;
  /** Ends the stream after what has been written. */
  end(): void;
  /** Tears the connection down, freeing what it had buffered. */
  drop(): void;
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 1) - 1;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}

/**
 * Frames kept for reconnects, in all: a frame of 2 MiB of control characters is 12 MiB, and
 * without a bound every watched draft would keep one. Past it, frames are built per publish
 * (still once for all of a draft's watchers) and not kept.
 */
const HUB_FRAME_CACHE_BYTES = 64 * 1024 * 1024;
/** Callers a hub lets wait for a next revision at once; past it, a caller is answered at once and asks again. */
const HUB_WAITERS_MAX = 2_000;

const dropError = () => new DOMException("The watcher stopped reading and was dropped", "AbortError");

export class Hub {
  private readonly byDraft = new Map<string, Set<Watcher>>();
  private readonly byAddress = new Map<string, number>();
  /** Open streams per `${draftId} ${address}`. */
  private readonly byDraftAddress = new Map<string, number>();
  /**
   * Newest revision delivered per watched draft (one entry per watched draft), and its frame while
   * the frames kept stay under HUB_FRAME_CACHE_BYTES, so reconnects reuse it.
   */
  private readonly current = new Map<string, { revision: number; frame: Uint8Array | null }>();
  /** Callers waiting for a draft's next revision (an inline view following it over MCP), by draft. */
  private readonly waiters = new Map<string, Set<{ after: number; done: (revision: number | null) => void }>>();
  private waiting = 0;
  private currentBytes = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private count = 0;
  private direct = 0;
  private draining = false;
  private readonly opts: Required<Omit<HubOptions, "onTick">> & Pick<HubOptions, "onTick">;
  readonly stats: HubStats = { opened: 0, closed: 0, dropped: 0, framesWritten: 0 };

  constructor(options: HubOptions = {}) {
    const heartbeatMs = Math.min(options.heartbeatMs ?? 15_000, 15_000);
    this.opts = {
      heartbeatMs,
      maxPendingFrames: options.maxPendingFrames ?? 4,
      maxPendingBytes: options.maxPendingBytes ?? 4 * 1024 * 1024,
      stallMs: options.stallMs ?? Math.max(60_000, 4 * heartbeatMs),
      retryMs: options.retryMs ?? 2_000,
      onTick: options.onTick,
      now: options.now ?? Date.now,
    };
  }

  /** Registers a watcher at once, so nothing published while its draft is being read is missed. */
  open(draftId: string, address: string, limits: WatchLimits, onEnd?: () => void): OpenResult {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the watch's getter has its own `this`
    const hub = this;
    const pair = `${draftId} ${address}`;
    if (
      this.draining ||
      this.count >= limits.total ||
      (this.byAddress.get(address) ?? 0) >= limits.perAddress ||
      (this.byDraftAddress.get(pair) ?? 0) >= limits.perDraftPerAddress
    ) {
      return { ok: false };
    }

    const w: Watcher = {
      draftId,
      address,
      revision: 0,
      queue: [],
      queuedBytes: 0,
      waitingSince: null,
      wantsData: false,
      sink: null,
      direct: false,
      closed: false,
      onEnd,
    };
    let stream: ReadableStream<Uint8Array> | null = null;
    let watchers = this.byDraft.get(draftId);
    if (!watchers) this.byDraft.set(draftId, (watchers = new Set()));
    watchers.add(w);
    this.byAddress.set(address, (this.byAddress.get(address) ?? 0) + 1);
    this.byDraftAddress.set(pair, (this.byDraftAddress.get(pair) ?? 0) + 1);
    this.count++;
    this.stats.opened++;
    this.ensureTimer();
    // Something is written at once so the response headers go out and the client sees it open.
    this.deliver(w, openingFrame(this.opts.retryMs));

    return {
      ok: true,
      watch: {
        get stream() {
          return (stream ??= hub.webStream(w));
        },
        writeTo: (response) => this.writeTo(w, response),
        start: (revision, frame, clientHas) => {
          if (w.closed || revision <= w.revision) return;
          if (clientHas === revision) {
            w.revision = revision;
            return;
          }
          const bytes = this.frameFor(draftId, revision, frame);
          w.revision = revision;
          this.deliver(w, bytes);
        },
        close: () => this.end(w, "close"),
      },
    };
  }

  /**
   * Resolves with the first revision above `after` published here for the draft; null once `ms`
   * have passed, when `signal` aborts, when the hub closes, or at once when HUB_WAITERS_MAX
   * callers wait already. Register before reading the draft, so nothing published meanwhile is
   * missed.
   */
  nextRevision(draftId: string, after: number, ms: number, signal?: AbortSignal): Promise<number | null> {
    if (this.waiting >= HUB_WAITERS_MAX || signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      let set = this.waiters.get(draftId);
      if (!set) this.waiters.set(draftId, (set = new Set()));
      const waiters = set;
      let settled = false;
      const entry = {
        after,
        done: (revision: number | null) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener("abort", aborted);
          waiters.delete(entry);
          if (waiters.size === 0 && this.waiters.get(draftId) === waiters) this.waiters.delete(draftId);
          this.waiting--;
          resolve(revision);
        },
      };
      const aborted = () => entry.done(null);
      const timer = setTimeout(aborted, ms);
      signal?.addEventListener("abort", aborted, { once: true });
      waiters.add(entry);
      this.waiting++;
    });
  }

  /** Whether anyone here follows the draft: a watcher's stream or a caller waiting for its next revision. */
  followed(draftId: string): boolean {
    return (this.byDraft.get(draftId)?.size ?? 0) > 0 || this.waiters.has(draftId);
  }

  /** Hands one revision's frame to every watcher of the draft that does not have it yet. */
  publish(draftId: string, revision: number, frame: () => Uint8Array): number {
    const waiting = this.waiters.get(draftId);
    if (waiting) for (const w of [...waiting]) if (revision > w.after) w.done(revision);
    const watchers = this.byDraft.get(draftId);
    if (!watchers || watchers.size === 0) return 0;
    const bytes = this.frameFor(draftId, revision, frame);
    let delivered = 0;
    for (const w of [...watchers]) {
      if (w.revision >= revision) continue;
      w.revision = revision;
      if (this.deliver(w, bytes)) delivered++;
    }
    return delivered;
  }

  /** Ends every stream of a draft (deleted or expired); clients that reconnect get 404. */
  endDraft(draftId: string): number {
    const watchers = this.byDraft.get(draftId);
    if (!watchers) return 0;
    const n = watchers.size;
    for (const w of [...watchers]) this.end(w, "close");
    return n;
  }

  /** The newest revision this process has delivered for a draft, or 0. */
  knownRevision(draftId: string): number {
    return this.current.get(draftId)?.revision ?? 0;
  }

  subscriberCount(draftId: string): number {
    return this.byDraft.get(draftId)?.size ?? 0;
  }

  addressCount(address: string): number {
    return this.byAddress.get(address) ?? 0;
  }

  /** Entries in the per-address bookkeeping (for tests of its bounds). */
  bookkeepingSize(): { addresses: number; pairs: number; drafts: number } {
    return { addresses: this.byAddress.size, pairs: this.byDraftAddress.size, drafts: this.byDraft.size };
  }

  /** Every open stream in this process. */
  total(): number {
    return this.count;
  }

  /** Open streams written straight to their Node responses; the rest go through a web stream. */
  onSocket(): number {
    return this.direct;
  }

  watchedDrafts(): string[] {
    return [...this.byDraft.keys()];
  }

  /** Whether the hub has been told to send everyone elsewhere; it then opens no stream. */
  get closing(): boolean {
    return this.draining;
  }

  /**
   * Ends every stream after what it has waiting and a `retry:` hint, so its client reconnects
   * after about `retryMs` (spread over ±50 %, so a crowd does not return at one instant) to
   * whichever instance the proxy picks, and resumes with Last-Event-ID. Opens nothing afterwards.
   */
  reconnectAll(retryMs = 1_000): number {
    this.draining = true;
    let n = 0;
    for (const watchers of [...this.byDraft.values()]) {
      for (const w of [...watchers]) {
        const sink = w.sink;
        const waiting = w.queue;
        this.remove(w);
        n++;
        waiting.push(reconnectFrame(Math.round(retryMs * (0.5 + Math.random()))));
        if (!sink) {
          // The route has not chosen its sink yet: the frames go out once it has.
          w.queue = waiting;
          w.ending = "reconnect";
          continue;
        }
        try {
          // Past the queue's bounds on purpose: these are the last bytes, and the socket takes them or closes.
          for (const frame of waiting) sink.write(frame);
          sink.end();
        } catch {
          // Already closed or errored: the client is gone.
        }
      }
    }
    this.stopTimer();
    return n;
  }

  /** Ends every stream and stops the heartbeat. */
  close(): void {
    for (const set of [...this.waiters.values()]) for (const w of [...set]) w.done(null);
    for (const draftId of [...this.byDraft.keys()]) this.endDraft(draftId);
    this.stopTimer();
  }

  private frameFor(draftId: string, revision: number, frame: () => Uint8Array): Uint8Array {
    const cached = this.current.get(draftId);
    if (cached && cached.revision === revision && cached.frame) return cached.frame;
    const bytes = frame();
    if (!cached || cached.revision < revision) {
      this.forget(draftId);
      const keep = this.currentBytes + bytes.byteLength <= HUB_FRAME_CACHE_BYTES;
      if (keep) this.currentBytes += bytes.byteLength;
      this.current.set(draftId, { revision, frame: keep ? bytes : null });
    }
    return bytes;
  }

  private forget(draftId: string): void {
    const cached = this.current.get(draftId);
    if (cached?.frame) this.currentBytes -= cached.frame.byteLength;
    this.current.delete(draftId);
  }

  /** The stream's web form: the framework pipes it to the response. */
  private webStream(w: Watcher): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) =>
          this.attach(w, {
            write: (bytes) => {
              controller.enqueue(bytes);
              // The pipe asks again (pull) once the socket has taken this.
              return false;
            },
            end: () => controller.close(),
            drop: () => controller.error(dropError()),
          }),
        pull: () => this.pump(w),
        cancel: () => this.remove(w),
      },
      { highWaterMark: 0 },
    );
  }

  private writeTo(w: Watcher, res: SocketResponse): void {
    // The client going away ends the watcher; a write error is followed by `close` as well.
    res.once("close", () => this.remove(w));
    res.on("error", () => this.remove(w));
    res.on("drain", () => this.pump(w));
    this.attach(w, {
      write: (bytes) => res.write(bytes),
      end: () => void res.end(),
      drop: () => void res.destroy(),
    });
    if (w.closed) return;
    w.direct = true;
    this.direct++;
    this.pump(w);
  }

  private attach(w: Watcher, sink: Sink): void {
    if (w.sink) throw new Error("a watch is sent one way: its web stream or a Node response");
    w.sink = sink;
    if (!w.closed) return;
    // Ended while the route was still deciding how to send it.
    try {
      if (w.ending === "drop") sink.drop();
      else {
        if (w.ending === "reconnect") for (const frame of w.queue) sink.write(frame);
        sink.end();
      }
    } catch {
      // The client is gone already.
    }
    w.queue = [];
  }

  /** Queues a frame, or writes it straight through when the connection is already waiting. */
  private deliver(w: Watcher, bytes: Uint8Array): boolean {
    if (w.closed) return false;
    if (w.wantsData && w.queue.length === 0) {
      w.wantsData = false;
      return this.write(w, bytes);
    }
    const over =
      w.queue.length >= this.opts.maxPendingFrames ||
      (w.queue.length > 0 && w.queuedBytes + bytes.byteLength > this.opts.maxPendingBytes);
    if (over) {
      this.end(w, "drop");
      return false;
    }
    w.queue.push(bytes);
    w.queuedBytes += bytes.byteLength;
    w.waitingSince ??= this.opts.now();
    return true;
  }

  /** The connection can take a frame. */
  private pump(w: Watcher): void {
    if (w.closed) return;
    const next = w.queue.shift();
    if (!next) {
      w.wantsData = true;
      return;
    }
    w.queuedBytes -= next.byteLength;
    w.waitingSince = w.queue.length > 0 ? this.opts.now() : null;
    this.write(w, next);
  }

  private write(w: Watcher, bytes: Uint8Array): boolean {
    try {
      // Never called without a sink: until there is one, nothing asks for data.
      const more = w.sink!.write(bytes);
      this.stats.framesWritten++;
      // At most maxPendingFrames deep: each call takes one frame off the queue.
      if (more) this.pump(w);
      return true;
    } catch {
      // The stream was closed or errored under us (the connection went away).
      this.remove(w);
      return false;
    }
  }

  private end(w: Watcher, how: "close" | "drop"): void {
    if (w.closed) return;
    const sink = w.sink;
    this.remove(w);
    if (how === "drop") this.stats.dropped++;
    if (!sink) {
      w.ending = how;
      return;
    }
    try {
      // A dropped watcher's connection is torn down (an error aborts the response and destroys
      // the socket, freeing what it had buffered); a finished draft's stream ends normally.
      if (how === "drop") sink.drop();
      else sink.end();
    } catch {
      // Already closed or errored.
    }
  }

  private remove(w: Watcher): void {
    if (w.closed) return;
    w.closed = true;
    if (w.direct) this.direct--;
    w.queue = [];
    w.queuedBytes = 0;
    this.count--;
    this.stats.closed++;
    const watchers = this.byDraft.get(w.draftId);
    if (watchers) {
      watchers.delete(w);
      if (watchers.size === 0) {
        this.byDraft.delete(w.draftId);
        this.forget(w.draftId);
      }
    }
    decrement(this.byAddress, w.address);
    decrement(this.byDraftAddress, `${w.draftId} ${w.address}`);
    if (this.count === 0) this.stopTimer();
    w.onEnd?.();
  }

  private ensureTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.opts.heartbeatMs);
    this.timer.unref?.();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Heartbeats for idle streams; drops streams that have taken nothing for too long. */
  tick(): void {
    const now = this.opts.now();
    for (const watchers of [...this.byDraft.values()]) {
      for (const w of [...watchers]) {
        if (w.waitingSince !== null && now - w.waitingSince >= this.opts.stallMs) this.end(w, "drop");
        else if (w.queue.length === 0) this.deliver(w, HEARTBEAT_FRAME);
      }
    }
    this.opts.onTick?.();
  }
}
