import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, startProduction, type ProductionServer } from "../support/production";

// The production server's log, as an operator follows a failure: the answer's x-request-id
// finds the request's line, the stack of what failed, and the lines written on its way.

beforeAll(() => ensureBuilt(), 900_000);

describe("JSON logs (stdout is not a terminal)", () => {
  let server: ProductionServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-reqlog-"));
    server = await startProduction({ DATA_DIR: dataDir, TEST_FAULTS: "1" });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("joins an unexpected failure's stack, and a line written on the way, to the request under its x-request-id", async () => {
    const res = await fetch(`${server.url}/test-fault`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "internal_error", hint: "Something went wrong on our side; try again shortly." });
    const id = res.headers.get("x-request-id") ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    await expect.poll(() => server.logLines().filter((l) => l.requestId === id).map((l) => l.msg)).toEqual(["about to fail on purpose", "unexpected failure", "request"]);
    const [warned, failure, request] = server.logLines().filter((l) => l.requestId === id);
    expect(warned).toMatchObject({ level: "warn", component: "test-fault" });
    expect(failure).toMatchObject({ level: "error", component: "edge" });
    expect(String(failure?.stack)).toMatch(/^Error: test fault: thrown on purpose\n\s+at /);
    expect(request).toMatchObject({ level: "info", method: "GET", route: "/test-fault", status: 500 });
    // Nothing of the failure reaches the console as plain text.
    expect(server.stdout()).not.toMatch(/^\[edge\]/m);
  });

  it("keeps the stand-ins' own traffic out of the log below debug", async () => {
    const standIn = await fetch(`${server.url}/stand-ins/tracker/not-a-route`);
    const standInId = standIn.headers.get("x-request-id");
    await standIn.arrayBuffer();
    const after = await fetch(`${server.url}/healthz`);
    const afterId = after.headers.get("x-request-id");
    await expect.poll(() => server.logLines().some((l) => l.requestId === afterId && l.msg === "request")).toBe(true);
    expect(standInId).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.logLines().filter((l) => l.requestId === standInId)).toEqual([]);
  });
});

describe("readable logs (LOG_FORMAT=pretty, LOG_LEVEL=debug)", () => {
  let server: ProductionServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-reqlog-"));
    server = await startProduction({ DATA_DIR: dataDir, LOG_FORMAT: "pretty", LOG_LEVEL: "debug" });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("writes one short line per request, the stand-ins' too: method, route, status, duration, id", async () => {
    const res = await fetch(`${server.url}/healthz`);
    const id = res.headers.get("x-request-id") ?? "";
    const standIn = await fetch(`${server.url}/stand-ins/tracker/not-a-route`);
    const standInId = standIn.headers.get("x-request-id") ?? "";
    await standIn.arrayBuffer();
    await expect.poll(() => server.stdout()).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} GET /healthz 200 [0-9.]+ms ${id}$`, "m"));
    await expect.poll(() => server.stdout()).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} GET /stand-ins/\\S+ ${standIn.status} [0-9.]+ms ${standInId}$`, "m"));
    // Not a terminal: no colour codes.
    expect(server.stdout()).not.toContain("\x1b[");
    expect(server.logLines()).toEqual([]);
  });
});
