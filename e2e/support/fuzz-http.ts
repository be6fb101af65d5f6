import http from "node:http";

// A raw HTTP/1.1 client for the fuzz suite. fetch and the request fixture normalise what they
// send (dot segments, percent-encodings, forbidden headers); node:http sends the request target
// and headers as given, so the server sees exactly the generated request.

export interface RawRequest {
  method: string;
  /** The request target as sent: path and query, possibly malformed. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body's first `keepBytes` bytes (the rest is read and dropped). */
  body: Buffer;
  /** An event stream: the answer was taken at its headers and the connection closed. */
  streamed: boolean;
  ms: number;
}

export class HungRequest extends Error {}

/**
 * The server closed the connection while a body was still being written and no answer could be
 * read. A server may answer a request before reading its body and then close (the router's own
 * redirects do); the client's write then fails and can lose the answer. `sendOnce` retries such a
 * request once; a server that closes on it again is reported.
 */
export class EarlyClose extends Error {}

/** `send`, once more when the server closed early on a request with a body (see EarlyClose). */
export async function sendOnce(req: RawRequest, opts: SendOptions): Promise<RawAnswer> {
  try {
    return await send(req, opts);
  } catch (e) {
    if (!(e instanceof EarlyClose)) throw e;
    return send(req, opts);
  }
}

export interface SendOptions {
  port: number;
  timeoutMs: number;
  keepBytes?: number;
}

/** Sends one request on its own connection; rejects with HungRequest when no complete answer comes in time. */
export function send(req: RawRequest, opts: SendOptions): Promise<RawAnswer> {
  const started = Date.now();
  const keep = opts.keepBytes ?? 64 * 1024;
  return new Promise<RawAnswer>((resolve, reject) => {
    let settled = false;
    let answered = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === "content-length")) {
      headers["content-length"] = String(req.body.length);
    }
    const r = http.request({ host: "127.0.0.1", port: opts.port, method: req.method, path: req.target, headers, agent: false, maxHeaderSize: 256 * 1024, setHost: !("host" in headers) });
    const timer = setTimeout(() => {
      finish(() => reject(new HungRequest(`no complete answer within ${opts.timeoutMs} ms (${answered ? "headers came, the body did not end" : "no headers"})`)));
      r.destroy();
    }, opts.timeoutMs);
    r.on("response", (res) => {
      answered = true;
      const type = String(res.headers["content-type"] ?? "");
      if (type.startsWith("text/event-stream")) {
        res.destroy();
        r.destroy();
        finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0), streamed: true, ms: Date.now() - started }));
        return;
      }
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on("data", (c: Buffer) => {
        if (kept < keep) {
          chunks.push(c.subarray(0, keep - kept));
          kept += Math.min(c.length, keep - kept);
        }
      });
      res.on("end", () =>
        finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), streamed: false, ms: Date.now() - started })),
      );
      res.on("error", (e) => finish(() => reject(e)));
    });
    r.on("error", (e) => {
      // A server that answers before reading a large body may close while it is still being
      // written; the answer already received is what counts.
      if (answered) return;
      const code = (e as NodeJS.ErrnoException).code;
      if ((code === "EPIPE" || code === "ECONNRESET") && req.body !== undefined && req.body.length > 0) {
        finish(() => reject(new EarlyClose(`the server closed while the body was being written (${code})`)));
        return;
      }
      finish(() => reject(e));
    });
    if (req.body !== undefined && req.body.length > 0) r.end(req.body);
    else r.end();
  });
}
