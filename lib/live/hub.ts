import "server-only";
import { Registry, type WatchLimits } from "./registry";
import { HEARTBEAT_FRAME, openingFrame, reconnectFrame } from "./sse";
import { Waiters } from "./waiters";
import { Watcher, type Watch, type WatcherHost } from "./watchers";

// Everyone watching a draft in this process. The stream carries the latest snapshot, not a
// queue: each revision is framed once (by the caller) and the same bytes are handed to every
// watcher; a watcher is never sent a revision older than one it already has. The watchers
// (watchers.ts) are registered by draft (registry.ts); one heartbeat timer serves them all, and
// callers waiting for a next revision without a stream are kept apart (waiters.ts).

/** The heartbeat's timer, injectable so tests can tick it. */
export interface HeartbeatTimer {
  start(tick: () => void, ms: number): unknown;
  stop(handle: unknown): void;
}

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
  timer?: HeartbeatTimer;
}

/** A refusal says nothing about why, so a refused watcher cannot count the others. */
type OpenResult = { ok: true; watch: Watch } | { ok: false };

interface HubStats {
  opened: number;
  closed: number;
  dropped: number;
  framesWritten: number;
}

/**
 * Frames kept for reconnects, in all: a frame of 2 MiB of control characters is 12 MiB, and
 * without a bound every watched draft would keep one. Past it, frames are built per publish
 * (still once for all of a draft's watchers) and not kept.
 */
const HUB_FRAME_CACHE_BYTES = 64 * 1024 * 1024;

