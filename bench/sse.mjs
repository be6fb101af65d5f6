// Draft stream latency and memory on the production server, started as users start it (`next
// start` on the production build): the time from an update POST to its `draft` event arriving at
// every watcher, at 100, 1,000, 5,000 and 10,000 watchers, beside a baseline in the same run: a
// bare node:http server, in a process of its own, writing a frame of the same size to the same
// number of watchers. Prints p50/p99 of both and their ratio, the first round after the crowd has
// joined (a link shared in a meeting: every watcher connected moments before; the first warm-up
// round, not in the percentiles), and each server's memory: RSS (and
// the app's JS heap) per watcher once they are connected, and the app's RSS after they have all
// disconnected, each taken after a full garbage collection (and, after they disconnected, 3 s for the
// allocator to give idle pages back).
//
//   node bench/sse.mjs [--rounds 20] [--warmup 3] [--watchers 100,1000,5000,10000] [--html-kb 20] [--time-limit 1800] [--port 3400]
//
// The app's collection is forced through the inspector (`--inspect` on a loopback port given only
// to the benchmark's server, port + 2), the baseline's with --expose-gc; RSS is the kernel's figure
// for the process. Every watcher is an open socket in this process and in the server: the file
// limit (`ulimit -n`, inherited by both) must be above the largest count by 512; below it the
// benchmark raises its own limit up to the hard one, or stops and says what it needs. It is printed.
//
// The watchers run in this process and share the machine's cores with the servers, so absolute
// numbers are pessimistic; the ratio is the figure to compare between runs.
import { fork, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { jemallocPath } from "../scripts/start.mjs";
import { root, startServer } from "./server.mjs";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    watchers: { type: "string", default: "100,1000,5000,10000" },
    "html-kb": { type: "string", default: "20" },
    "time-limit": { type: "string", default: "1800" },
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

// Each watcher holds a descriptor here and one in the server, which inherits this process's limit.
// Node cannot raise its own limit: below what the largest count needs, the benchmark starts itself
// again under a shell that raises it, as far as the hard limit allows; past that it says what to do.
const fdLimits = spawnSync("sh", ["-c", "ulimit -n; ulimit -Hn"], { encoding: "utf8" }).stdout.trim().split("\n");
const [fdLimit, fdHard] = fdLimits;
const fdNeeded = Math.max(...sizes) + 512;
const below = (limit) => limit !== "unlimited" && Number(limit) < fdNeeded;
if (below(fdLimit)) {
  if (below(fdHard) || process.env.BENCH_SSE_RAISED) {
    console.error(
      `bench:sse needs ${fdNeeded} open files for ${Math.max(...sizes)} watchers (one per watcher in this process and in each server, and some to spare); ` +
        `the limit is ${fdLimit} and can be raised to ${fdHard} (ulimit -Hn) here. Run it under \`ulimit -n ${fdNeeded}\` ` +
        `after the hard limit is raised (root: /etc/security/limits.conf, a container: --ulimit nofile=${fdNeeded}), or with fewer: --watchers 100,1000,5000`,
    );
    process.exit(2);
  }
  console.error(`open files limit ${fdLimit}: raising it to ${fdNeeded} for ${Math.max(...sizes)} watchers`);
  const again = spawnSync("sh", ["-c", `ulimit -n ${fdNeeded} && exec "$0" "$@"`, process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_SSE_RAISED: "1" },
  });
  process.exit(again.status ?? 1);
}

