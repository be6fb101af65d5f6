import "server-only";
import { randomUUID } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "./log";
import type { Metrics } from "./metrics";
import type { RouteTemplate } from "./route-template";

// Every request the production server accepts passes the HTTP server's request-start channel
// before the framework sees it; the framework's server is its own, so this is the one place all
// of them can be timed, counted and logged. Each gets a request id (a well-formed one from the
// proxy in front is kept, so its logs and ours join), sent back as x-request-id, and one log line
// when its answer ends or its client goes away: method, route template, status, duration. The
// URL is never logged: draft ids and write tokens are in paths, secrets in query strings.

export const REQUEST_ID_HEADER = "x-request-id";
const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

export interface RequestEdge {
  /** Requests whose answers have not ended, event streams included. */
  inFlight(): number;
  /** Resolves once no request is in flight. */
  idle(): Promise<void>;
  /** Stops accepting connections; requests already in flight go on, each answered with Connection: close. */
  stopAccepting(): void;
  /** Tears down whatever connections remain. */
  destroyConnections(): void;
}

interface Started {
  request: IncomingMessage;
  response: ServerResponse;
  server?: Server;
}

export function installRequestEdge(deps: { log: Logger; metrics: Metrics; template: RouteTemplate }): RequestEdge {
  const servers = new Set<Server>();
  const open = new Set<ServerResponse>();
  let waiters: (() => void)[] = [];
  let closing = false;

  diagnostics.subscribe("http.server.request.start", (message) => {
    const { request, response, server } = message as Started;
    if (server) servers.add(server);
    const started = performance.now();
    const incoming = request.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === "string" && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    response.setHeader(REQUEST_ID_HEADER, id);
    if (closing) response.setHeader("connection", "close");
    open.add(response);
    response.once("close", () => {
      open.delete(response);
      const seconds = (performance.now() - started) / 1000;
      const method = request.method ?? "GET";
      const url = request.url ?? "/";
      const q = url.indexOf("?");
      const route = deps.template(q === -1 ? url : url.slice(0, q));
      const status = response.statusCode;
      deps.metrics.request(method, route, status, seconds);
      deps.log.info("request", {
        requestId: id,
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
    });
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
  };
}
