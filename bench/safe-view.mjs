// The safe view (someone else's saved dashboard drawn by the service on the viewer's data) on the
// production build, beside the interactive view of the same dashboard in the same run:
//
// (a) time to the safe view, cold: the admin opens a dashboard of csm's never drawn for them, from
//     navigation to the drawn document loaded in its frame (p50, p99);
// (b) time to the safe view, remembered: the same page opened again (the drawing served as it was,
//     its reads made again and found unchanged);
// (c) the baseline: the owner opening their own dashboard interactively, from navigation to the
//     dashboard's first contentful paint inside its frame;
// (d) throughput at the renderer's cap: cold drawings (GET <path>/drawn) kept exactly at the cap
//     for the run's length, per second, beside the agents' renders of the same dashboard on demo
//     data (POST .../render) at the same concurrency.
//
//   npm run bench:safe-view -- [--port 3570] [--rounds 12] [--warmup 2] [--concurrency 2] [--seconds 20]
//
// The dashboard is the gallery's CX book (what csm's own "my-book" is), at desktop size.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { ensureBuild } from "../scripts/start.mjs";
import { root, startServer } from "./server.mjs";

const { values: args } = parseArgs({
  options: {
    port: { type: "string", default: "3570" },
    rounds: { type: "string", default: "12" },
    warmup: { type: "string", default: "2" },
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

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (ms) => `${ms.toFixed(0)} ms`;
let address = 0;
/** Each measured client its own address (through loopback as a trusted proxy): no share is met. */
const nextAddress = () => `198.18.${(++address >> 8) & 255}.${address & 255}`;

ensureBuild();
const dataDir = path.join(root, ".data", "bench-safe-view");
fs.rmSync(dataDir, { recursive: true, force: true });
const stop = await startServer({
  port,
  dataDir,
  readyPath: "/signin",
  env: {
    TRUSTED_PROXY: "127.0.0.1",
    PLAYGROUND_CREATES_PER_MIN: "100000",
    PLAYGROUND_RENDERS_PER_DRAFT_PER_MIN: "100000",
    RENDERER_CONCURRENCY: String(concurrency),
    RENDERER_QUEUE: String(concurrency * 4),
  },
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});

/** A browser context signed in as `email` by the demo sign-in, with its own client address. */
async function personContext(email) {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 }, extraHTTPHeaders: { "x-forwarded-for": nextAddress() } });
  const res = await context.request.post("/signin/demo", { form: { email }, maxRedirects: 0 });
  if (res.status() !== 303) throw new Error(`demo sign-in as ${email} answered ${res.status()}`);
  return context;
}

/** Saves `html` at /~/csm/<slug> as csm would from the site's own page (session, origin, CSRF). */
async function save(csm, slug, html) {
  const page = await (await csm.request.get("/dashboards/playground")).text();
  const csrf = /csrf\\?":\\?"([A-Za-z0-9_-]+)/.exec(page)?.[1];
  if (!csrf) throw new Error("no CSRF token on the playground page");
  const res = await csm.request.post(`/~/csm/${slug}`, {
    headers: { "content-type": "text/html", "x-csrf-token": csrf, "sec-fetch-site": "same-origin", origin: base },
    data: html,
  });
  if (res.status() !== 201 && res.status() !== 200) throw new Error(`saving ${slug} answered ${res.status()}: ${await res.text()}`);
}

