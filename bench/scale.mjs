// What a second instance buys: the same loads through nginx in front of one instance, then in
// front of two, on one PostgreSQL (scripts/cluster.mjs), with the statements each request sent
// to storage read off every instance's /metrics (db_statements_total).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:scale -- [--duration 8] [--connections 20] [--instances 2]
//
// Loads, each alone for --duration seconds with --connections clients:
//   api read       GET /api/me as a signed-in demo person
//   demo-API read  GET /dashboards/playground/api/cx/owners, anonymous
//   draft update   POST /dashboards/playground/draft/<write token>, a new revision each, every
//                  client its own draft (authors each editing theirs, not one row fought over)
//   watch stream   open a draft's event stream, read its first frame, close (a watcher arriving)
// The playground's per-address limits are raised so that what is measured is the service, not
// its allowances; each cluster gets a schema of its own, dropped afterwards. Everything shares
// the machine's cores: the load generator, nginx, the instances and PostgreSQL.
import http from "node:http";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import autocannon from "autocannon";
import pg from "pg";
import { startCluster } from "../scripts/cluster.mjs";
import { processes } from "./proc.mjs";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "8" },
    connections: { type: "string", default: "20" },
    instances: { type: "string", default: "2" },
    json: { type: "boolean", default: false },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const WARM_UP_S = 3;
const databaseUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const DRAFT = "/dashboards/playground/draft";
const LIMITS = {
  PLAYGROUND_CREATES_PER_MIN: "100000",
  PLAYGROUND_UPDATES_PER_MIN: "1000000",
  PLAYGROUND_READS_PER_MIN: "1000000",
  PLAYGROUND_DEMO_READS_PER_MIN: "1000000",
  PLAYGROUND_READ_MIB_PER_SEC: "1000",
  PLAYGROUND_STREAMS_PER_ADDRESS: "100000",
  PLAYGROUND_STREAMS_PER_DRAFT: "100000",
  PLAYGROUND_STREAMS_TOTAL: "200000",
};

async function statementsOf(instances) {
  let sum = 0;
  for (const node of instances) {
    const text = await (await fetch(`${node.url}/metrics`)).text();
    const line = text.split("\n").find((l) => l.startsWith("db_statements_total "));
    sum += Number(line?.split(" ")[1] ?? NaN);
  }
  return sum;
}

/** CPU time so far by part: the instances (each with its children), nginx, PostgreSQL, this load generator. */
function cpuByPart(instances) {
  const procs = processes();
  const under = (root) => {
    let ms = 0;
    for (const [pid, p] of procs) {
      for (let q = pid; q > 1; q = procs.get(q)?.ppid ?? 0) {
        if (q === root) {
          ms += p.cpuMs;
          break;
        }
      }
    }
    return ms;
  };
  const byName = (name) => [...procs.values()].filter((p) => p.comm === name).reduce((a, p) => a + p.cpuMs, 0);
  const self = process.cpuUsage();
  return { app: instances.reduce((a, n) => a + under(n.process.pid), 0), nginx: byName("nginx"), postgres: byName("postgres"), load: (self.user + self.system) / 1000 };
}

async function signIn(base, email) {
  const r = await fetch(`${base}/signin/demo`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ email }) });
  const cookie = /dd_session=[^;]+/.exec(r.headers.get("set-cookie") ?? "")?.[0];
  if (!cookie) throw new Error(`sign-in as ${email} failed: ${r.status}`);
  return cookie;
}

