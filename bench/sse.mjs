// Draft stream latency: time from an update to its delivery at 1, 100 and 1,000 watchers over
// loopback HTTP, beside a baseline in the same run: the same number of watchers receiving a
// constant tiny frame handed straight to the hub (no HTTP request, validation or storage).
// Prints p50/p99 of both and their ratio.
//
//   npx tsx --conditions=react-server bench/sse.mjs [--rounds 20] [--warmup 3] [--watchers 1,100,1000] [--html-kb 20] [--time-limit 120]
//
// Watchers and server share one process (and the machine's cores), so absolute numbers are
// pessimistic; the ratio is the figure to compare between runs.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDb } from "../lib/db/index.ts";
import { playgroundRouter, serveStreaming } from "../lib/playground/loopback.ts";
import { createPlayground } from "../lib/playground/routes.ts";
import { EventStreamParser } from "../lib/playground/sse.ts";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    watchers: { type: "string", default: "1,100,1000" },
    "html-kb": { type: "string", default: "20" },
    "time-limit": { type: "string", default: "120" },
  },
});
const rounds = Number(args.rounds);
const warmup = Number(args.warmup);
const sizes = args.watchers.split(",").map(Number);
const deadline = Date.now() + Number(args["time-limit"]) * 1000;
const stopTimer = setTimeout(() => {
  console.error("benchmark time limit reached");
  process.exit(2);
}, Number(args["time-limit"]) * 1000);
stopTimer.unref();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-bench-sse-"));
const open = await openDb({ kind: "sqlite", file: path.join(dir, "app.sqlite") });
const playground = createPlayground(open, {
  log: () => {},
  settings: { createsPerMinute: 1e6, updatesPerMinute: 1e6, streamsPerDraft: 1e6, streamsPerAddress: 1e6, streamsTotal: 2e6 },
});
const server = await serveStreaming(playgroundRouter(playground));
const base = `${server.url}/dashboards/playground/draft`;
const html = `<!doctype html><main>${"<p>row of a realistic dashboard</p>\n".repeat(Math.ceil((Number(args["html-kb"]) * 1024) / 36))}</main>`;

async function post(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Opens `n` watchers; each reports (revision, time) for every `draft` event. */
async function watch(eventsUrl, n, onEvent) {
  const sockets = [];
  const firsts = [];
  for (let i = 0; i < n; i++) {
    firsts.push(
      new Promise((resolve, reject) => {
        const req = http.get(eventsUrl, { agent: false, headers: { accept: "text/event-stream" } }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
          let first = true;
          const parser = new EventStreamParser((m) => {
            if (first) {
              first = false;
              resolve();
              return;
            }
            onEvent(Number(m.lastEventId), performance.now());
          });
          res.on("data", (chunk) => parser.push(chunk));
        });
        req.on("error", reject);
        sockets.push(req);
      }),
    );
    // Connect in batches so the listen backlog is not the thing being measured.
    if (i % 100 === 99) await Promise.all(firsts.slice(-100));
  }
  await Promise.all(firsts);
  return () => sockets.forEach((s) => s.destroy());
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `rounds` sends; each waits until all `n` watchers have the revision. */
async function measure(n, send) {
  const samples = [];
  let pending = null;
  const onEvent = (revision, at) => {
    if (!pending || revision !== pending.revision) return;
    if (pending.counted) samples.push(at - pending.startedAt);
    if (--pending.left === 0) pending.done();
  };
  const { eventsUrl, sendOne, close: closeDraft } = await send();
  const stop = await watch(eventsUrl, n, onEvent);
  try {
    for (let r = 0; r < warmup + rounds; r++) {
      if (Date.now() > deadline) throw new Error("time limit");
      let done;
      const finished = new Promise((resolve) => (done = resolve));
      const startedAt = performance.now();
      pending = { revision: -1, left: n, startedAt, done, counted: r >= warmup };
      pending.revision = await sendOne(pending);
      await Promise.race([finished, new Promise((_, reject) => setTimeout(() => reject(new Error(`round ${r}: not all delivered`)), 10_000))]);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    stop();
    await closeDraft?.();
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), count: samples.length };
}

/** A real update: POST to postUrl, validated, stored, framed once and written to every watcher. */
async function updates() {
  const created = await post(base, { html });
  let revision = 1;
  return {
    eventsUrl: created.eventsUrl,
    sendOne: async (pending) => {
      // The revision is known before the answer arrives, so deliveries racing the answer count.
      pending.revision = ++revision;
      const answer = await post(created.postUrl, { html: `${html}<!-- ${revision} -->` });
      if (answer.revision !== revision) throw new Error(`expected revision ${revision}, got ${answer.revision}`);
      return revision;
    },
  };
}

/** The baseline: a constant tiny frame handed to the hub for the same number of watchers. */
async function baseline() {
  const created = await post(base, { html: "<p/>" });
  let revision = 1;
  const tiny = new TextEncoder().encode("data: {}\n\n");
  return {
    eventsUrl: created.eventsUrl,
    sendOne: async (pending) => {
      pending.revision = ++revision;
      const id = new TextEncoder().encode(`id: ${revision}\n`);
      const frame = new Uint8Array(id.length + tiny.length);
      frame.set(id);
      frame.set(tiny, id.length);
      playground.hub.publish(created.id, revision, () => frame);
      return revision;
    },
  };
}

const fmt = (ms) => `${ms.toFixed(2)} ms`.padStart(11);
console.log(`draft stream latency, ${rounds} rounds after ${warmup} warm-up, html ${Math.round(html.length / 1024)} KiB, loopback HTTP, SQLite`);
console.log(`${"watchers".padStart(8)} | ${"update p50".padStart(11)} ${"p99".padStart(11)} | ${"base p50".padStart(11)} ${"p99".padStart(11)} | ratio p50  p99`);
const results = [];
try {
  for (const n of sizes) {
    const b = await measure(n, baseline);
    const u = await measure(n, updates);
    results.push({ watchers: n, update: u, baseline: b });
    console.log(
      `${String(n).padStart(8)} | ${fmt(u.p50)} ${fmt(u.p99)} | ${fmt(b.p50)} ${fmt(b.p99)} | ${(u.p50 / b.p50).toFixed(1).padStart(8)} ${(u.p99 / b.p99).toFixed(1).padStart(5)}`,
    );
  }
} finally {
  await playground.close();
  await server.close();
  await open.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
