import "server-only";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { handedOn } from "@/lib/http/edge";

// Serves a fetch-style handler over real loopback HTTP, for tests of vendor clients against
// their stand-ins (the app itself mounts the same handlers under /stand-ins/<slug>).

/** Largest request body read into memory; the vendor clients send small JSON and forms. */
const LOOPBACK_BODY_MAX = 1024 * 1024;

type FetchHandler = (request: Request) => Promise<Response>;

export interface Served {
  url: string;
  close(): Promise<void>;
}

export async function serveOnLoopback(handler: FetchHandler, port = 0): Promise<Served> {
  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const c of req) {
        size += (c as Buffer).length;
        if (size > LOOPBACK_BODY_MAX) {
          res.writeHead(413, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: "payload_too_large", hint: `Bodies of at most ${LOOPBACK_BODY_MAX} bytes are read.` }));
          return;
        }
        chunks.push(c as Buffer);
      }
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (Array.isArray(v)) for (const x of v) headers.append(k, x);
        else if (v !== undefined) headers.set(k, v);
      }
      const request = handedOn(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, { method: req.method, headers, body });
      const response = await handler(request);
      const out: Record<string, string | string[]> = {};
      response.headers.forEach((value, key) => {
        if (key === "set-cookie") out[key] = response.headers.getSetCookie();
        else out[key] = value;
      });
      res.writeHead(response.status, out);
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (err) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "internal_error", hint: `stand-in failure: ${(err as Error).message}` }));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
