import http from "node:http";
import type net from "node:net";
import { Renderer } from "@/lib/renderer";

// The renderer's tests draw pages of a small server of their own rather than the service's, so
// each page is exactly the case it names and nothing the service adds (the frame's CSP and
// bootstrap) contains it first. Chromium is Debian's, as the service runs it.

const CHROMIUM = "/usr/bin/chromium";
const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== "LD_PRELOAD" && e[0] !== "MALLOC_CONF"));

/** Said by a page once it has drawn: what the renderer waits for. */
export const done = `document.documentElement.dataset.rendered = "true";`;
export const html = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
/** A render of `path`; its result is the document's title ("t"). */
export const page = (path: string) => ({ path, viewport: { width: 800, height: 600, mobile: false }, ready: `document.documentElement.dataset.rendered === "true"`, result: "document.title", picture: "body" });

type Route = (url: URL) => { body: string; delayMs?: number; type?: string };

/** Serves `routes` on loopback; an answer may come `delayMs` late. */
export async function pageServer(routes: Record<string, Route>): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const route = routes[url.pathname];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const { body, delayMs = 0, type = "text/html" } = route(url);
    setTimeout(() => res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(body), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function renderer(origin: string, o: Partial<ConstructorParameters<typeof Renderer>[0]> = {}): Renderer {
  return new Renderer({ executablePath: CHROMIUM, concurrency: 2, queue: 8, timeoutMs: 20_000, memoryBytes: 1024 * 1024 * 1024, origin, env, ...o });
}
