// Draft stream latency on the production server, started as users start it (`next start` on
// the production build): the time from an update POST to its `draft` event arriving at every
// watcher, at 1, 100 and 1,000 watchers, beside a baseline in the same run: a bare node:http
// server, in a process of its own, writing a frame of the same size to the same number of
// watchers. Prints p50/p99 of both and their ratio.
//
//   node bench/sse.mjs [--rounds 20] [--warmup 3] [--watchers 1,100,1000] [--html-kb 20] [--time-limit 900] [--port 3400]
//
// The watchers run in this process and share the machine's cores with the servers, so absolute
// numbers are pessimistic; the ratio is the figure to compare between runs.
import { fork, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { root, startServer } from "./server.mjs";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    watchers: { type: "string", default: "1,100,1000" },
    "html-kb": { type: "string", default: "20" },
    "time-limit": { type: "string", default: "900" },
    port: { type: "string", default: "3400" },
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

// The production build, made (or found current) as `npm start` makes it.
const built = spawnSync(process.execPath, [path.join(root, "scripts/start.mjs"), "--build-only"], { cwd: root, stdio: "inherit" });
if (built.status !== 0) throw new Error("the production build failed");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-bench-sse-"));
const port = Number(args.port);
const stopServer = await startServer({
  port,
  dataDir: dir,
  readyPath: "/dashboards/playground/scenarios",
  // Every watcher comes from this one address: the per-address caps would refuse them.
  env: {
    PLAYGROUND_CREATES_PER_MIN: "1000000",
    PLAYGROUND_UPDATES_PER_MIN: "1000000",
    PLAYGROUND_STREAMS_PER_DRAFT: "1000000",
    PLAYGROUND_STREAMS_PER_ADDRESS: "1000000",
    PLAYGROUND_STREAMS_TOTAL: "2000000",
    PLAYGROUND_READS_PER_MIN: "1000000",
  },
});
const raw = fork(path.join(root, "bench/raw-sse.mjs"), [String(port + 1)], { stdio: "inherit" });
const rawPort = await new Promise((resolve) => raw.once("message", (m) => resolve(m.port)));
const base = `http://127.0.0.1:${port}/dashboards/playground/draft`;
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
  const close = () => sockets.forEach((s) => s.destroy());
  try {
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
  } catch (err) {
    // A refused or broken stream ends the run; the others must not hold the server open.
    close();
    throw err;
  }
  return close;
}

/** Just enough of an EventSource's parsing: a message is a block with data; its id persists. */
class EventStreamParser {
  constructor(onMessage) {
    this.onMessage = onMessage;
    this.buffer = "";
    this.lastEventId = "";
    this.decoder = new TextDecoder();
  }
  push(chunk) {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    let at;
    while ((at = this.buffer.indexOf("\n\n")) >= 0) {
      const block = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 2);
      let data = false;
      for (const line of block.split("\n")) {
        if (line.startsWith("id:")) this.lastEventId = line.slice(3).trim();
        else if (line.startsWith("data:")) data = true;
      }
      if (data) this.onMessage({ lastEventId: this.lastEventId });
    }
  }
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

/** The baseline: the bare server writes a frame of the draft event's size to every watcher. */
async function baseline() {
  let revision = 1;
  const bytes = JSON.stringify({ html }).length;
  return {
    eventsUrl: `http://127.0.0.1:${rawPort}/events`,
    sendOne: async (pending) => {
      pending.revision = ++revision;
      const res = await fetch(`http://127.0.0.1:${rawPort}/send?id=${revision}&bytes=${bytes}`, { method: "POST" });
      if (res.status !== 204) throw new Error(`raw server answered ${res.status}`);
      return revision;
    },
  };
}

const fmt = (ms) => `${ms.toFixed(2)} ms`.padStart(11);
console.log(`draft stream latency on the production server, ${rounds} rounds after ${warmup} warm-up, html ${Math.round(html.length / 1024)} KiB, SQLite; baseline: bare node:http, same frame size`);
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
  raw.kill();
  await stopServer();
  fs.rmSync(dir, { recursive: true, force: true });
}
