import "server-only";

// One open stream. Each watcher is one object of this class: its state, and the methods its route
// calls (the Watch) on the prototype, so a watcher costs no closures of its own. Its frames go out
// one of two ways: straight to the Node response the route was handed (a frame leaves the queue
// when the last write did not fill the socket's buffer, or on its `drain`), which costs the
// watcher its queue and three listeners shared by every watcher; or, where there is no Node
// response (tests, another server), through a web stream whose internal buffer is kept at zero
// (highWaterMark 0), so a frame leaves the queue only when the framework's pipe asks for more.
// A watcher whose queue goes past its bound, or that takes nothing for `stallMs`, has stopped
// reading: it is dropped (its connection is torn down) instead of being buffered for.

/** The part of a Node `ServerResponse` a watcher's frames are written to. */
export interface SocketResponse {
  write(chunk: Uint8Array): boolean;
  end(): unknown;
  destroy(): unknown;
  on(event: "drain" | "error" | "close", listener: (this: SocketResponse) => void): unknown;
}

/** One open stream, as its route sees it. */
export interface Watch {
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

/** What every watcher of a hub shares: its bounds, its counts, and where a watcher goes when it ends. */
export interface WatcherHost {
  readonly maxPendingFrames: number;
  readonly maxPendingBytes: number;
  now(): number;
  readonly stats: { dropped: number; framesWritten: number };
  /** The revision's frame, built once for all of the draft's watchers. */
  frameFor(draftId: string, revision: number, frame: () => Uint8Array): Uint8Array;
  /** The watcher has ended: it leaves the registry and its place under the caps is free. */
  released(w: Watcher): void;
  /** Its frames now go straight to a Node response (counted while it is open). */
  direct(delta: 1 | -1): void;
}

/** How a watcher closed before its route chose where its frames go ends its connection once it has. */
type Ending = "close" | "drop" | "reconnect";

const dropError = () => new DOMException("The watcher stopped reading and was dropped", "AbortError");

/** The watcher a Node response carries, for the listeners every watcher shares. */
const WATCHER = Symbol("watcher");
type Carrier = SocketResponse & { [WATCHER]?: Watcher };

// One of each for every watcher: EventEmitter calls a listener with the response as `this`.
function onDrain(this: Carrier): void {
  this[WATCHER]?.pump();
}
function onGone(this: Carrier): void {
  // A write error is followed by `close` as well; either ends the watcher, once.
  this[WATCHER]?.release();
}

export class Watcher implements Watch {
  /** The newest revision queued or written to this watcher; 0 = none yet. */
  revision = 0;
  private queue: Uint8Array[] = [];
  private queuedBytes = 0;
  /** Something has been waiting since (ms), or null when the queue is empty. */
  waitingSince: number | null = null;
  /** The connection asked for data and the queue was empty. */
  private wantsData = false;
  private response: Carrier | null = null;
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  private web: ReadableStream<Uint8Array> | null = null;
  closed = false;
  private ending: Ending | null = null;

  constructor(
    private readonly host: WatcherHost,
    readonly draftId: string,
    readonly address: string,
    /** Told once, whichever way the stream ends. */
    private readonly onEnd: (() => void) | undefined,
  ) {}

  get stream(): ReadableStream<Uint8Array> {
    return (this.web ??= this.webStream());
  }

  writeTo(response: SocketResponse): void {
    this.claim();
    const res = response as Carrier;
    res[WATCHER] = this;
    res.on("close", onGone);
    res.on("error", onGone);
    res.on("drain", onDrain);
    this.response = res;
    if (this.settleEnded()) return;
    this.host.direct(1);
    this.pump();
  }

  start(revision: number, frame: () => Uint8Array, clientHas: number | null): void {
    if (this.closed || revision <= this.revision) return;
    if (clientHas === revision) {
      this.revision = revision;
      return;
    }
    const bytes = this.host.frameFor(this.draftId, revision, frame);
    this.revision = revision;
    this.deliver(bytes);
  }

  close(): void {
    this.end("close");
  }

