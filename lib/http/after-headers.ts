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
 * `serverListeners`: the request's and the response's listeners from before the framework saw them.
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

/** The methods the framework's compression and header patches replace on a response with wrappers. */
const WRAPPED = ["write", "end", "on", "writeHead", "setHeader", "flush"];

/** A wrapper's place, once nothing is wrapped: a response that is not compressed has nothing to flush. */
function nothing(): void {}

/**
 * Lets go of what the framework hung on the response and its request for a request it has
 * finished: its listeners (its request's abort signal, `after()` callbacks, which a route
 * answering this way must not use, and error handlers that hold its whole request context), its
 * request state, and the wrappers its compression and header patches put on the response, each
 * of which reaches its per-request context. Without this the connection keeps about 20 KB of it
 * alive for as long as the body lasts. `keep`: the listeners that were there before the framework.
 */
function detachFramework(response: ServerResponse, keep: readonly unknown[]): void {
  const kept = new Set(keep);
  const request = response.req as (ServerResponse["req"] & Record<symbol, unknown>) | undefined;
  for (const emitter of request ? [response, request] : [response]) {
    for (const event of emitter.eventNames()) {
      for (const raw of emitter.rawListeners(event)) {
        const listener = (raw as { listener?: unknown }).listener;
        if (!kept.has(raw) && !(listener && kept.has(listener))) emitter.removeListener(event, raw as () => void);
      }
    }
  }
  if (request) forgetRequestHeaders(request);
  // A compressed body goes through its wrappers; any other answer's wrappers only pass calls on to
  // the response's own methods, and are put back to them (the headers are sent: a header patch
  // has nothing left to patch). By assignment, as everything here is: see above.
  if (response.getHeader("content-encoding") === undefined) {
    const own = response as unknown as Record<string, unknown>;
    const proto = ServerResponse.prototype as unknown as Record<string, unknown>;
    for (const key of WRAPPED) {
      if (Object.prototype.hasOwnProperty.call(own, key)) own[key] = typeof proto[key] === "function" ? proto[key] : nothing;
    }
    settleHeaders(response);
  } else if (Object.prototype.hasOwnProperty.call(response, "setHeader")) {
    response.setHeader = ServerResponse.prototype.setHeader;
  }
}

/**
 * The request has been read: the route has what it needed of it. Its headers as the framework
 * parsed them (an object beside Node's raw list), the cookies it parsed from them, and the raw
 * list itself are kept by the request for as long as the connection is open, a browser's
 * kilobyte or so of them twice over. Anything that still asks is told of none. And the
 * connection's addresses, which its socket caches once asked for, are read anew if asked again.
 */
function forgetRequestHeaders(request: ServerResponse["req"] & Record<symbol, unknown>): void {
  if (FRAMEWORK_REQUEST_META in request) request[FRAMEWORK_REQUEST_META] = undefined;
  const parsed = Object.getOwnPropertySymbols(request).find((key) => key.description === "kHeaders");
  // Not null: Node would parse the raw list again.
  if (parsed) request[parsed] = {};
  if ("cookies" in request) (request as unknown as { cookies?: unknown }).cookies = undefined;
  request.rawHeaders = [];
  const socket = request.socket as unknown as { _peername?: unknown; _sockname?: unknown } | null;
  if (socket) {
    if (socket._peername !== undefined) socket._peername = undefined;
    if (socket._sockname !== undefined) socket._sockname = undefined;
  }
}

/** Where Node keeps a response's headers until they are sent (node:http's outgoing message). */
function outgoingHeadersKey(response: ServerResponse): symbol | undefined {
  return Object.getOwnPropertySymbols(response).find((key) => key.description === "kOutHeaders");
}

/**
 * The framework sets the status and headers and ends without writing them: Node would build the
 * status line at the first write, by concatenation, a rope of some fifty strings the response
 * keeps for as long as it is open (about 1.6 KB). Built now instead, kept as one flat string
 * (headers are latin1), and the headers themselves (an array per header, a dozen of them) let go:
 * once they are built nothing reads them, and no header can be set any more.
 */
function settleHeaders(response: ServerResponse): void {
  if (!response.headersSent) response.writeHead(response.statusCode);
  const sent = response as unknown as { _header?: unknown };
  if (typeof sent._header === "string") sent._header = Buffer.from(sent._header, "latin1").toString("latin1");
  const key = outgoingHeadersKey(response);
  // Node's own value for a response with no headers; by assignment, as above.
  if (key) (response as unknown as Record<symbol, unknown>)[key] = null;
}
