// What the live delivery's tests share.
import { EventEmitter } from "node:events";
import { EventStreamParser, type SseMessage } from "./sse";

/**
 * A Node response as the hub sees it: `write` answers false while `full`, as a socket past its
 * buffer does, and `drain` says when it has room again.
 */
export class SocketStandIn extends EventEmitter {
  readonly messages: SseMessage[] = [];
  readonly parser = new EventStreamParser((m) => this.messages.push(m));
  full = false;
  writes = 0;
  ended = false;
  destroyed = false;
  write(chunk: Uint8Array): boolean {
    this.writes++;
    this.parser.push(chunk);
    return !this.full;
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
    this.emit("close");
  }
  drain(): void {
    this.full = false;
    this.emit("drain");
  }
}