/** Both portals' first sync runs at start and costs far more than any load; measure after it. */
async function waitSynced(base, cookie) {
  for (let i = 0; i < 1200; i++) {
    const synced = await Promise.all(["customers", "users"].map(async (instance) => {
      const r = await fetch(`${base}/api/crm/${instance}/sources`, { headers: { cookie } });
      return r.ok && Boolean((await r.json())?.sources?.[0]?.lastSuccessAt);
    }));
    if (synced.every(Boolean)) return;
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error("the CRM sync did not complete");
}

async function createDraft(base) {
  const r = await fetch(`${base}${DRAFT}`, { method: "POST", headers: { "content-type": "text/html" }, body: "<h1>scale</h1>" });
  if (r.status !== 201) throw new Error(`creating a draft answered ${r.status}: ${await r.text()}`);
  return r.json();
}

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** Clients that each update a draft of their own again and again, over one kept-alive connection each. */
async function updates(postUrls, seconds = DURATION) {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const body = "<h1>scale</h1><p>again</p>";
  const once = (url) =>
    new Promise((resolve) => {
      const req = http.request(url, { method: "POST", agent, headers: { "content-type": "text/html", "content-length": Buffer.byteLength(body) } }, (res) => {
        if (res.statusCode === 200) done++;
        else failed++;
        res.resume();
        res.on("end", resolve);
      });
      req.on("error", () => {
        failed++;
        resolve();
      });
      req.end(body);
    });
  await Promise.all(postUrls.map(async (url) => {
    while (Date.now() < until) await once(new URL(url));
  }));
  agent.destroy();
  return { requests: done, failed, seconds };
}

/** Clients that each open the event stream, wait for its first `draft` frame and close, again and again. */
async function arrivals(eventsUrl, seconds = DURATION) {
  const url = new URL(eventsUrl);
  const until = Date.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  const agent = new http.Agent({ keepAlive: false });
  const once = () =>
    new Promise((resolve) => {
      const req = http.get(url, { agent, headers: { accept: "text/event-stream" } }, (res) => {
        if (res.statusCode !== 200) {
          failed++;
          res.resume();
          return resolve();
        }
        let text = "";
        res.on("data", (c) => {
          text += c;
          if (text.includes("event: draft")) {
            done++;
            req.destroy();
            resolve();
          }
        });
        res.on("close", resolve);
      });
      req.on("error", () => resolve());
    });
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (Date.now() < until) await once();
  }));
  agent.destroy();
  return { requests: done, failed, seconds };
}

