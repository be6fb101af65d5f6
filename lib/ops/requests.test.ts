import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger, LogFields } from "./log";
import type { Metrics } from "./metrics";
import { installRequestEdge } from "./requests";

// The edge subscribes to a channel every HTTP server in the process reports to, for good: this
// file runs in a process of its own (vitest.config.ts).

const lines: LogFields[] = [];
const log: Logger = { debug: () => {}, info: (_msg, fields) => lines.push(fields ?? {}), warn: () => {}, error: () => {} };
const counted: [string, string, number][] = [];
const metrics = { request: (method: string, route: string, status: number) => counted.push([method, route, status]) } as unknown as Metrics;
installRequestEdge({ log, metrics, template: (pathname) => (pathname.startsWith("/events/") ? "/events/[id]" : pathname) });

const held: http.ServerResponse[] = [];
const server = http.createServer((req, res) => {
  if (req.url?.startsWith("/events/")) {
    // An open stream: answered, never ended by the server.
    held.push(res);
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(": open\n\n");
    return;
  }
  res.end("ok");
});
let base = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function open(path: string): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { agent: false }, (res) => res.once("data", () => resolve(req)));
    req.on("error", () => {});
    req.once("error", reject);
  });
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("the request edge", () => {
  it("logs and counts each request once, when its answer ends, by its route template and with its id", async () => {
    const res = await fetch(`${base}/plain?secret=1`);
    expect(await res.text()).toBe("ok");
    await until(() => lines.length === 1);
    expect(lines[0]).toMatchObject({ requestId: res.headers.get("x-request-id"), method: "GET", route: "/plain", status: 200 });
    expect(lines[0]?.aborted).toBeUndefined();
    expect(counted).toEqual([["GET", "/plain", 200]]);
  });

  it("holds nothing of its own per open stream but what its log line needs: every response shares one close listener", async () => {
    lines.length = 0;
    const clients = [await open("/events/a"), await open("/events/b")];
    const [a = [], b] = held.map((res) => res.rawListeners("close"));
    // The same function on both, not a closure (or a once-wrapper around one) for each.
    expect(a.length).toBeGreaterThan(0);
    expect(a).toEqual(b);
    for (const l of a) expect((l as { listener?: unknown }).listener).toBeUndefined();
    for (const c of clients) c.destroy();
    await until(() => lines.length === 2);
    expect(lines.map((l) => [l.route, l.aborted])).toEqual([
      ["/events/[id]", true],
      ["/events/[id]", true],
    ]);
  });
});