// The production build, made (or found current) as `npm start` makes it.
const built = spawnSync(process.execPath, [path.join(root, "scripts/start.mjs"), "--build-only"], { cwd: root, stdio: "inherit" });
if (built.status !== 0) throw new Error("the production build failed");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-bench-sse-"));
const port = Number(args.port);
const inspectPort = port + 2;
const stopServer = await startServer({
  port,
  dataDir: dir,
  readyPath: "/dashboards/playground/scenarios",
  quiet: /^(Debugger (listening|attached|ending)|For help, see)/,
  // Every watcher comes from this one address: the per-address caps would refuse them.
  env: {
    PLAYGROUND_CREATES_PER_MIN: "1000000",
    PLAYGROUND_UPDATES_PER_MIN: "1000000",
    PLAYGROUND_STREAMS_PER_DRAFT: "1000000",
    PLAYGROUND_STREAMS_PER_ADDRESS: "1000000",
    PLAYGROUND_STREAMS_TOTAL: "2000000",
    PLAYGROUND_READS_PER_MIN: "1000000",
    // Only so the benchmark can force a collection before it reads the memory figures.
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --inspect=127.0.0.1:${inspectPort}`.trim(),
  },
});
const raw = fork(path.join(root, "bench/raw-sse.mjs"), [String(port + 1)], { stdio: "inherit", execArgv: ["--expose-gc"] });
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

const WebSocket = createRequire(import.meta.url)("next/dist/compiled/ws");

/** The app server's memory after a full collection, forced over an inspector session. */
async function appMemory() {
  const [target] = await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json();
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let next = 0;
  const waiting = new Map();
  ws.on("message", (data) => {
    const m = JSON.parse(String(data));
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  try {
    // Twice: the first collection's finalizers free more for the second.
    await call("HeapProfiler.collectGarbage");
    await call("HeapProfiler.collectGarbage");
    const answer = await call("Runtime.evaluate", { expression: "JSON.stringify(process.memoryUsage())", returnByValue: true });
    const usage = JSON.parse(answer.result.result.value);
    // The kernel's figure for the whole process, as `ps` shows it.
    usage.rss = procRss(stopServer.pid) ?? usage.rss;
    return usage;
  } finally {
    ws.close();
  }
}

function procRss(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return kb ? Number(kb[1]) * 1024 : null;
}

/** The baseline's memory after a full collection, and how many streams it has open. */
function rawMemory() {
  return new Promise((resolve) => {
    const onMessage = (m) => {
      if (!m?.memory) return;
      raw.off("message", onMessage);
      resolve({ ...m.memory, rss: procRss(raw.pid) ?? m.memory.rss, streams: m.streams });
    };
    raw.on("message", onMessage);
    raw.send({ memory: true });
  });
}

async function appStreamsOpen() {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith("playground_event_streams_open "));
  return line ? Number(line.split(" ")[1]) : NaN;
}

/** Waits until the server has seen every watcher go (it learns of each close on its own time). */
async function drained(open) {
  for (let i = 0; i < 600; i++) {
    if ((await open()) === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("streams still open a minute after their clients went away");
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Runs `rounds` sends; each waits until all `n` watchers have the revision. `memory` reads the
 * server's memory before the watchers connect, once they have, and after they have gone.
 */
async function measure(n, send, memory) {
  const samples = [];
  // Update -> last delivery of each warm-up round: the first is the crowd that has just joined.
  const firstRounds = [];
  let pending = null;
  const onEvent = (revision, at) => {
    if (!pending || revision !== pending.revision) return;
    if (pending.counted) samples.push(at - pending.startedAt);
    else pending.last = at;
    if (--pending.left === 0) pending.done();
  };
  const { eventsUrl, sendOne, close: closeDraft } = await send();
  const before = await memory.read();
  const stop = await watch(eventsUrl, n, onEvent);
  let connected = null;
  let after = null;
  try {
    connected = await memory.read();
    for (let r = 0; r < warmup + rounds; r++) {
      if (Date.now() > deadline) throw new Error("time limit");
      let done;
      const finished = new Promise((resolve) => (done = resolve));
      const startedAt = performance.now();
      pending = { revision: -1, left: n, startedAt, done, counted: r >= warmup };
      pending.revision = await sendOne(pending);
      await Promise.race([finished, new Promise((_, reject) => setTimeout(() => reject(new Error(`round ${r}: not all delivered`)), Math.max(10_000, 3 * n)))]);
      if (!pending.counted) firstRounds.push(pending.last - startedAt);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    stop();
    await closeDraft?.();
  }
  await drained(memory.open);
  // jemalloc (scripts/start.mjs) gives freed pages back once they have been idle about a second.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  after = await memory.read();
  samples.sort((a, b) => a - b);
  return {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    count: samples.length,
    first: firstRounds[0] ?? NaN,
    rssPerWatcher: (connected.rss - before.rss) / n,
    heapPerWatcher: (connected.heapUsed - before.heapUsed) / n,
    rssBefore: before.rss,
    rssAfter: after.rss,
    // Told apart from RSS: JS objects still held, against memory the allocator keeps for reuse.
    heapBefore: before.heapUsed,
    heapAfter: after.heapUsed,
  };
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

const fmt = (ms) => `${ms.toFixed(1)} ms`.padStart(10);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`.padStart(9);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const appMem = { read: appMemory, open: appStreamsOpen };
const rawMem = { read: rawMemory, open: async () => (await rawMemory()).streams };
console.log(
  `draft stream latency and memory on the production server, ${rounds} rounds after ${warmup} warm-up, html ${Math.round(html.length / 1024)} KiB, SQLite; ` +
    `baseline: bare node:http, same frame size; open files limit ${fdLimit} (${fdNeeded} needed); ${os.cpus().length} cores, node ${process.version}; ` +
    `the app's allocator: ${jemallocPath() ? "jemalloc" : "the system's malloc"}`,
);
console.log("memory is taken after a full collection; RSS per watcher = (RSS connected - RSS before) / watchers; after = the app's RSS and JS heap once all have disconnected, against before");
console.log(
  `| watchers | app p50 | app p99 | raw p50 | raw p99 | ratio p50 | ratio p99 | first round app / raw | app RSS/watcher | app heap/watcher | raw RSS/watcher | app RSS before -> after disconnect | app heap before -> after |`,
);
console.log(`|---|---|---|---|---|---|---|---|---|---|---|---|---|`);
const results = [];
try {
  for (const n of sizes) {
    const b = await measure(n, baseline, rawMem);
    const u = await measure(n, updates, appMem);
    results.push({ watchers: n, update: u, baseline: b });
    const change = ((u.rssAfter - u.rssBefore) / u.rssBefore) * 100;
    console.log(
      `| ${String(n).padStart(6)} | ${fmt(u.p50)} | ${fmt(u.p99)} | ${fmt(b.p50)} | ${fmt(b.p99)} | ${(u.p50 / b.p50).toFixed(2).padStart(5)} | ${(u.p99 / b.p99).toFixed(2).padStart(5)} | ` +
        `${fmt(u.first)} / ${fmt(b.first)} (${(u.first / b.first).toFixed(2)}) | ` +
        `${kb(u.rssPerWatcher)} | ${kb(u.heapPerWatcher)} | ${kb(b.rssPerWatcher)} | ${mb(u.rssBefore)} -> ${mb(u.rssAfter)} (${change >= 0 ? "+" : ""}${change.toFixed(1)} %) | ${mb(u.heapBefore)} -> ${mb(u.heapAfter)} |`,
    );
  }
} finally {
  raw.kill();
  await stopServer();
  fs.rmSync(dir, { recursive: true, force: true });
}
