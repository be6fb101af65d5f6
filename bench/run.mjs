// Loads endpoints of the production build with autocannon, beside a baseline route that
// returns a constant small JSON in the same build, and prints req/s, p50, p99 and the ratio.
//
//   npm run bench -- [--duration 5] [--rounds 3] [--connections 10] [--only me] [--scale 1]
//
// Each target is measured in rounds, each right after a baseline run on the same server, and
// the median of the per-round ratios is reported: drift in machine load (two shared cores)
// then moves both sides of a ratio together.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { ensureBuild } from "../scripts/start.mjs";
import { root, startServer } from "./server.mjs";
import { servers, targets } from "./targets.mjs";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "10" },
    only: { type: "string" },
    scale: { type: "string", default: "1" },
    port: { type: "string", default: "3300" },
    rounds: { type: "string", default: "3" },
  },
});
const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;

ensureBuild();

function start(extraEnv) {
  const scale = extraEnv.DEMO_SCALE ?? args.scale;
  return startServer({
    port,
    dataDir: path.join(root, ".data", `bench-scale-${scale}`),
    readyPath: "/bench-baseline",
    env: { DEMO_SCALE: args.scale, BENCH_BASELINE: "1", ...extraEnv },
  });
}

/** The CRM views answer only after the first sync; wait for it so no measurement sees waitingOn. */
async function waitSynced(cookie) {
  for (let i = 0; i < 1200; i++) {
    const r = await fetch(`${base}/api/crm/customers/sources`, { headers: { cookie } });
    const body = r.ok ? await r.json() : null;
    if (body?.sources?.[0]?.lastSuccessAt) return;
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error("the CRM sync did not complete");
}

async function signIn(email) {
  const r = await fetch(`${base}/signin/demo`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email }),
  });
  const cookie = /dd_session=[^;]+/.exec(r.headers.get("set-cookie") ?? "")?.[0];
  if (!cookie) throw new Error(`sign-in as ${email} failed: ${r.status}`);
  return cookie;
}

function load(url, headers, duration = Number(args.duration)) {
  return autocannon({ url, headers, connections: Number(args.connections), duration });
}

async function measure(name, url, headers = {}) {
  await load(url, headers, 2); // warm-up: JIT, connection pools, first-request compilation
  const r = await load(url, headers);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { name, url: url.replace(base, ""), rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const chosen = targets.filter((t) => !args.only || args.only.split(",").some((o) => t.name.startsWith(o)));
const table = [];
for (const [serverName, env] of Object.entries(servers)) {
  const mine = chosen.filter((t) => t.server === serverName);
  if (mine.length === 0) continue;
  const stop = await start(env);
  const cookies = {};
  for (const t of mine) {
    cookies[t.as] ??= await signIn(t.as);
    await waitSynced(cookies[t.as]);
    const getJson = async (p) => (await fetch(`${base}${p}`, { headers: { cookie: cookies[t.as] } })).json();
    const targetPath = typeof t.path === "function" ? await t.path(getJson) : t.path;
    // The first answer after a sync is computed; later ones may be remembered. Time the first.
    const first = await fetch(`${base}${targetPath}`, { headers: { cookie: cookies[t.as] } });
    const firstMs = Number(/dur=([\d.]+)/.exec(first.headers.get("server-timing") ?? "")?.[1] ?? NaN);
    await first.arrayBuffer();
    const bodyBytes = (await (await fetch(`${base}${targetPath}`, { headers: { cookie: cookies[t.as] } })).arrayBuffer()).byteLength;
    const rounds = [];
    for (let i = 0; i < Number(args.rounds); i++) {
      const baseline = await measure("baseline", `${base}/bench-baseline`);
      const row = await measure(t.name, `${base}${targetPath}`, { cookie: cookies[t.as] });
      // A same-size constant answer: what the framework alone manages for a body this big.
      const sized = bodyBytes > 4096 ? await measure("baseline sized", `${base}/bench-baseline?bytes=${bodyBytes}`) : baseline;
      rounds.push({ baseline, row, ratio: row.rps / baseline.rps, sizedRatio: row.rps / sized.rps });
    }
    const mid = rounds.find((r) => r.ratio === median(rounds.map((x) => x.ratio)));
    table.push({
      ...mid.row,
      name: `${t.name} [${serverName}]`,
      baselineRps: mid.baseline.rps,
      ratio: mid.ratio,
      sizedRatio: median(rounds.map((r) => r.sizedRatio)),
      bodyBytes,
      ratios: rounds.map((r) => +r.ratio.toFixed(2)),
      firstMs,
    });
  }
  await stop();
}

console.log(`\nconnections ${args.connections}, ${args.duration} s each, scale ${args.scale}`);
console.log("median of the rounds; ratio = target req/s ÷ baseline req/s measured just before it");
console.log("first ms = server time (Server-Timing) of the first answer, before anything is remembered");
console.log("sized = ratio to a constant answer of the same size (shown for answers over 4 KB)");
console.log("name".padEnd(30), "req/s".padStart(7), "base".padStart(7), "p50 ms".padStart(7), "p99 ms".padStart(7), "ratio".padStart(6), "sized".padStart(6), "KB".padStart(6), "first ms".padStart(9), "  rounds");
for (const r of table) {
  console.log(
    r.name.padEnd(30),
    String(Math.round(r.rps)).padStart(7),
    String(Math.round(r.baselineRps)).padStart(7),
    String(r.p50).padStart(7),
    String(r.p99).padStart(7),
    r.ratio.toFixed(2).padStart(6),
    (r.bodyBytes > 4096 ? r.sizedRatio.toFixed(2) : "-").padStart(6),
    (r.bodyBytes / 1024).toFixed(1).padStart(6),
    (Number.isNaN(r.firstMs) ? "-" : r.firstMs.toFixed(1)).padStart(9),
    " ",
    r.ratios.join(" "),
  );
}
fs.mkdirSync(path.join(root, "bench", "results"), { recursive: true });
fs.writeFileSync(path.join(root, "bench", "results", "latest.json"), JSON.stringify({ at: new Date().toISOString(), args, rows: table }, null, 2));
process.exit(0);
