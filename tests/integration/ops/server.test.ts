import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_URL, dropSchema } from "../support/backends";
import { ensureBuilt, rawStream, serverProcessUnder, startProduction, type ProductionServer } from "../support/production";
// @ts-expect-error -- a plain ES module script, without types
import { jemallocPath } from "../../../scripts/start.mjs";

// Operations of the production server as people start it (scripts/start.mjs): health,
// readiness, metrics and who may read them, the request log, and shutdown on SIGTERM.

const DRAFT = "/dashboards/playground/draft";

beforeAll(() => ensureBuilt(), 900_000);

async function createDraft(server: ProductionServer, html = "<p>hi</p>", headers: Record<string, string> = {}) {
  return fetch(`${server.url}${DRAFT}`, { method: "POST", headers: { "content-type": "text/html", ...headers }, body: html });
}

async function metricsText(server: ProductionServer, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${server.url}/metrics`, { headers });
  expect(res.status).toBe(200);
  return res.text();
}

/** A sample's value in the Prometheus text format, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("the production server on SQLite, behind a trusted proxy on loopback", () => {
  let server: ProductionServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-ops-"));
    server = await startProduction({ DATA_DIR: dataDir, TRUSTED_PROXY: "127.0.0.1", PLAYGROUND_CREATES_PER_MIN: "3", SHUTDOWN_GRACE_MS: "5000" });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers /healthz 200 {ok:true}, with a request id", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("runs on jemalloc where the system has it, so memory freed by closed connections goes back", () => {
    const maps = fs.readFileSync(`/proc/${serverProcessUnder(server.process.pid!)}/maps`, "utf8");
    // .ci/run installs libjemalloc2; without it, npm start stays on the system's malloc.
    if (jemallocPath()) expect(maps).toMatch(/libjemalloc\.so/);
    else expect(maps).not.toMatch(/libjemalloc/);
  });

  it("answers /readyz 200 once storage is open and migrated", async () => {
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it("counts requests by route template and status, event streams, fan-out delay, refusals and sync runs", async () => {
    for (let i = 0; i < 3; i++) expect((await createDraft(server, "<p>m</p>", { "x-forwarded-for": "203.0.113.50" })).status).toBe(201);
    expect((await createDraft(server, "<p>m</p>", { "x-forwarded-for": "203.0.113.50" })).status).toBe(429);
    const created = (await (await createDraft(server, "<p>watched</p>", { "x-forwarded-for": "203.0.113.51" })).json()) as { id: string; postUrl: string };
    const stream = rawStream(`${server.url}${DRAFT}/${created.id}/events`);
    await expect.poll(() => stream.text()).toContain("id: 1");
    const during = await metricsText(server);
    expect(sample(during, "playground_event_streams_open")).toBe(1);
    const update = await fetch(created.postUrl.replace(/^http:\/\/[^/]+/, server.url), { method: "POST", headers: { "content-type": "text/html" }, body: "<p>two</p>" });
    expect(update.status).toBe(200);
    await expect.poll(() => stream.text()).toContain("id: 2");
    stream.close();

    // A request is counted once the server has closed its response, which can come after the
    // client has read the answer and the stream has carried the revision.
    const updateCount = 'http_requests_total{method="POST",route="/dashboards/playground/draft/[token]",status="200"}';
    await expect.poll(async () => sample(await metricsText(server), updateCount)).toBe(1);
    const text = await metricsText(server);
    expect(sample(text, 'http_requests_total{method="POST",route="/dashboards/playground/draft",status="201"}')).toBe(4);
    expect(sample(text, 'http_requests_total{method="POST",route="/dashboards/playground/draft",status="429"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="POST",route="/dashboards/playground/draft",status="201"}')).toBe(4);
    expect(sample(text, 'rate_limit_refusals_total{limit="creates"}')).toBe(1);
    expect(sample(text, "playground_fanout_delay_seconds_count")).toBe(1);
    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
    expect(text).toContain("# TYPE process_cpu_user_seconds_total counter");
    // No label carries a path value: the draft's id and write token are nowhere.
    expect(text).not.toContain(created.id);
    expect(text).not.toContain(new URL(created.postUrl).pathname.split("/").pop());
    // The CRM sync of the embedded default runs at start against the built-in stand-in.
    // (Both portal instances: no sync is then left running when a later test sends SIGTERM.)
    for (const instance of ["customers", "users"]) {
      await expect.poll(async () => sample(await metricsText(server), `crm_sync_runs_total{instance="${instance}",outcome="ok"}`), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    }
    expect(await metricsText(server)).toContain('crm_sync_duration_seconds_count{instance="customers"}');
  });

  it("writes an accepted event stream straight to its socket, with the stream's headers, resuming from Last-Event-ID", async () => {
    const created = (await (await createDraft(server, "<p>socket</p>", { "x-forwarded-for": "203.0.113.60" })).json()) as { id: string; postUrl: string };
    const url = `${server.url}${DRAFT}/${created.id}/events`;
    // A client that names a ticket of its own is given its own anyway.
    const head = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(url, { headers: { "last-event-id": "1", "x-dd-response-ticket": "1" } }, resolve).on("error", reject);
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-type"]).toBe("text/event-stream");
    expect(head.headers["cache-control"]).toBe("no-cache, no-store, no-transform");
    expect(head.headers["x-accel-buffering"]).toBe("no");
    expect(head.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    let text = "";
    head.on("data", (c: Buffer) => (text += c.toString("utf8")));
    await expect.poll(() => text).toContain(": open");
    // The previous test's stream may still be closing on the server.
    await expect.poll(async () => sample(await metricsText(server), "playground_event_streams_open")).toBe(1);
    expect(sample(await metricsText(server), "playground_event_streams_on_socket")).toBe(1);
    const update = await fetch(created.postUrl.replace(/^http:\/\/[^/]+/, server.url), { method: "POST", headers: { "content-type": "text/html" }, body: "<p>two</p>" });
    expect(update.status).toBe(200);
    await expect.poll(() => text).toContain("id: 2");
    // It had revision 1 already: nothing was sent for it.
    expect(text).not.toContain("id: 1");
    head.destroy();
    await expect.poll(async () => sample(await metricsText(server), "playground_event_streams_open")).toBe(0);
    expect(sample(await metricsText(server), "playground_event_streams_on_socket")).toBe(0);

    const unknown = await fetch(`${server.url}${DRAFT}/${"A".repeat(22)}/events`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("application/json");
  });

  it("answers /metrics 404 to a client the trusted proxy forwards from elsewhere, with no token configured", async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not_found" });
    // The proxy's own scrape (no forwarded client) is local.
    expect((await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1" } })).status).toBe(200);
  });

  it("logs one JSON line per request with its id, route template, status and duration, and no id, token or query", async () => {
    const created = (await (await createDraft(server, "<p>log</p>", { "x-forwarded-for": "203.0.113.52" })).json()) as { id: string; postUrl: string };
    const writeToken = new URL(created.postUrl).pathname.split("/").pop()!;
    const secret = `s3cr3t${randomBytes(6).toString("hex")}`;
    const read = await fetch(`${server.url}${DRAFT}/${created.id}?access_token=${secret}`, { headers: { "x-request-id": "proxy-req-0001" } });
    expect(read.headers.get("x-request-id")).toBe("proxy-req-0001");
    const update = await fetch(`${server.url}${DRAFT}/${writeToken}?key=${secret}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ html: "<p>2</p>" }) });
    expect(update.status).toBe(200);
    const updateId = update.headers.get("x-request-id");

    // Other lines written while a request is answered carry its id too: the request's own is "request".
    await expect.poll(() => server.logLines().some((l) => l.requestId === updateId && l.msg === "request")).toBe(true);
    const readLine = server.logLines().find((l) => l.requestId === "proxy-req-0001" && l.msg === "request");
    expect(readLine).toMatchObject({ level: "info", msg: "request", method: "GET", route: "/dashboards/playground/draft/[token]", status: read.status });
    expect(typeof readLine?.durationMs).toBe("number");
    expect(typeof readLine?.time).toBe("string");
    expect(server.logLines().find((l) => l.requestId === updateId && l.msg === "request")).toMatchObject({ method: "POST", route: "/dashboards/playground/draft/[token]", status: 200 });
    const out = server.stdout();
    for (const leak of [created.id, writeToken, secret]) expect(out).not.toContain(leak);
  });

  it("on SIGTERM tells an open event stream to reconnect, ends it, lets a request in flight finish, and exits 0", async () => {
    const created = (await (await createDraft(server, "<p>bye</p>", { "x-forwarded-for": "203.0.113.53" })).json()) as { id: string };
    const stream = rawStream(`${server.url}${DRAFT}/${created.id}/events`);
    await expect.poll(() => stream.text()).toContain("id: 1");
    // A creation whose body is still arriving when the signal comes.
    const body = "<p>sent in two halves</p>";
    const pending = http.request(`${server.url}${DRAFT}`, {
      method: "POST",
      headers: { "content-type": "text/html", "content-length": String(Buffer.byteLength(body)), "x-forwarded-for": "203.0.113.54" },
    });
    const answered = new Promise<number>((resolve, reject) => {
      pending.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      pending.on("error", reject);
    });
    pending.write(body.slice(0, 10));
    // In flight: the stream, the half-sent creation and this scrape.
    await expect.poll(async () => sample(await metricsText(server), "http_requests_in_flight")).toBe(3);
    const before = stream.text().length;
    server.process.kill("SIGTERM");
    await stream.ended;
    expect(stream.text().slice(before)).toMatch(/^retry: \d+\n: reconnect\n\n$/);
    pending.end(body.slice(10));
    expect(await answered).toBe(201);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const phases = server.logLines().filter((l) => l.msg === "shutdown").map((l) => l.phase);
    expect(phases).toEqual(["start", "done"]);
    expect(server.logLines().find((l) => l.msg === "shutdown" && l.phase === "done")).toMatchObject({ streams: 1 });
  });
});

