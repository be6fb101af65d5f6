import { describe, expect, it } from "vitest";
import { createLogger, enterRequestScope, jsonLine, outsideRequestScope, prettyLine, type LogRecord } from "./log";

const at = new Date("2026-11-27T14:05:09.042Z");
const request: LogRecord = { time: at.toISOString(), level: "info", msg: "request", requestId: "3f1c2a9e-7d1b-4c55-9a3e-0b6f5d2e8c11", method: "GET", route: "/api/me", status: 200, durationMs: 12.3 };

function collect(options: Partial<Parameters<typeof createLogger>[0]> = {}) {
  const lines: string[] = [];
  const log = createLogger({ format: "json", level: "info", write: (l) => lines.push(l), now: () => at, ...options });
  return { log, lines };
}

describe("the readable format", () => {
  it("gives a request one line: time of day, method, route, status, duration, request id", () => {
    expect(prettyLine(request, false)).toBe("14:05:09.042 GET /api/me 200 12.3ms 3f1c2a9e-7d1b-4c55-9a3e-0b6f5d2e8c11");
  });

  it("says when the client went away before the answer ended", () => {
    expect(prettyLine({ ...request, status: 200, aborted: true }, false)).toBe("14:05:09.042 GET /api/me 200 12.3ms aborted 3f1c2a9e-7d1b-4c55-9a3e-0b6f5d2e8c11");
  });

  it("colours the status by its class, and the level of other lines", () => {
    expect(prettyLine({ ...request, status: 200 }, true)).toContain("\x1b[32m200\x1b[0m");
    expect(prettyLine({ ...request, status: 404 }, true)).toContain("\x1b[33m404\x1b[0m");
    expect(prettyLine({ ...request, status: 503 }, true)).toContain("\x1b[31m503\x1b[0m");
    expect(prettyLine({ time: at.toISOString(), level: "error", msg: "boom" }, true)).toContain("\x1b[31mERROR\x1b[0m");
    expect(prettyLine(request, false)).not.toContain("\x1b[");
  });

  it("writes other lines as level, message and fields, quoting values with spaces, and a stack below", () => {
    const line = prettyLine(
      { time: at.toISOString(), level: "error", msg: "unexpected failure", component: "edge", note: "two words", requestId: "r-123456789", stack: "Error: x\n    at f (a.ts:1:2)" },
      false,
    );
    expect(line).toBe('14:05:09.042 ERROR unexpected failure component=edge note="two words" r-123456789\n    Error: x\n        at f (a.ts:1:2)');
  });
});

describe("the JSON format", () => {
  it("keeps the fields collectors read: time, level, msg, then the caller's", () => {
    expect(JSON.parse(jsonLine(request))).toEqual(request);
    const { log, lines } = collect();
    log.info("request", { requestId: "r-1", method: "GET", route: "/healthz", status: 200, durationMs: 1.5, aborted: undefined });
    expect(lines).toEqual(['{"time":"2026-11-27T14:05:09.042Z","level":"info","msg":"request","requestId":"r-1","method":"GET","route":"/healthz","status":200,"durationMs":1.5}']);
  });
});

describe("the logger", () => {
  it("drops lines below its level", () => {
    const { log, lines } = collect({ level: "warn" });
    log.debug("d");
    log.info("i");
    log.warn("w");
    log.error("e");
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(["w", "e"]);
    const debug = collect({ level: "debug" });
    debug.log.debug("d");
    expect(debug.lines).toHaveLength(1);
  });

  it("adds the request id of the request being answered, across awaits, and keeps one given explicitly", async () => {
    const { log, lines } = collect();
    const answer = async (id: string) => {
      enterRequestScope(id);
      await new Promise((r) => setTimeout(r, 1));
      log.warn("inside");
      log.warn("named", { requestId: "given" });
    };
    // Each in a turn of its own, as each request arrives in a callback of its own.
    const arriving = (id: string) => new Promise<void>((resolve) => setTimeout(() => resolve(answer(id)), 0));
    await Promise.all([arriving("req-a"), arriving("req-b")]);
    log.info("outside");
    const ids = lines.map((l) => (JSON.parse(l) as { msg: string; requestId?: string }));
    expect(ids.filter((l) => l.msg === "inside").map((l) => l.requestId).sort()).toEqual(["req-a", "req-b"]);
    expect(ids.filter((l) => l.msg === "named").map((l) => l.requestId)).toEqual(["given", "given"]);
    expect(ids.find((l) => l.msg === "outside")?.requestId).toBeUndefined();
  });

  it("writes the readable format when asked", () => {
    const { log, lines } = collect({ format: "pretty" });
    log.info("request", { requestId: "r-1", method: "POST", route: "/dashboards/playground/draft", status: 201, durationMs: 4 });
    expect(lines).toEqual(["14:05:09.042 POST /dashboards/playground/draft 201 4ms r-1"]);
  });
});

describe("what outlives the request that built it", () => {
  it("logs as no request's, now and after awaits", async () => {
    const { log, lines } = collect();
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        enterRequestScope("first-request");
        void outsideRequestScope(async () => {
          log.info("built");
          await new Promise((r) => setTimeout(r, 1));
          log.info("later");
        }).then(resolve);
      }, 0),
    );
    expect(lines.map((l) => JSON.parse(l) as { msg: string; requestId?: string })).toEqual([expect.not.objectContaining({ requestId: expect.anything() }), expect.not.objectContaining({ requestId: expect.anything() })]);
    expect(lines).toHaveLength(2);
  });
});
