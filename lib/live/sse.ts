import "server-only";
import type { DraftEvent } from "@/lib/contract/playground";

// Server-sent events framing for the draft stream, and a decoder that follows the HTML
// standard's event-stream parsing rules (used by the tests and the benchmark to read the
// stream exactly as a browser's EventSource would).
//
// Why the HTML cannot break the framing: the event's data is one JSON text on one `data:` line.
// JSON.stringify escapes every control character, CR and LF included, inside strings, so the
// line holds no CR or LF (the only line terminators of the format) and text such as
// "\n\nevent: x" inside the HTML stays inside the string. U+2028 and U+2029 are not line
// terminators here. Lone surrogates are escaped as \uXXXX, so they survive the UTF-8 encoding.

const encoder = new TextEncoder();

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  // The stream is never stored by a cache and never rewritten (compressed, buffered) in transit.
  "cache-control": "no-cache, no-store, no-transform",
  "x-accel-buffering": "no",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/** One `draft` event; `id:` is the revision, so a reconnecting client reports what it has. */
export function draftFrame(event: DraftEvent): Uint8Array {
  const data = JSON.stringify({ revision: event.revision, scenario: event.scenario, examples: event.examples, dash: event.dash, html: event.html });
  return encoder.encode(`id: ${event.revision}\nevent: draft\ndata: ${data}\n\n`);
}

/** A comment line: ignored by clients, keeps proxies and the connection alive. */
export function commentFrame(text: string): Uint8Array {
  return encoder.encode(`: ${text.replace(/[\r\n]/g, " ")}\n\n`);
}

export const HEARTBEAT_FRAME = commentFrame("hb");

/** Opens the stream: flushes the headers at once and sets the client's reconnection delay. */
export function openingFrame(retryMs: number): Uint8Array {
  return encoder.encode(`retry: ${Math.max(0, Math.floor(retryMs))}\n: open\n\n`);
}

/** Ends a stream on purpose: the client is to reconnect after `retryMs` (to another instance). */
export function reconnectFrame(retryMs: number): Uint8Array {
  return encoder.encode(`retry: ${Math.max(0, Math.floor(retryMs))}\n: reconnect\n\n`);
}

/** `Last-Event-ID` as a revision, or null when it is absent or not a plain revision number. */
export function parseLastEventId(value: string | null): number | null {
  if (value === null || !/^[0-9]{1,15}$/.test(value)) return null;
  return Number(value);
}

export interface SseMessage {
  type: string;
  data: string;
  lastEventId: string;
}

/**
 * The event-stream interpretation algorithm of the HTML standard (§9.2.6): UTF-8 decoding with
 * a leading BOM dropped, lines ended by CRLF, LF or CR (also across chunk boundaries), fields
 * `event`, `data`, `id` (ignored when it contains NUL) and `retry`, comments, and dispatch on a
 * blank line. A message without any `data` line is not dispatched.
 */
export class EventStreamParser {
  private readonly decoder = new TextDecoder("utf-8");
  private buffer = "";
  private sawFirstChunk = false;
  private pendingCR = false;
  private eventType = "";
  private data = "";
  lastEventId = "";
  retry: number | null = null;
  comments = 0;

  constructor(private readonly onMessage: (message: SseMessage) => void) {}

  push(chunk: Uint8Array | string): void {
    let text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    if (!this.sawFirstChunk && text.length > 0) {
      this.sawFirstChunk = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CR that ended the previous chunk already ended its line; a LF right after it belongs to it.
    if (this.pendingCR && text.startsWith("\n")) text = text.slice(1);
    this.pendingCR = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buffer.slice(start, i));
      if (c === 13) {
        if (i + 1 < this.buffer.length) {
          if (this.buffer.charCodeAt(i + 1) === 10) i++;
        } else {
          this.pendingCR = true;
        }
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
  }

  private line(line: string): void {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) {
      this.comments++;
      return;
    }
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        this.eventType = value;
        break;
      case "data":
        this.data += `${value}\n`;
        break;
      case "id":
        if (!value.includes("\u0000")) this.lastEventId = value;
        break;
      case "retry":
        if (/^[0-9]+$/.test(value)) this.retry = Number(value);
        break;
    }
  }

  private dispatch(): void {
    const type = this.eventType || "message";
    const buffered = this.data;
    this.eventType = "";
    this.data = "";
    if (buffered === "") return;
    this.onMessage({ type, data: buffered.endsWith("\n") ? buffered.slice(0, -1) : buffered, lastEventId: this.lastEventId });
  }
}
