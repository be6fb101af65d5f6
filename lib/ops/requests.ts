import "server-only";
import { randomUUID } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { writeBodyAfterHeaders, type BodyWriter } from "@/lib/http/after-headers";
import { REQUEST_ID_HEADER } from "@/lib/http/server-log";
import { enterRequestScope, type Logger } from "./log";
import type { Metrics } from "./metrics";
import type { RouteTemplate } from "./route-template";

// Every request the production server accepts passes the HTTP server's request-start channel
// before the framework sees it; the framework's server is its own, so this is the one place all
// of them can be timed, counted and logged. Each gets a request id (a well-formed one from the
// proxy in front is kept, so its logs and ours join), sent back as x-request-id, and one log line
// when its answer ends or its client goes away: method, route template, status, duration. The
// URL is never logged: draft ids and write tokens are in paths, secrets in query strings. It is
// also the one place a route can be told its Node response (an event stream writes to it).

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;
/**
 * Names a GET request's Node response to the route handler, which sees only a web Request built
 * from the Node request's headers. Set on every GET, over anything the client sent, so a client
 * can name no response but its own.
 */
const RESPONSE_TICKET_HEADER = "x-dd-response-ticket";

export interface RequestEdge {
  /** Requests whose answers have not ended, event streams included. */
  inFlight(): number;
  /** Resolves once no request is in flight. */
  idle(): Promise<void>;
  /** Stops accepting connections; requests already in flight go on, each answered with Connection: close. */
  stopAccepting(): void;
  /** Tears down whatever connections remain. */
  destroyConnections(): void;
  /**
   * For a route that answers `request` with `status` and no body, then writes the body to the
   * Node response itself, so the framework's request ends at once instead of lasting as long as
   * the body (an event stream). False when the request did not come through this server's edge
   * (the tests' adapters, another server): the route answers with its body then.
   */
  writeBodyAfterHeaders(request: Request, status: number, writer: BodyWriter): boolean;
}

/** What a request's log line needs when its answer ends, kept on its response until then. */
interface RequestLog {
  started: number;
  id: string;
  ticket: string | undefined;
}
const REQUEST_LOG = Symbol("request log");
type Logged = ServerResponse & { [REQUEST_LOG]?: RequestLog };

interface Started {
  request: IncomingMessage;
  response: ServerResponse;
  server?: Server;
}

function listenersOf(...emitters: (IncomingMessage | ServerResponse)[]): unknown[] {
  return emitters.flatMap((e) => e.eventNames().flatMap((name) => e.rawListeners(name)));
}

export function installRequestEdge(deps: { log: Logger; metrics: Metrics; template: RouteTemplate }): RequestEdge {
  const servers = new Set<Server>();
  const open = new Set<ServerResponse>();
  /** Each GET's response, and the listeners on it and its request from before the framework saw them (this edge's and Node's). */
  const byTicket = new Map<string, { response: ServerResponse; serverListeners: unknown[] }>();
  let tickets = 0;
  let waiters: (() => void)[] = [];
  let closing = false;

  // One listener for every request, with what it logs on the response: an open event stream
  // lasts for hours, and a closure and a once-wrapper of its own would be kept all that time.
  function closed(this: Logged): void {
    finished(this);
  }
  function finished(response: Logged): void {
    const log = response[REQUEST_LOG];
    if (!log) return;
    response[REQUEST_LOG] = undefined;
    const request = response.req;
    open.delete(response);
    if (log.ticket !== undefined) byTicket.delete(log.ticket);
    const seconds = (performance.now() - log.started) / 1000;
    const method = request.method ?? "GET";
    const url = request.url ?? "/";
    const q = url.indexOf("?");
    const route = deps.template(q === -1 ? url : url.slice(0, q));
    const status = response.statusCode;
    deps.metrics.request(method, route, status, seconds);
    // The stand-ins' traffic is this server calling itself on the connectors' behalf: noise
    // beside the requests people and agents make, so it shows only at debug.
    const level = route === "/stand-ins" || route.startsWith("/stand-ins/") ? "debug" : "info";
    deps.log[level]("request", {
      requestId: log.id,
      method,
      route,
      status,
      durationMs: Math.round(seconds * 10_000) / 10,
      ...(response.writableFinished ? {} : { aborted: true }),
    });
    if (open.size === 0) {
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
    }
  }

  diagnostics.subscribe("http.server.request.start", (message) => {
    const { request, response, server } = message as Started;
    if (server && !servers.has(server)) {
      servers.add(server);
      // Node adds listeners of its own between this channel and the framework's handler (its
      // `finish` handler, which lets the connection go on): taken once more when the request reaches the handlers.
      server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
        const ticket = req.headers[RESPONSE_TICKET_HEADER];
        const entry = typeof ticket === "string" ? byTicket.get(ticket) : undefined;
        if (entry?.response === res) entry.serverListeners = listenersOf(req, res);
      });
    }
    const started = performance.now();
    const incoming = request.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === "string" && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    response.setHeader(REQUEST_ID_HEADER, id);
    // The handler sees the id the answer and the log carry, whatever the client sent.
    request.headers[REQUEST_ID_HEADER] = id;
    enterRequestScope(id);
    if (closing) response.setHeader("connection", "close");
    open.add(response);
    let ticket: string | undefined;
    if (request.method === "GET") {
      ticket = String(++tickets);
      request.headers[RESPONSE_TICKET_HEADER] = ticket;
    }
    const log: RequestLog = { started, id, ticket };
    (response as Logged)[REQUEST_LOG] = log;
    response.on("close", closed);
    if (ticket !== undefined) byTicket.set(ticket, { response, serverListeners: listenersOf(request, response) });
  });

  return {
    inFlight: () => open.size,
    idle: () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    stopAccepting() {
      closing = true;
      for (const server of servers) {
        server.close();
        server.closeIdleConnections();
      }
    },
    destroyConnections() {
      for (const server of servers) server.closeAllConnections();
      for (const response of open) response.destroy();
    },
    writeBodyAfterHeaders(request, status, writer) {
      const ticket = request.headers.get(RESPONSE_TICKET_HEADER) ?? "";
      const entry = byTicket.get(ticket);
      const response = entry?.response;
      if (!entry || !response || response.headersSent || response.writableEnded || response.destroyed) return false;
      byTicket.delete(ticket);
      writeBodyAfterHeaders(response, status, writer, entry.serverListeners);
      return true;
    },
  };
}
