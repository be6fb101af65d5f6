import http from "node:http";
import type { AddressInfo } from "node:net";
import { PLAYGROUND_BASE } from "@/lib/contract/playground";
import { errorResponse } from "@/lib/http/respond";
import type { Method } from "@/lib/http/edge";
import type { Playground } from "@/lib/playground/service";
import { agentRoutes } from "@/lib/agent/routes";
import { agentRulesMarkdown, agentStatesMarkdown } from "@/lib/reference/agent-rules";
import { playgroundRoutes } from "@/lib/playground/routes";

// Serves the playground's route modules (the ones the app's route files mount) over real loopback
// HTTP without the framework, for the integration tests, each on a playground of its own; the
// URL → module mapping below is the one the framework's file routes make. Unlike a buffering adapter it streams response bodies, honours
// socket backpressure (it asks the body for more only once the socket has drained), and turns a
// closed connection into both an aborted request signal and a cancelled body: the same
// lifecycle the framework gives a route handler.

export type FetchHandler = (request: Request) => Promise<Response>;

export interface StreamingServer {
  url: string;
  server: http.Server;
  close(): Promise<void>;
}

const REQUEST_BODY_MAX = 64 * 1024 * 1024;

export async function serveStreaming(handler: FetchHandler, port = 0): Promise<StreamingServer> {
  const server = http.createServer((req, res) => {
    void respond(handler, req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(handler: FetchHandler, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const aborter = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborter.abort();
  });
  try {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (Array.isArray(v)) for (const x of v) headers.append(k, x);
      else if (v !== undefined) headers.set(k, v);
    }
    let body: Buffer<ArrayBuffer> | undefined;
    if (req.method !== "GET" && req.method !== "HEAD") {
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const c of req) {
        const chunk = c as Buffer;
        total += chunk.byteLength;
        if (total > REQUEST_BODY_MAX) {
          res.writeHead(413).end();
          return;
        }
        chunks.push(chunk);
      }
      body = Buffer.concat(chunks);
    }
    const request = new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
      method: req.method,
      headers,
      body,
      signal: aborter.signal,
    });
    const response = await handler(request);
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, key) => {
      out[key] = key === "set-cookie" ? response.headers.getSetCookie() : value;
    });
    res.writeHead(response.status, out);
    res.flushHeaders();
    if (!response.body) {
      res.end();
      return;
    }
    await pipe(response.body, res);
  } catch {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" }).end("loopback adapter failure");
    else res.destroy();
  }
}

async function pipe(body: ReadableStream<Uint8Array>, res: http.ServerResponse): Promise<void> {
  const reader = body.getReader();
  let closed = false;
  const onClose = () => {
    closed = true;
    reader.cancel().catch(() => {});
  };
  res.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || closed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off("drain", go);
            res.off("close", go);
            resolve();
          };
          res.on("drain", go);
          res.on("close", go);
        });
      }
    }
    if (!closed) res.end();
  } catch {
    // The body errored (a dropped watcher): tear the connection down, freeing its buffers.
    res.destroy();
  } finally {
    res.off("close", onClose);
  }
}

/** The app's draft route modules, matched the way the framework's file routes match them. */
export function playgroundRouter(playground: Playground): FetchHandler {
  const routes = playgroundRoutes({ playground: async () => playground, demoReads: playground.demoReads });
  const agent = agentRoutes({ playground: async () => playground, rules: { rules: agentRulesMarkdown, states: agentStatesMarkdown } });
  const draftBase = `${PLAYGROUND_BASE}/draft`;
  const apiBase = `${PLAYGROUND_BASE}/api`;
  return async (request) => {
    const { pathname } = new URL(request.url);
    let segments: string[];
    try {
      segments = pathname.split("/").filter(Boolean).map(decodeURIComponent);
    } catch {
      return errorResponse("invalid_path", "A path segment is not valid percent-encoded UTF-8.");
    }
    const method = request.method as Method;
    if (!METHODS.includes(method)) return errorResponse("method_not_allowed");
    if (pathname.startsWith(`${apiBase}/`) || pathname === apiBase) {
      return routes.demoApi[method](request, { params: { path: segments.slice(3) } });
    }
    if (pathname === draftBase) return routes.create[method](request);
    if (pathname === `${PLAYGROUND_BASE}/check`) return routes.check[method](request);
    if (pathname === `${PLAYGROUND_BASE}/mcp`) return agent.mcp[method](request);
    if (pathname.startsWith(`${draftBase}/`)) {
      const [token = "", sub, extra] = segments.slice(3);
      if (extra !== undefined) return errorResponse("not_found");
      const route = sub === undefined ? routes.draft : sub === "events" ? routes.events : sub === "revisions" ? routes.revisions : sub === "reports" ? routes.reports : sub === "render" ? routes.render : null;
      if (route) return route[method](request, { params: { token } });
    }
    return errorResponse("not_found");
  };
}

const METHODS: readonly Method[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