/** Milliseconds from navigation to the safe view's document loaded in its frame. */
async function openSafe(context, slug) {
  const page = await context.newPage();
  try {
    await page.addInitScript(() => {
      new MutationObserver(() => {
        const frame = document.querySelector('[data-testid="safe-view-frame"]');
        if (frame && !frame.dataset.watched) {
          frame.dataset.watched = "1";
          frame.addEventListener("load", () => (window.__safeAt = performance.now()), { once: true });
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`/~/csm/${slug}`);
    await page.waitForFunction(() => typeof window.__safeAt === "number", null, { timeout: 60_000 });
    const text = await page.frameLocator('[data-testid="safe-view-frame"]').locator("body").innerText();
    if (text.trim().length === 0) throw new Error(`the safe view of ${slug} drew nothing`);
    return await page.evaluate(() => window.__safeAt);
  } finally {
    await page.close();
  }
}

/** Milliseconds from navigation to the dashboard's first contentful paint in its frame. */
async function openInteractive(context, slug) {
  const page = await context.newPage();
  try {
    await page.goto(`/~/csm/${slug}`);
    const frame = page.frameLocator('[data-testid="dashboard-frame"]');
    await frame.locator("body").waitFor();
    const handle = await page.locator('[data-testid="dashboard-frame"]').elementHandle();
    const inner = await handle.contentFrame();
    const paint = await inner.waitForFunction(
      () => {
        const fcp = performance.getEntriesByName("first-contentful-paint")[0];
        return fcp ? performance.timeOrigin + fcp.startTime : null;
      },
      null,
      { timeout: 60_000 },
    );
    const at = await paint.jsonValue();
    const origin = await page.evaluate(() => performance.timeOrigin);
    return at - origin;
  } finally {
    await page.close();
  }
}

try {
  const { cxBookExample } = await import("../demo/examples/cx-book.ts");
  const csm = await personContext("csm@demo.test");
  const admin = await personContext("admin@demo.test");
  const cold = warmup + rounds;
  const pool = Math.ceil(seconds * 2 * concurrency) + 10;
  for (let i = 0; i < cold + pool; i++) await save(csm, `bench-safe-${i}`, `${cxBookExample}\n<!-- ${i} -->`);

  const coldMs = [];
  const rememberedMs = [];
  const interactiveMs = [];
  for (let i = 0; i < cold; i++) {
    const slug = `bench-safe-${i}`;
    const c = await openSafe(admin, slug);
    const r = await openSafe(admin, slug);
    const f = await openInteractive(csm, slug);
    if (i >= warmup) {
      coldMs.push(c);
      rememberedMs.push(r);
      interactiveMs.push(f);
    }
  }

  // (d) throughput at the cap: `concurrency` clients, each asking for cold drawings back to back.
  let next = cold;
  const drawOne = async () => {
    const slug = `bench-safe-${next++}`;
    if (next > cold + pool) throw new Error("the run outlasted its dashboards: raise the pool");
    const res = await admin.request.get(`/~/csm/${slug}/drawn?viewport=desktop`, { headers: { "x-forwarded-for": nextAddress() } });
    if (res.status() !== 200) throw new Error(`drawing ${slug} answered ${res.status()}: ${await res.text()}`);
    const body = await res.json();
    if (body.remembered) throw new Error(`${slug} was remembered, not drawn`);
  };
  let n = 0;
  const renderOne = async () => {
    const created = await fetch(`${base}/dashboards/playground/draft`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": nextAddress() },
      body: JSON.stringify({ html: `${cxBookExample}\n<!-- render ${n++} -->` }),
    });
    if (created.status !== 201) throw new Error(`creating a draft answered ${created.status}`);
    const { id } = await created.json();
    const res = await fetch(`${base}/dashboards/playground/draft/${id}/render`, { method: "POST", headers: { "x-forwarded-for": nextAddress() } });
    if (res.status !== 200) throw new Error(`render answered ${res.status}: ${await res.text()}`);
  };
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
  const drawingsPerSecond = await throughput(drawOne);
  const rendersPerSecond = await throughput(renderOne);

  const rows = [
    ["", "p50", "p99"],
    ["interactive view, own dashboard: first paint in its frame (baseline)", fmt(percentile(interactiveMs, 50)), fmt(percentile(interactiveMs, 99))],
    ["safe view, cold (drawn for this viewer and revision)", fmt(percentile(coldMs, 50)), fmt(percentile(coldMs, 99))],
    ["ratio cold ÷ baseline", (percentile(coldMs, 50) / percentile(interactiveMs, 50)).toFixed(2), (percentile(coldMs, 99) / percentile(interactiveMs, 99)).toFixed(2)],
    ["safe view, remembered (opened again)", fmt(percentile(rememberedMs, 50)), fmt(percentile(rememberedMs, 99))],
    ["ratio remembered ÷ baseline", (percentile(rememberedMs, 50) / percentile(interactiveMs, 50)).toFixed(2), (percentile(rememberedMs, 99) / percentile(interactiveMs, 99)).toFixed(2)],
  ];
  console.log(`\nthe CX book at 1280×800, ${rounds} rounds after ${warmup} warm-up\n`);
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  console.log(`\nthroughput at the renderer's cap (${concurrency}), ${seconds} s each\n`);
  console.log("| | per second |");
  console.log(`| agents' renders on demo data (baseline) | ${rendersPerSecond.toFixed(2)} |`);
  console.log(`| safe-view drawings on the viewer's data | ${drawingsPerSecond.toFixed(2)} |`);
  console.log(`| ratio drawings ÷ renders | ${(drawingsPerSecond / rendersPerSecond).toFixed(2)} |`);
} finally {
  await browser.close();
  await stop();
}
