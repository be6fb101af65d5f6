import "server-only";
import { ServerResponse } from "node:http";

// A body written to the Node response after the framework has answered the request with its
// status and headers. The framework keeps everything it made for a request (its web request and
// response, the pipe of the body, the promises awaiting it) until the body ends; for an event
// stream that is the whole life of the watcher. Answering with no body ends the framework's part
// at once, and the route writes the body itself, through the same response.

/** What a route writing its own body does with the response once the framework has set its headers. */
export interface BodyWriter {
  /** Runs where the framework would have ended the response: the headers are set, the body is the route's to write and end. */
  begin(response: ServerResponse): void;
  /** The framework answered otherwise (another status, a body of its own), or the client went first. */
  abandon(): void;
}

/** Where the framework keeps its state of a request, on the Node request (next/dist/server/request-meta). */
const FRAMEWORK_REQUEST_META = Symbol.for("NextInternalRequestMeta");

/**
 * Catches the framework's `end()` of a bodiless answer: the framework has copied the route's
 * status and headers to the response by then and considers the request answered, so everything
 * it keeps per request can go, while the connection stays open for the route's body. Any other
 * end (a body, another status: the framework answering an error of its own) goes through.
 * `serverListeners`: the response's `close` listeners from before the framework saw it.
 */
export function writeBodyAfterHeaders(response: ServerResponse, status: number, writer: BodyWriter, serverListeners: readonly unknown[] = []): void {
  // Possibly a wrapper of the response's own (compression sets one). Put back by assignment, as
  // everything here is: a `delete` turns the object's properties into a slow dictionary of a few KB.
  const end = response.end;
  let settled = false;
  const restore = () => {
    response.end = end;
  };
  const gone = () => {
    if (settled) return;
    settled = true;
    restore();
    writer.abandon();
  };
  response.once("close", gone);
  response.end = function (this: ServerResponse, ...args: unknown[]) {
    response.off("close", gone);
    restore();
    if (settled) return (end as (...a: unknown[]) => ServerResponse).apply(response, args);
    settled = true;
    if (args.length > 0 || response.statusCode !== status) {
      writer.abandon();
      return (end as (...a: unknown[]) => ServerResponse).apply(response, args);
    }
    detachFramework(response, [...serverListeners, gone]);
    writer.begin(response);
    return response;
  } as ServerResponse["end"];
}

/**
 * Lets go of what the framework hung on the response and its request for a request it has
 * finished: its `close` listeners (its request's abort signal, `after()` callbacks, which a route
 * answering this way must not use), its request state and its header patch, each of which
 * reaches its whole per-request context. Without this the connection keeps about 20 KB of it
 * alive for as long as the body lasts.
 */
function detachFramework(response: ServerResponse, keep: readonly unknown[]): void {
  for (const listener of response.listeners("close")) {
    if (!keep.includes(listener)) response.off("close", listener as () => void);
  }
  const request = response.req as unknown as Record<symbol, unknown> | undefined;
  if (request && FRAMEWORK_REQUEST_META in request) request[FRAMEWORK_REQUEST_META] = undefined;
  // The headers are sent: setting one now throws whichever function does it.
  if (Object.prototype.hasOwnProperty.call(response, "setHeader")) response.setHeader = ServerResponse.prototype.setHeader;
}