describe("the production server on PostgreSQL with a metrics token", () => {
  const schema = `t_ops_${randomBytes(5).toString("hex")}`;
  const token = randomBytes(24).toString("base64url");
  let server: ProductionServer;

  beforeAll(async () => {
    server = await startProduction({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, TRUSTED_PROXY: "127.0.0.1", METRICS_TOKEN: token, DEMO_TENANT: "0" });
  });
  afterAll(async () => {
    await server?.stop();
    await dropSchema(schema);
  });

  it("answers /readyz 200 with storage migrated and the draft listener connected", async () => {
    const res = await fetch(`${server.url}/readyz`);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.status).toBe(200);
  });

  it("answers /readyz 503 naming a migration that is not applied", async () => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`delete from "${schema}".kysely_migration where name = '0010_rate_limits'`);
      const res = await fetch(`${server.url}/readyz`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { error: string; hint: string };
      expect(body.error).toBe("not_ready");
      expect(body.hint).toContain("0010_rate_limits");
    } finally {
      await client.query(`insert into "${schema}".kysely_migration (name, timestamp) values ('0010_rate_limits', now()::text) on conflict do nothing`);
      await client.end();
    }
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it("counts the statements it sends to PostgreSQL: none for a probe, some for each write", async () => {
    const statements = async () => sample(await metricsText(server), "db_statements_total") ?? NaN;
    const opened = await statements();
    // Opening, migrating and checking readiness all ran statements.
    expect(opened).toBeGreaterThan(20);
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await statements()).toBe(opened);
    for (let i = 0; i < 2; i++) expect((await createDraft(server)).status).toBe(201);
    expect(await statements()).toBeGreaterThanOrEqual(opened + 2);
  });

  it("opens /metrics to the bearer of the token from elsewhere, 401 to anyone else there", async () => {
    const away = { "x-forwarded-for": "203.0.113.9" };
    const none = await fetch(`${server.url}/metrics`, { headers: away });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await fetch(`${server.url}/metrics`, { headers: { ...away, authorization: `Bearer ${token}x` } })).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { ...away, authorization: `Basic ${token}` } })).status).toBe(401);
    expect(await metricsText(server, { ...away, authorization: `Bearer ${token}` })).toContain("http_requests_total");
    // Loopback needs no token.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  });
});
