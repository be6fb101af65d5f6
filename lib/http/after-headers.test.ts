import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { writeBodyAfterHeaders, type BodyWriter } from "./after-headers";

// A node:http server standing in for the framework: it keeps state of its own on the request and
// response, as the framework does, then answers the route's bodiless Response the way the
// framework's sendResponse does (status, headers, end()).

const META = Symbol.for("NextInternalRequestMeta");

interface Seen {
  began: http.ServerResponse | null;
  abandoned: number;
  frameworkCloses: number;
  serverCloses: number;
}

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

async function serve(answer: (res: http.ServerResponse) => void, seen: Seen, onBegin: (res: http.ServerResponse) => void = () => {}) {
  server = http.createServer((req, res) => {
    res.on("close", () => seen.serverCloses++);
    // Node's own (its `finish` handler among them) and the server's, as the edge takes them.
    const serverListeners = [req, res].flatMap((e) => e.eventNames().flatMap((name) => e.rawListeners(name)));
    (req as unknown as Record<symbol, unknown>)[META] = { state: "the framework's" };
    (req as unknown as { cookies?: unknown }).cookies = { session: "the framework's" };
    expect(req.headers.host).toBeDefined();
    expect(req.socket.remoteAddress).toBe("127.0.0.1");
    res.on("close", () => seen.frameworkCloses++);
    // As the framework's error handlers and its compression's pass-through wrapper hold its request context.
    res.on("error", frameworkError);
    req.on("error", frameworkError);
    const write = res.write;
    res.write = function (this: http.ServerResponse, ...args: unknown[]) {
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    } as http.ServerResponse["write"];
    const writer: BodyWriter = {
      begin: (r) => {
        seen.began = r;
        onBegin(r);
      },
      abandon: () => seen.abandoned++,
    };
    writeBodyAfterHeaders(res, 200, writer, serverListeners);
    answer(res);
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function frameworkError(): void {}

function get(url: string): Promise<{ res: http.IncomingMessage; req: http.ClientRequest }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => resolve({ res, req }));
    req.on("error", reject);
  });
}

function readUntil(res: http.IncomingMessage, text: string): Promise<string> {
  let body = "";
  return new Promise((resolve) => {
    const on = (chunk: Buffer) => {
      body += chunk.toString();
      if (body.includes(text)) {
        res.off("data", on);
        resolve(body);
      }
    };
    res.on("data", on);
  });
}

const bodiless = (res: http.ServerResponse) => {
  res.statusCode = 200;
  res.setHeader("content-type", "text/event-stream");
  res.end();
};

describe("a body written after the framework's answer", () => {
  it("turns the framework's end of a bodiless 200 into the start of the route's body, and lets go of the framework's state", async () => {
    const seen: Seen = { began: null, abandoned: 0, frameworkCloses: 0, serverCloses: 0 };
    const url = await serve(bodiless, seen, (r) => r.write("first\n"));
    const { res } = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/event-stream");
    expect(await readUntil(res, "first\n")).toBe("first\n");
    const response = seen.began!;
    // The connection outlives the framework's end(): the route writes on, and ends it itself.
    response.write("second\n");
    expect(await readUntil(res, "second\n")).toBe("second\n");
    expect((response.req as unknown as Record<symbol, unknown>)[META]).toBeUndefined();
    // The request has been read: its headers, raw and parsed, and the framework's cookies are not kept.
    expect(response.req.rawHeaders).toEqual([]);
    expect(response.req.headers).toEqual({});
    expect((response.req as unknown as { cookies?: unknown }).cookies).toBeUndefined();
    // The socket's cached addresses go too, and are read anew when asked for.
    expect((response.socket as unknown as { _peername?: unknown })._peername).toBeUndefined();
    expect(response.socket?.remoteAddress).toBe("127.0.0.1");
    expect(response.listeners("error")).not.toContain(frameworkError);
    expect(response.req.listeners("error")).not.toContain(frameworkError);
    expect(response.write).toBe(http.ServerResponse.prototype.write);
    const ended = new Promise((r) => res.on("end", r));
    response.end();
    await ended;
    await new Promise((r) => setImmediate(r));
    expect(seen.serverCloses).toBe(1);
    expect(seen.frameworkCloses).toBe(0);
    expect(seen.abandoned).toBe(0);
  });

  it("sends the headers as set, and keeps them afterwards as one flat status line instead of a header per entry", async () => {
    const seen: Seen = { began: null, abandoned: 0, frameworkCloses: 0, serverCloses: 0 };
    let before: unknown;
    const url = await serve(
      (res) => {
        res.statusCode = 200;
        res.setHeader("content-type", "text/event-stream");
        res.setHeader("x-one", "1");
        res.setHeader("vary", ["a", "b"]);
        // As the framework answers: status and headers set, nothing written, end().
        before = (res as unknown as { _header?: unknown })._header;
        res.end();
      },
      seen,
      (r) => r.write("first\n"),
    );
    const { res } = await get(url);
    expect(res.headers["x-one"]).toBe("1");
    expect(res.headers.vary).toBe("a, b");
    await readUntil(res, "first\n");
    const response = seen.began!;
    expect(before ?? null).toBeNull();
    expect(response.headersSent).toBe(true);
    expect(typeof (response as unknown as { _header?: unknown })._header).toBe("string");
    // The headers as set are no longer held: nothing can set one now, and nothing reads them.
    expect(response.getHeaderNames()).toEqual([]);
    expect(() => response.setHeader("x-late", "1")).toThrow();
  });

  it("lets an end with a body of the framework's own go through, and the route abandon its stream", async () => {
    const seen: Seen = { began: null, abandoned: 0, frameworkCloses: 0, serverCloses: 0 };
    const url = await serve((res) => {
      res.statusCode = 200;
      res.end("the framework's own answer");
    }, seen);
    const { res } = await get(url);
    const body = await new Promise<string>((resolve) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve(text));
    });
    expect(body).toBe("the framework's own answer");
    expect(seen.began).toBeNull();
    expect(seen.abandoned).toBe(1);
  });

  it("lets an answer with another status go through (the framework's error), and the route abandon its stream", async () => {
    const seen: Seen = { began: null, abandoned: 0, frameworkCloses: 0, serverCloses: 0 };
    const url = await serve((res) => {
      res.statusCode = 500;
      res.end();
    }, seen);
    const { res } = await get(url);
    expect(res.statusCode).toBe(500);
    await new Promise((r) => res.resume().on("end", r));
    expect(seen.began).toBeNull();
    expect(seen.abandoned).toBe(1);
  });

  it("abandons the stream of a client that went away before the framework answered", async () => {
    const seen: Seen = { began: null, abandoned: 0, frameworkCloses: 0, serverCloses: 0 };
    let hold: http.ServerResponse | undefined;
    const closed = new Promise<void>((resolve) => {
      void serve((res) => {
        hold = res;
        res.on("close", () => resolve());
      }, seen).then((url) => {
        const req = http.get(url, { agent: false });
        req.on("error", () => {});
        // Gone as soon as the server has the request.
        const poll = setInterval(() => {
          if (hold) {
            clearInterval(poll);
            req.destroy();
          }
        }, 5);
      });
    });
    await closed;
    expect(seen.abandoned).toBe(1);
    expect(seen.began).toBeNull();
    // The framework's end after that is an ordinary one.
    hold!.end();
    expect(seen.began).toBeNull();
  });
});