  /** Queues a frame, or writes it straight through when the connection is already waiting. */
  deliver(bytes: Uint8Array): boolean {
    if (this.closed) return false;
    if (this.wantsData && this.queue.length === 0) {
      this.wantsData = false;
      return this.write(bytes);
    }
    const over =
      this.queue.length >= this.host.maxPendingFrames ||
      (this.queue.length > 0 && this.queuedBytes + bytes.byteLength > this.host.maxPendingBytes);
    if (over) {
      this.end("drop");
      return false;
    }
    this.queue.push(bytes);
    this.queuedBytes += bytes.byteLength;
    this.waitingSince ??= this.host.now();
    return true;
  }

  idle(): boolean {
    return this.queue.length === 0;
  }

  /** The connection can take a frame. */
  pump(): void {
    if (this.closed) return;
    const next = this.queue.shift();
    if (!next) {
      this.wantsData = true;
      return;
    }
    this.queuedBytes -= next.byteLength;
    // An emptied array keeps the room it grew to (17 places at the first push): a new empty one has none.
    if (this.queue.length === 0) this.queue = [];
    this.waitingSince = this.queue.length > 0 ? this.host.now() : null;
    this.write(next);
  }

  /** Ends the stream after what it has; a dropped one has its connection torn down instead. */
  end(how: "close" | "drop"): void {
    if (this.closed) return;
    const attached = this.attached();
    this.release();
    if (how === "drop") this.host.stats.dropped++;
    if (!attached) {
      this.ending = how;
      return;
    }
    try {
      // A dropped watcher's connection is torn down (an error aborts the response and destroys
      // the socket, freeing what it had buffered); a finished draft's stream ends normally.
      if (how === "drop") this.sinkDrop();
      else this.sinkEnd();
    } catch {
      // Already closed or errored.
    }
  }

  /** Ends the stream after what it has waiting and `last` (past the queue's bounds on purpose). */
  endWith(last: Uint8Array): void {
    if (this.closed) return;
    const attached = this.attached();
    const waiting = this.queue;
    waiting.push(last);
    this.release();
    if (!attached) {
      // The route has not chosen where the frames go yet: they go out once it has.
      this.queue = waiting;
      this.ending = "reconnect";
      return;
    }
    try {
      // These are the last bytes: the socket takes them or closes.
      for (const frame of waiting) this.sinkWrite(frame);
      this.sinkEnd();
    } catch {
      // Already closed or errored: the client is gone.
    }
  }

  /** Forgets the watcher: out of the registry, nothing kept for it. */
  release(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.response) this.host.direct(-1);
    this.queue = [];
    this.queuedBytes = 0;
    this.waitingSince = null;
    this.host.released(this);
    this.onEnd?.();
  }

  private webStream(): ReadableStream<Uint8Array> {
    this.claim();
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          this.settleEnded();
        },
        pull: () => this.pump(),
        cancel: () => this.release(),
      },
      { highWaterMark: 0 },
    );
  }

  private claim(): void {
    if (this.attached() || this.web) throw new Error("a watch is sent one way: its web stream or a Node response");
  }

  private attached(): boolean {
    return this.response !== null || this.controller !== null;
  }

  /** Ended while the route was still deciding how to send it: ends the connection as it was to end. */
  private settleEnded(): boolean {
    if (!this.closed) return false;
    try {
      if (this.ending === "drop") this.sinkDrop();
      else {
        if (this.ending === "reconnect") for (const frame of this.queue) this.sinkWrite(frame);
        this.sinkEnd();
      }
    } catch {
      // The client is gone already.
    }
    this.queue = [];
    return true;
  }

  private write(bytes: Uint8Array): boolean {
    try {
      const more = this.sinkWrite(bytes);
      this.host.stats.framesWritten++;
      // At most maxPendingFrames deep: each call takes one frame off the queue.
      if (more) this.pump();
      return true;
    } catch {
      // The stream was closed or errored under us (the connection went away).
      this.release();
      return false;
    }
  }

  /** Writes a frame; true when the connection can take another at once. Never called before there is a sink. */
  private sinkWrite(bytes: Uint8Array): boolean {
    if (this.response) return this.response.write(bytes);
    this.controller!.enqueue(bytes);
    // The pipe asks again (pull) once the socket has taken this.
    return false;
  }

  private sinkEnd(): void {
    if (this.response) this.response.end();
    else this.controller!.close();
  }

  private sinkDrop(): void {
    if (this.response) this.response.destroy();
    else this.controller!.error(dropError());
  }
}
