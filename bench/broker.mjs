// What carries a draft update to the other instances: PostgreSQL's LISTEN/NOTIFY (what the
// service uses, lib/live/fanout.ts) beside Redis pub/sub and NATS core publish, on this machine.
// Each instance is one subscribing connection; a publish is one draft update's notice, the
// payload the service sends ({id, revision}, about 60 bytes). For each broker and each number of
// listening instances it reports notices per second from `--publishers` concurrent publishers,
// the time from a publish to its arrival at the last listener (p50, p99), and the CPU each broker
// process spent per notice.
//
//   npm run bench:broker -- [--listeners 1,10,80] [--notices 3000] [--publishers 8]
//
// PostgreSQL's default max_connections is 100, and every listening instance holds one of them
// for as long as it runs: 80 listeners and 8 publishers leave room for the rest of the machine.
//
// PostgreSQL sends NOTIFY as the service does, inside the writing transaction
// (BEGIN; SELECT pg_notify(…); COMMIT), since a notice leaves only when its update commits:
// commits that notify take one lock for the whole database, which is what bounds it.
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { connect as natsConnect, StringCodec } from "nats";
import pg from "pg";
import { createClient } from "redis";
import { cpuOf } from "./proc.mjs";

const { values: args } = parseArgs({
  options: {
    listeners: { type: "string", default: "1,10,80" },
    notices: { type: "string", default: "3000" },
    publishers: { type: "string", default: "8" },
    json: { type: "boolean", default: false },
  },
});
const LISTENERS = args.listeners.split(",").map(Number);
const NOTICES = Number(args.notices);
const PUBLISHERS = Number(args.publishers);
const PG_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const NATS_URL = process.env.NATS_URL || "127.0.0.1:4222";
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Runs one broker at one listener count: every listener hands each notice it hears to `arrived`;
 * a notice counts as delivered when the last listener has it.
 */
async function measure(broker, listeners) {
  const channel = `bench_${randomBytes(4).toString("hex")}`;
  const pending = new Map(); // notice id → { sent, left }
  const latencies = [];
  let settle;
  const allDelivered = new Promise((resolve) => (settle = resolve));
  const arrived = (payload) => {
    const { n } = JSON.parse(payload);
    const p = pending.get(n);
    if (!p) return;
    if (--p.left === 0) {
      latencies.push(performance.now() - p.sent);
      pending.delete(n);
      if (latencies.length === NOTICES) settle();
    }
  };
  const side = await broker.open(channel, listeners, arrived);
  const token = randomBytes(16).toString("base64url");
  let next = 0;
  const cpu0 = cpuOf(broker.process);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: PUBLISHERS }, async (_, w) => {
    const publish = await side.publisher(w);
    while (next < NOTICES) {
      const n = next++;
      pending.set(n, { sent: performance.now(), left: listeners });
      await publish(JSON.stringify({ id: token, revision: n + 1, n }));
    }
  }));
  const published = performance.now() - t0;
  const timeout = setTimeout(() => settle(), 30_000);
  await allDelivered;
  clearTimeout(timeout);
  const elapsed = performance.now() - t0;
  const cpu = cpuOf(broker.process) - cpu0;
  await side.close();
  latencies.sort((a, b) => a - b);
  return {
    broker: broker.name,
    listeners,
    delivered: latencies.length,
    publishedPerSecond: (NOTICES / published) * 1000,
    deliveredPerSecond: (latencies.length / elapsed) * 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    brokerCpuMsPerNotice: cpu / NOTICES,
  };
}

const postgres = {
  name: "PostgreSQL LISTEN/NOTIFY",
  process: "postgres",
  async open(channel, listeners, arrived) {
    const subs = [];
    for (let i = 0; i < listeners; i++) {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      c.on("notification", (m) => arrived(m.payload));
      await c.query(`LISTEN ${channel}`);
      subs.push(c);
    }
    const pool = new pg.Pool({ connectionString: PG_URL, max: PUBLISHERS });
    return {
      publisher: async () => async (payload) => {
        const c = await pool.connect();
        try {
          await c.query("BEGIN");
          await c.query("SELECT pg_notify($1, $2)", [channel, payload]);
          await c.query("COMMIT");
        } finally {
          c.release();
        }
      },
      close: async () => {
        await pool.end();
        await Promise.all(subs.map((c) => c.end()));
      },
    };
  },
};

const redis = {
  name: "Redis pub/sub",
  process: "redis-server",
  async open(channel, listeners, arrived) {
    const subs = [];
    for (let i = 0; i < listeners; i++) {
      const c = createClient({ url: REDIS_URL });
      await c.connect();
      await c.subscribe(channel, arrived);
      subs.push(c);
    }
    const pubs = [];
    return {
      publisher: async () => {
        const c = createClient({ url: REDIS_URL });
        await c.connect();
        pubs.push(c);
        return (payload) => c.publish(channel, payload);
      },
      close: async () => {
        await Promise.all([...subs, ...pubs].map((c) => c.quit()));
      },
    };
  },
};

const nats = {
  name: "NATS core publish",
  process: "nats-server",
  async open(channel, listeners, arrived) {
    const codec = StringCodec();
    const subs = [];
    for (let i = 0; i < listeners; i++) {
      const nc = await natsConnect({ servers: NATS_URL });
      nc.subscribe(channel, { callback: (err, m) => err || arrived(codec.decode(m.data)) });
      await nc.flush();
      subs.push(nc);
    }
    const pubs = [];
    return {
      publisher: async () => {
        const nc = await natsConnect({ servers: NATS_URL });
        pubs.push(nc);
        // A publish is fire-and-forget; flushing waits for the server's answer, as a commit would.
        return async (payload) => {
          nc.publish(channel, codec.encode(payload));
          await nc.flush();
        };
      },
      close: async () => {
        await Promise.all([...subs, ...pubs].map((nc) => nc.close()));
      },
    };
  },
};

const rows = [];
for (const listeners of LISTENERS) {
  for (const broker of [postgres, redis, nats]) rows.push(await measure(broker, listeners));
}
if (args.json) console.log(JSON.stringify(rows, null, 2));
console.log(`\n${NOTICES} notices from ${PUBLISHERS} publishers to each number of listening instances\n`);
console.log("| broker | listeners | published /s | delivered to all /s | p50 | p99 | broker CPU ms per notice | delivered |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  console.log(`| ${r.broker} | ${r.listeners} | ${r.publishedPerSecond.toFixed(0)} | ${r.deliveredPerSecond.toFixed(0)} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.brokerCpuMsPerNotice.toFixed(3)} | ${r.delivered} of ${NOTICES} |`);
}