async function measure(instances) {
  const schema = `bench_scale_${randomBytes(4).toString("hex")}`;
  const cluster = await startCluster({ instances, databaseUrl, quiet: !process.env.BENCH_VERBOSE, env: { DATABASE_SCHEMA: schema, ...LIMITS } });
  try {
    const base = cluster.url;
    const cookie = await signIn(base, "csm@demo.test");
    await waitSynced(base, await signIn(base, "admin@demo.test"));
    const own = [];
    for (let i = 0; i < CONNECTIONS; i++) own.push((await createDraft(base)).postUrl.replace(/^https?:\/\/[^/]+/, base));
    const watchable = await createDraft(base);
    const loads = [
      { name: "api read", run: (duration) => cannon({ url: `${base}/api/me`, headers: { cookie }, ...(duration && { duration }) }) },
      { name: "demo-API read", run: (duration) => cannon({ url: `${base}/dashboards/playground/api/cx/owners`, ...(duration && { duration }) }) },
      {
        name: "draft update",
        run: (duration) => updates(own, duration),
      },
      { name: "watch stream", run: (duration) => arrivals(watchable.eventsUrl.replace(/^https?:\/\/[^/]+/, base), duration) },
    ];
    const rows = [];
    for (const load of loads) {
      // A warm-up of the load itself, so that every instance has loaded the route's code, compiled
      // its hot paths and cached what the load reads before anything is counted.
      await load.run(WARM_UP_S);
      const before = await statementsOf(cluster.instances);
      const cpuBefore = cpuByPart(cluster.instances);
      const result = await load.run();
      const cpuAfter = cpuByPart(cluster.instances);
      const after = await statementsOf(cluster.instances);
      const ok = result.requests?.total ?? result.requests;
      const non2xx = result.non2xx ?? result.failed ?? 0;
      // CPU milliseconds each request cost each part: the capacity model's inputs (docs/capacity.md).
      const cpuMsPerRequest = Object.fromEntries(Object.keys(cpuAfter).map((k) => [k, ok ? (cpuAfter[k] - cpuBefore[k]) / ok : NaN]));
      rows.push({ load: load.name, perSecond: ok / (result.duration ?? result.seconds), non2xx, statementsPerRequest: ok ? (after - before) / ok : NaN, cpuMsPerRequest });
    }
    return rows;
  } finally {
    await cluster.stop();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}

/**
 * How much slower a core runs when every core is busy than when one is: the same CPU-bound work
 * (hashing and JSON, as a request does) timed on one worker thread alone, then on one per core at
 * once. On a virtual machine the cores share the host's caches and memory bandwidth, so work
 * costs more CPU time per request once the machine is full; the model needs that factor, and it
 * is measured apart from the loads it predicts.
 */
async function coreSlowdown(cores) {
  const body = `const { parentPort, workerData } = require("node:worker_threads");
const crypto = require("node:crypto");
let h = Buffer.alloc(32);
const t0 = process.hrtime.bigint();
for (let i = 0; i < workerData.n; i++) {
  h = crypto.createHash("sha256").update(h).digest();
  JSON.parse(JSON.stringify({ a: i, b: [i, i + 1], s: "x" + i }));
}
parentPort.postMessage(Number(process.hrtime.bigint() - t0) / 1e6);`;
  const run = (k, n) => Promise.all(Array.from({ length: k }, () => new Promise((resolve, reject) => {
    const w = new Worker(body, { eval: true, workerData: { n } });
    w.once("message", resolve);
    w.once("error", reject);
  })));
  const n = 300_000;
  await run(1, n / 4);
  const alone = [];
  const together = [];
  for (let round = 0; round < 3; round++) {
    alone.push((await run(1, n))[0]);
    together.push(...(await run(cores, n)));
  }
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  return median(together) / median(alone);
}

/**
 * The capacity model (docs/capacity.md) on this machine: from one instance's measured CPU per
 * request by part, what `n` instances sustain when they share `cores` with nginx, PostgreSQL and
 * the load generator. Two ceilings: each instance's own (a Node process serves from one thread,
 * so one instance reaches a throughput of its own before the machine is full), and the cores',
 * with each request's CPU time grown by how much slower a core runs once all are busy. The
 * one-instance run had `busy` cores in use; its costs are taken back to one busy core's speed,
 * then to a full machine's, the slowdown growing in proportion to the cores in use beyond one.
 */
function predict(oneRow, n, cores, slowdown) {
  const c = oneRow.cpuMsPerRequest;
  const perRequest = c.app + c.nginx + c.postgres + c.load;
  const busy = (oneRow.perSecond * perRequest) / 1000;
  const at = (used) => 1 + (slowdown - 1) * Math.min(1, Math.max(0, (used - 1) / Math.max(1, cores - 1)));
  const full = (perRequest / at(busy)) * slowdown;
  return { perSecond: Math.min((cores * 1000) / full, n * oneRow.perSecond), busy, perRequestFull: full };
}

const cores = (await import("node:os")).availableParallelism();
const slowdown = await coreSlowdown(cores);
const one = await measure(1);
const more = await measure(Number(args.instances));
const n = Number(args.instances);
const table = one.map((r, i) => ({ load: r.load, one: r, more: more[i], ratio: (more[i]?.perSecond ?? 0) / r.perSecond, predicted: predict(r, n, cores, slowdown) }));
if (args.json) console.log(JSON.stringify({ instances: n, duration: DURATION, connections: CONNECTIONS, cores, slowdown, table }, null, 2));
console.log(`\nnginx in front of 1, then ${n} instances on one PostgreSQL, ${CONNECTIONS} connections, ${DURATION} s per load\n`);
console.log(`| load | 1 instance /s | ${n} instances /s | ratio | statements per request (1 / ${n}) | non-2xx (1 / ${n}) |`);
console.log("|---|---:|---:|---:|---:|---:|");
for (const r of table) {
  console.log(`| ${r.load} | ${r.one.perSecond.toFixed(0)} | ${r.more.perSecond.toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.one.statementsPerRequest.toFixed(2)} / ${r.more.statementsPerRequest.toFixed(2)} | ${r.one.non2xx} / ${r.more.non2xx} |`);
}
console.log(`\nCPU ms per request, by part (1 instance / ${n}):\n`);
console.log("| load | app | nginx | PostgreSQL | load generator |");
console.log("|---|---:|---:|---:|---:|");
const pair = (r, k) => `${r.one.cpuMsPerRequest[k].toFixed(2)} / ${r.more.cpuMsPerRequest[k].toFixed(2)}`;
for (const r of table) console.log(`| ${r.load} | ${pair(r, "app")} | ${pair(r, "nginx")} | ${pair(r, "postgres")} | ${pair(r, "load")} |`);
console.log(`\nThe model's prediction for ${n} instances on ${cores} cores, from the one-instance run (a core runs ${slowdown.toFixed(2)}× slower with all ${cores} busy than alone):\n`);
console.log(`| load | cores busy (1 instance) | CPU ms per request, full machine | predicted /s | measured /s | error |`);
console.log("|---|---:|---:|---:|---:|---:|");
for (const r of table) {
  const p = r.predicted;
  console.log(`| ${r.load} | ${p.busy.toFixed(2)} | ${p.perRequestFull.toFixed(2)} | ${p.perSecond.toFixed(0)} | ${r.more.perSecond.toFixed(0)} | ${(((r.more.perSecond - p.perSecond) / p.perSecond) * 100).toFixed(0)} % |`);
}
