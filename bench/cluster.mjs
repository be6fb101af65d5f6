// The multi-instance deployment under a kill: nginx in front of two production servers on one
// PostgreSQL (scripts/cluster.mjs), W watchers connected through nginx, U updates made
// alternately through either instance, and one instance killed with -9 halfway. Updates are
// paced (each waits until every watcher has it), so every watcher should see every revision
// exactly once: the run counts revisions lost, duplicated or out of order at any watcher, how
// many watchers reconnected, how long they took to be back, and update → last delivery.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/cluster.mjs [--watchers 300] [--updates 1000]
//
// It uses a schema of its own (dropped afterwards). The watchers run in this process and share
// the cores with nginx and both servers.
import http from "node:http";
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";
import { startCluster } from "../scripts/cluster.mjs";

const { values: args } = parseArgs({
  options: {
    watchers: { type: "string", default: "300" },
    updates: { type: "string", default: "1000" },
    "kill-at": { type: "string" },
  },
});
const WATCHERS = Number(args.watchers);
const UPDATES = Number(args.updates);
const KILL_AT = Number(args["kill-at"] ?? Math.floor(UPDATES / 2));
const databaseUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const schema = `bench_cluster_${randomBytes(4).toString("hex")}`;
const DRAFT = "/dashboards/playground/draft";

/** An EventSource in miniature: `draft` events' ids, reconnecting after `retry:` with Last-Event-ID. */
class Watcher {
  constructor(url) {
    this.url = url;
    this.revisions = [];
    this.reconnects = 0;
    this.last = null;
    this.retry = 2000;
    this.closed = false;
    this.connect();
  }
  newest() {
    return this.revisions.at(-1) ?? 0;
  }
  connect() {
    let buffer = "";
    let again = false;
    const reconnect = () => {
      if (again || this.closed) return;
      again = true;
      this.reconnects++;
      setTimeout(() => this.connect(), this.retry);
    };
    const headers = this.last === null ? {} : { "last-event-id": this.last };
    this.request = http.get(this.url, { headers, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        res.on("end", reconnect);
        return;
      }
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id = null;
          let event = "message";
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("retry: ")) this.retry = Number(line.slice(7));
          }
          if (event === "draft" && id !== null) {
            this.last = id;
            this.revisions.push(Number(id));
          }
        }
      });
      res.on("end", reconnect);
      res.on("close", reconnect);
      res.on("error", reconnect);
    });
    this.request.on("error", reconnect);
  }
  close() {
    this.closed = true;
    this.request?.destroy();
  }
}

async function everyoneHas(watchers, revision, ms = 60_000) {
  const end = Date.now() + ms;
  while (watchers.some((w) => w.newest() < revision)) {
    if (Date.now() > end) throw new Error(`${watchers.filter((w) => w.newest() < revision).length} watchers never received revision ${revision}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

function serverProcessOf(node) {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === node.process.pid) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error("no server process under start.mjs");
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

const cluster = await startCluster({
  instances: 2,
  databaseUrl,
  quiet: true,
  env: {
    DATABASE_SCHEMA: schema,
    DEMO_TENANT: "0",
    PLAYGROUND_STREAMS_PER_DRAFT: "100000",
    PLAYGROUND_STREAMS_PER_ADDRESS: "100000",
    PLAYGROUND_STREAMS_TOTAL: "200000",
    PLAYGROUND_READS_PER_MIN: "1000000",
    PLAYGROUND_UPDATES_PER_MIN: "1000000",
  },
});
let watchers = [];
try {
  const created = await (await fetch(`${cluster.url}${DRAFT}`, { method: "POST", headers: { "content-type": "text/html" }, body: "<p>1</p>" })).json();
  const writePath = new URL(created.postUrl).pathname;
  watchers = Array.from({ length: WATCHERS }, () => new Watcher(`${cluster.url}${DRAFT}/${created.id}/events`));
  await everyoneHas(watchers, 1);
  const [a, b] = cluster.instances;
  const delivery = [];
  let recovery = NaN;
  for (let revision = 2; revision <= UPDATES + 1; revision++) {
    const via = revision < KILL_AT && revision % 2 === 1 ? b : a;
    // The kill comes as the update is made through the survivor: the dying instance's watchers
    // miss it and must get it when they reconnect, by Last-Event-ID.
    if (revision === KILL_AT) process.kill(serverProcessOf(b), "SIGKILL");
    const t0 = performance.now();
    const res = await fetch(`${via.url}${writePath}`, { method: "POST", headers: { "content-type": "text/html" }, body: `<p>${revision}</p>` });
    if (res.status !== 200) throw new Error(`update ${revision} answered ${res.status}`);
    await res.arrayBuffer();
    await everyoneHas(watchers, revision);
    const ms = performance.now() - t0;
    if (revision === KILL_AT) recovery = ms;
    else delivery.push(ms);
  }
  let lost = 0;
  let duplicated = 0;
  let disordered = 0;
  for (const w of watchers) {
    const seen = new Set();
    for (let i = 0; i < w.revisions.length; i++) {
      if (seen.has(w.revisions[i])) duplicated++;
      if (i > 0 && w.revisions[i] < w.revisions[i - 1]) disordered++;
      seen.add(w.revisions[i]);
    }
    for (let r = 1; r <= UPDATES + 1; r++) if (!seen.has(r)) lost++;
  }
  const moved = watchers.filter((w) => w.reconnects > 0).length;
  console.log(`watchers ${WATCHERS}, updates ${UPDATES} (through either instance until the kill at update ${KILL_AT}, then the survivor)`);
  console.log(`revisions lost ${lost}, duplicated ${duplicated}, out of order ${disordered} (over all watchers)`);
  console.log(`watchers that reconnected after the kill: ${moved}; the update made as it died reached every watcher in ${recovery.toFixed(0)} ms (reconnects wait the stream's retry: delay)`);
  console.log(`update → last delivery, other updates: p50 ${pct(delivery, 50).toFixed(1)} ms, p99 ${pct(delivery, 99).toFixed(1)} ms`);
  if (lost || duplicated || disordered) process.exitCode = 1;
} finally {
  for (const w of watchers) w.close();
  await cluster.stop();
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  await c.query(`drop schema if exists "${schema}" cascade`);
  await c.end();
}
