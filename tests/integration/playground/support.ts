import http from "node:http";
import { afterAll, beforeAll, expect } from "vitest";
import { draftCreated, type DraftCreated } from "@/lib/contract/playground";
import { openDb, type OpenDb } from "@/lib/db";
import { backends } from "../support/backends";
import { playgroundRouter, serveStreaming, type StreamingServer } from "../support/loopback";
import { createPlayground, type Playground, type PlaygroundOptions } from "@/lib/playground/service";
import { playgroundRoutes, type PlaygroundRoutes } from "@/lib/playground/routes";
import { EventStreamParser, type SseMessage } from "@/lib/live/sse";

// One app instance of the playground over real loopback HTTP, and a client for its event
// stream that reads the bytes the way a browser's EventSource does (lib/live/sse.ts).

export interface App {
  url: string;
  playground: Playground;
  /** The route modules the server mounts, for calling one in-process. */
  routes: PlaygroundRoutes;
  server: StreamingServer;
  close(): Promise<void>;
}

export async function startApp(open: Pick<OpenDb, "db" | "dialect" | "pool">, options: PlaygroundOptions = {}): Promise<App> {
  const playground = createPlayground(open, { log: () => {}, ...options });
  const server = await serveStreaming(playgroundRouter(playground));
  return {
    url: server.url,
    playground,
    routes: playgroundRoutes({ playground: async () => playground, demoReads: playground.demoReads }),
    server,
    async close() {
      await playground.close();
      await server.close();
    },
  };
}

export const DRAFT = "/dashboards/playground/draft";

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** Creates a draft and checks the answer against the contract. */
export async function create(app: App, body: Record<string, unknown> = { html: "<p>hello</p>" }): Promise<DraftCreated> {
  const res = await postJson(`${app.url}${DRAFT}`, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return draftCreated.parse(await res.json());
}

/** The same URL as `postUrl`, but on the given instance (postUrl names the instance that answered). */
export function onApp(app: App, absolute: string): string {
  const u = new URL(absolute);
  return `${app.url}${u.pathname}${u.search}`;
}

export interface Stream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body text, for answers that are not event streams. */
  text(): Promise<string>;
  messages: SseMessage[];
  parser: EventStreamParser;
  /** Raw bytes received so far. */
  received: number;
  /** The next message not yet taken by `next`. */
  next(timeoutMs?: number): Promise<SseMessage>;
  /** Resolves when the connection ends (the server closed it, or it was destroyed). */
  ended: Promise<"end" | "error">;
  /** Drops the connection abruptly, as a killed client would. */
  kill(): void;
  /** Starts reading a stream opened with `stall`. */
  resume(): void;
}

/**
 * Opens an event stream over a fresh TCP connection. `stall`: never read anything.
 * `localAddress`: the client's source address (any of 127.0.0.0/8 reaches a loopback server),
 * so one test can be several clients.
 */
export function openStream(url: string, headers: Record<string, string> = {}, options: { stall?: boolean; localAddress?: string } = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: "text/event-stream", ...headers }, agent: false, localAddress: options.localAddress }, (res) => {
      const messages: SseMessage[] = [];
      let taken = 0;
      let wake: (() => void) | null = null;
      const parser = new EventStreamParser((m) => {
        messages.push(m);
        wake?.();
      });
      let endedResolve: (how: "end" | "error") => void = () => {};
      const ended = new Promise<"end" | "error">((r) => (endedResolve = r));
      const body: Buffer[] = [];
      const stream: Stream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages,
        parser,
        received: 0,
        async text() {
          await ended;
          return Buffer.concat(body).toString("utf8");
        },
        async next(timeoutMs = 5000) {
          const deadline = Date.now() + timeoutMs;
          while (taken >= messages.length) {
            const left = deadline - Date.now();
            if (left <= 0) throw new Error(`no event within ${timeoutMs} ms (have ${messages.length})`);
            await new Promise<void>((r) => {
              const t = setTimeout(r, left);
              wake = () => {
                clearTimeout(t);
                wake = null;
                r();
              };
            });
          }
          return messages[taken++]!;
        },
        ended,
        kill() {
          req.destroy();
        },
        resume() {
          res.on("data", onData);
          res.resume();
        },
      };
      res.on("error", () => endedResolve("error"));
      res.on("close", () => {
        endedResolve(res.complete ? "end" : "error");
        wake?.();
      });
      const onData = (chunk: Buffer) => {
        stream.received += chunk.byteLength;
        if (res.statusCode === 200) parser.push(chunk);
        else body.push(chunk);
      };
      if (options.stall) res.pause();
      else res.on("data", onData);
      resolve(stream);
    });
    req.on("error", reject);
  });
}

/** Waits until `check` holds, polling; fails with `what` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** HTML that would break a naive framing: blank lines, CRLF, lone CR, field-like lines, U+2028. */
export const TRICKY_HTML = [
  "<!doctype html><title>t</title>",
  "",
  "",
  "<script>const s = `a\r\nb\rc`;</script>",
  "event: x",
  "data: y",
  "id: 9",
  "retry: 1",
  ": not a comment",
  "\u2028 line separator \u2029 paragraph separator",
  "\u0001 \t tab, \u001b escape, \u007f, emoji 😀, \ufeff, non-BMP 𝔘",
  "\r\n\r\n",
  "data:",
  "",
].join("\n");

/**
 * Two app instances on one PostgreSQL database, each with its own pool, playground and hub, as
 * two servers behind a proxy run; started before the describe block's tests and closed after.
 * `first` is the storage the database was opened with, for reading its tables directly.
 */
export function twoInstancesOnPostgres(settings: PlaygroundOptions["settings"]) {
  const postgres = backends.find((b) => b.name === "postgres")!;
  const pair = {} as { first: Awaited<ReturnType<typeof postgres.open>>; second: OpenDb; a: App; b: App };
  beforeAll(async () => {
    const first = await postgres.open();
    pair.first = first;
    pair.second = await openDb(first.storage);
    pair.a = await startApp(first, { settings });
    pair.b = await startApp(pair.second, { settings });
  });
  afterAll(async () => {
    await pair.a.close();
    await pair.b.close();
    await pair.second.close();
    await pair.first.close();
  });
  return pair;
}
