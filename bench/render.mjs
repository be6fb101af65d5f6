// The service's own renderer (POST /dashboards/playground/draft/<read_id>/render) on the
// production build, beside a plain page screenshot in the same Chromium:
//
// (a) latency: one render at a time of a fresh draft (nothing kept to answer from), p50 and p99,
//     beside a screenshot of the sign-in page taken by a Playwright script in the same Chromium
//     binary, one at a time;
// (b) throughput at the renderer's concurrency cap: renders of fresh drafts kept exactly at the
//     cap for the run's length, renders per second, beside screenshots at the same concurrency;
// (c) a render asked for again (answered from storage).
//
//   npm run bench:render -- [--port 3560] [--rounds 20] [--warmup 3] [--concurrency 2] [--seconds 20]
//
// Each render draws the district health example (25 rows, a table of sparklines, one API read) at
// desktop size, the picture of its whole height included.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { ensureBuild } from "../scripts/start.mjs";
import { root, startServer } from "./server.mjs";

const { values: args } = parseArgs({
  options: {
    port: { type: "string", default: "3560" },
    rounds: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    concurrency: { type: "string", default: "2" },
    seconds: { type: "string", default: "20" },
  },
});
const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;
const rounds = Number(args.rounds);
const warmup = Number(args.warmup);
const concurrency = Number(args.concurrency);
const seconds = Number(args.seconds);
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (ms) => `${ms.toFixed(0)} ms`;

/** The example the renders draw, from the gallery's own source (the script runs under tsx). */
async function exampleHtml() {
  const { districtHealthExample } = await import("../demo/examples/index.ts");
  return districtHealthExample;
}

async function createDraft(html, n) {
  // A comment makes each draft's document its own, so no render is answered from storage.
  const res = await fetch(`${base}/dashboards/playground/draft`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `198.18.${(n >> 8) & 255}.${n & 255}` },
    body: JSON.stringify({ html: `${html}\n<!-- ${n} -->` }),
  });
  if (res.status !== 201) throw new Error(`creating a draft answered ${res.status}: ${await res.text()}`);
  return (await res.json()).id;
}

let address = 0;
async function render(id) {
  const t = performance.now();
  const res = await fetch(`${base}/dashboards/playground/draft/${id}/render`, { method: "POST", headers: { "x-forwarded-for": `198.19.${(++address >> 8) & 255}.${address & 255}` } });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`render answered ${res.status}: ${JSON.stringify(body)}`);
  if (body.report.errors.length) throw new Error(`the render found errors: ${JSON.stringify(body.report.errors)}`);
  return { ms: performance.now() - t, cached: body.cached, height: body.picture.height, bytes: body.picture.bytes };
}

ensureBuild();
const dataDir = path.join(root, ".data", "bench-render");
fs.rmSync(dataDir, { recursive: true, force: true });
const stop = await startServer({
  port,
  dataDir,
  readyPath: "/signin",
  env: {
    // The benchmark's own client addresses come through loopback as a trusted proxy, so the
    // per-address allowances do not cut the run short; the bounds being measured stay as set.
    TRUSTED_PROXY: "127.0.0.1",
    PLAYGROUND_CREATES_PER_MIN: "100000",
    PLAYGROUND_RENDERS_PER_DRAFT_PER_MIN: "100000",
    RENDERER_CONCURRENCY: String(concurrency),
    RENDERER_QUEUE: String(concurrency * 4),
  },
});
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const html = await exampleHtml();
  let n = 0;

  // The baseline: a page screenshot in a fresh context each time, as the renderer's own is.
  const screenshot = async () => {
    const t = performance.now();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${base}/signin`, { waitUntil: "load" });
    await page.screenshot({ type: "png", fullPage: true });
    await context.close();
    return performance.now() - t;
  };

  // (a) latency
  const renderMs = [];
  const shotMs = [];
  for (let i = 0; i < warmup + rounds; i++) {
    const id = await createDraft(html, n++);
    const r = await render(id);
    const s = await screenshot();
    if (i >= warmup) {
      renderMs.push(r.ms);
      shotMs.push(s);
    }
  }
  const again = [];
  const kept = await createDraft(html, n++);
  await render(kept);
  for (let i = 0; i < rounds; i++) again.push((await render(kept)).ms);

  // (b) throughput at the cap: `concurrency` clients, each drawing fresh drafts back to back.
  const drafts = await Promise.all(Array.from({ length: Math.ceil(seconds * 4 * concurrency) }, () => createDraft(html, n++)));
  let next = 0;
  const throughput = async (one) => {
    const until = performance.now() + seconds * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          await one();
          done++;
        }
      }),
    );
    return done / seconds;
  };
  const rendersPerSecond = await throughput(() => render(drafts[next++ % drafts.length]));
  const shotsPerSecond = await throughput(screenshot);

  const rows = [
    ["", "p50", "p99", "per second at concurrency " + concurrency],
    ["page screenshot (baseline)", fmt(percentile(shotMs, 50)), fmt(percentile(shotMs, 99)), shotsPerSecond.toFixed(2)],
    ["render (fresh draft)", fmt(percentile(renderMs, 50)), fmt(percentile(renderMs, 99)), rendersPerSecond.toFixed(2)],
    ["ratio render ÷ baseline", (percentile(renderMs, 50) / percentile(shotMs, 50)).toFixed(2), (percentile(renderMs, 99) / percentile(shotMs, 99)).toFixed(2), (rendersPerSecond / shotsPerSecond).toFixed(2)],
    ["render asked again (stored)", fmt(percentile(again, 50)), fmt(percentile(again, 99)), ""],
  ];
  console.log(`\nrenders of the district health example at 1280×800, ${rounds} rounds after ${warmup} warm-up; throughput over ${seconds} s\n`);
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
} finally {
  await browser.close();
  await stop();
}