const intervalTimer: HeartbeatTimer = {
  start(tick, ms) {
    const handle = setInterval(tick, ms);
    handle.unref?.();
    return handle;
  },
  stop: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

export class Hub implements WatcherHost {
  private readonly registry = new Registry<Watcher>();
  private readonly waiters = new Waiters();
  /**
   * Newest revision delivered per watched draft (one entry per watched draft), and its frame while
   * the frames kept stay under HUB_FRAME_CACHE_BYTES, so reconnects reuse it.
   */
  private readonly current = new Map<string, { revision: number; frame: Uint8Array | null }>();
  private currentBytes = 0;
  private timer: unknown = null;
  private onSockets = 0;
  private draining = false;
  readonly maxPendingFrames: number;
  readonly maxPendingBytes: number;
  private readonly heartbeatMs: number;
  private readonly stallMs: number;
  private readonly retryMs: number;
  private readonly onTick?: () => void;
  private readonly clock: () => number;
  private readonly heartbeat: HeartbeatTimer;
  readonly stats: HubStats = { opened: 0, closed: 0, dropped: 0, framesWritten: 0 };

  constructor(options: HubOptions = {}) {
    this.heartbeatMs = Math.min(options.heartbeatMs ?? 15_000, 15_000);
    this.maxPendingFrames = options.maxPendingFrames ?? 4;
    this.maxPendingBytes = options.maxPendingBytes ?? 4 * 1024 * 1024;
    this.stallMs = options.stallMs ?? Math.max(60_000, 4 * this.heartbeatMs);
    this.retryMs = options.retryMs ?? 2_000;
    this.onTick = options.onTick;
    this.clock = options.now ?? Date.now;
    this.heartbeat = options.timer ?? intervalTimer;
  }

  now(): number {
    return this.clock();
  }

  /** Registers a watcher at once, so nothing published while its draft is being read is missed. */
  open(draftId: string, address: string, limits: WatchLimits, onEnd?: () => void): OpenResult {
    if (this.draining || !this.registry.admits(draftId, address, limits)) return { ok: false };
    const w = new Watcher(this, draftId, address, onEnd);
    this.registry.add(w);
    this.stats.opened++;
    this.timer ??= this.heartbeat.start(() => this.tick(), this.heartbeatMs);
    // Something is written at once so the response headers go out and the client sees it open.
    w.deliver(openingFrame(this.retryMs));
    return { ok: true, watch: w };
  }

  /**
   * Resolves with the first revision above `after` published here for the draft; null once `ms`
   * have passed, when `signal` aborts, when the hub closes, or at once when too many callers wait
   * already. Register before reading the draft, so nothing published meanwhile is missed.
   */
  nextRevision(draftId: string, after: number, ms: number, signal?: AbortSignal): Promise<number | null> {
    return this.waiters.next(draftId, after, ms, signal);
  }

  /** Whether anyone here follows the draft: a watcher's stream or a caller waiting for its next revision. */
  followed(draftId: string): boolean {
    return this.registry.watching(draftId) > 0 || this.waiters.has(draftId);
  }

  /** Hands one revision's frame to every watcher of the draft that does not have it yet. */
  publish(draftId: string, revision: number, frame: () => Uint8Array): number {
    this.waiters.wake(draftId, revision);
    const watchers = this.registry.of(draftId);
    if (!watchers || watchers.size === 0) return 0;
    const bytes = this.frameFor(draftId, revision, frame);
    let delivered = 0;
    for (const w of watchers) {
      if (w.revision >= revision) continue;
      w.revision = revision;
      if (w.deliver(bytes)) delivered++;
    }
    return delivered;
  }

  /** Ends every stream of a draft (deleted or expired); clients that reconnect get 404. */
  endDraft(draftId: string): number {
    const watchers = this.registry.of(draftId);
    if (!watchers) return 0;
    const n = watchers.size;
    for (const w of watchers) w.end("close");
    return n;
  }

  /** The newest revision this process has delivered for a draft, or 0. */
  knownRevision(draftId: string): number {
    return this.current.get(draftId)?.revision ?? 0;
  }

  subscriberCount(draftId: string): number {
    return this.registry.watching(draftId);
  }

  addressCount(address: string): number {
    return this.registry.fromAddress(address);
  }

  /** Entries in the per-address bookkeeping (for tests of its bounds). */
  bookkeepingSize(): { addresses: number; pairs: number; drafts: number } {
    return this.registry.bookkeepingSize();
  }

  /** Every open stream in this process. */
  total(): number {
    return this.registry.size();
  }

  /** Open streams written straight to their Node responses; the rest go through a web stream. */
  onSocket(): number {
    return this.onSockets;
  }

  watchedDrafts(): string[] {
    return this.registry.drafts();
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
    for (const w of [...this.registry.all()]) {
      w.endWith(reconnectFrame(Math.round(retryMs * (0.5 + Math.random()))));
      n++;
    }
    this.stopTimer();
    return n;
  }

  /** Ends every stream and stops the heartbeat. */
  close(): void {
    this.waiters.closeAll();
    for (const draftId of this.registry.drafts()) this.endDraft(draftId);
    this.stopTimer();
  }

  /** Heartbeats for idle streams; drops streams that have taken nothing for too long. */
  tick(): void {
    const now = this.clock();
    for (const w of this.registry.all()) {
      if (w.waitingSince !== null && now - w.waitingSince >= this.stallMs) w.end("drop");
      else if (w.idle()) w.deliver(HEARTBEAT_FRAME);
    }
    this.onTick?.();
  }

  frameFor(draftId: string, revision: number, frame: () => Uint8Array): Uint8Array {
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

  released(w: Watcher): void {
    this.stats.closed++;
    if (this.registry.delete(w)) this.forget(w.draftId);
    if (this.registry.size() === 0) this.stopTimer();
  }

  direct(delta: 1 | -1): void {
    this.onSockets += delta;
  }

  private forget(draftId: string): void {
    const cached = this.current.get(draftId);
    if (cached?.frame) this.currentBytes -= cached.frame.byteLength;
    this.current.delete(draftId);
  }

  private stopTimer(): void {
    if (this.timer !== null) this.heartbeat.stop(this.timer);
    this.timer = null;
  }
}
