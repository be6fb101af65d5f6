// Anonymous reads of a large draft on the production build, as users run it (`next start`):
//
//   (a) GET /dashboards/playground/draft/<id> of a 2 MiB draft built to be expensive to check
//       (`<script>a+a+…</script>`), beside a constant answer of the same size
//       (`/bench-baseline?bytes=N`) on the same server: the ratio of their req/s. Target: about
//       1, i.e. a read costs about what sending 2 MiB costs.
//   (b) /api/me latency (p50, p99) idle, then while 50 connections read that draft without
//       pause. Target: p99 within 2× of idle. An address gets a few large answers written at a
//       time (READS_IN_FLIGHT_PER_ADDRESS); the rest are refused with 429 at once, and the
//       figures say how many were served and how many refused.
//
//   node bench/draft-reads.mjs [--duration 5] [--rounds 3] [--port 3300] [--limits raised|product]
//
// --limits raised (the default) runs the server with the per-minute read limit and the byte
// budget for large answers raised: the load comes from one address, and (a) measures what a read
// costs, not the limits (which would answer most of them 429). --limits product runs the server
// as users start it; (b) then says what the limits leave of /api/me under the same readers.
// (a) uses as many connections as one address may have answers in flight.
import { spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { ensureBuild } from "../scripts/start.mjs";
import { root, startServer } from "./server.mjs";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    port: { type: "string", default: "3300" },
    readers: { type: "string", default: "50" },
    limits: { type: "string", default: "raised" },
    // Requests per second for all readers together; 0 reads without pause (a flood).
    rate: { type: "string", default: "0" },
  },
});
const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;
const duration = Number(args.duration);

ensureBuild();
const stop = await startServer({
  port,
  dataDir: path.join(root, ".data", "bench-draft-reads"),
  readyPath: "/bench-baseline",
  env: {
    BENCH_BASELINE: "1",
    PLAYGROUND_CREATES_PER_MIN: "1000",
    ...(args.limits === "product" ? {} : { PLAYGROUND_READS_PER_MIN: "100000000", PLAYGROUND_READ_MIB_PER_SEC: "100000" }),
  },
});

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const load = (url, connections, headers = {}, seconds = duration) => autocannon({ url, connections, duration: seconds, headers });

try {
  // The issue's hostile draft: one script of a+a+…, just under 2 MiB.
  const html = `<script>${"a+".repeat((2 * 1024 * 1024 - 40) / 2)}a</script>`;
  const created = await fetch(`${base}/dashboards/playground/draft`, { method: "POST", headers: { "content-type": "text/html" }, body: html });
  if (created.status !== 201) throw new Error(`creating the draft answered ${created.status}`);
  const { id } = await created.json();
  const draftUrl = `${base}/dashboards/playground/draft/${id}`;
  const t0 = performance.now();
  const bytes = (await (await fetch(draftUrl)).arrayBuffer()).byteLength;
  const firstMs = performance.now() - t0;
  const sizedUrl = `${base}/bench-baseline?bytes=${bytes}`;

  // (a) a read beside a same-size constant answer, in rounds.
  const inFlight = 4;
  await load(draftUrl, inFlight, {}, 2);
  await load(sizedUrl, inFlight, {}, 2);
  const rounds = [];
  for (let i = 0; i < (args.limits === "product" ? 0 : Number(args.rounds)); i++) {
    const sized = await load(sizedUrl, inFlight);
    const read = await load(draftUrl, inFlight);
    if (read.non2xx || sized.non2xx || read.errors || sized.errors) throw new Error(`non-2xx or errors: read ${read.non2xx}/${read.errors}, sized ${sized.non2xx}/${sized.errors}`);
    rounds.push({ read, sized, ratio: read.requests.average / sized.requests.average });
  }
  const mid = rounds.find((r) => r.ratio === median(rounds.map((x) => x.ratio)));

  // (b) /api/me idle, then under 50 concurrent anonymous reads of the draft.
  const signin = await fetch(`${base}/signin/demo`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "csm@demo.test" }),
  });
  const cookie = /dd_session=[^;]+/.exec(signin.headers.get("set-cookie") ?? "")?.[0];
  if (!cookie) throw new Error(`sign-in failed: ${signin.status}`);
  const meUrl = `${base}/api/me`;
  await load(meUrl, 2, { cookie }, 2);
  // The readers run in a process of their own, so receiving their megabytes does not delay the
  // client that times /api/me.
  const readersOf = (url) => {
    const child = spawn(path.join(root, "node_modules/.bin/autocannon"), ["-c", args.readers, "-d", String(duration + 2), ...(Number(args.rate) > 0 ? ["-R", args.rate] : []), "-j", url], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    return new Promise((resolve) => child.on("exit", () => resolve(JSON.parse(out || "{}"))));
  };
  const meUnder = async (url) => {
    const rounds = [];
    for (let i = 0; i < Number(args.rounds); i++) {
      const idle = await load(meUrl, 2, { cookie });
      const readers = readersOf(url);
      await new Promise((r) => setTimeout(r, 1000));
      const busy = await load(meUrl, 2, { cookie });
      const readLoad = await readers;
      if (idle.non2xx || busy.non2xx) throw new Error(`non-2xx: idle ${idle.non2xx}, busy ${busy.non2xx}`);
      rounds.push({ idle, busy, readLoad, ratio: busy.latency.p99 / Math.max(idle.latency.p99, 1) });
    }
    return rounds;
  };
  const meRounds = await meUnder(draftUrl);
  const meMid = meRounds.find((r) => r.ratio === median(meRounds.map((x) => x.ratio)));
  // The same load of constant answers of the same size: what 2 MiB answers cost the framework.
  const sizedRounds = await meUnder(sizedUrl);
  const sizedMid = sizedRounds.find((r) => r.ratio === median(sizedRounds.map((x) => x.ratio)));

  const mib = (n) => (n / 1024 / 1024).toFixed(2);
  console.log(`\nlimits: ${args.limits}`);
  if (mid) console.log(`\n(a) GET a 2 MiB draft (${mib(bytes)} MiB answer; first read ${firstMs.toFixed(0)} ms) beside /bench-baseline?bytes=${bytes}, ${inFlight} connections, ${duration} s, median of ${rounds.length} rounds`);
  if (mid) console.log(`    draft read   ${mid.read.requests.average.toFixed(1)} req/s  p50 ${mid.read.latency.p50} ms  p99 ${mid.read.latency.p99} ms`);
  if (mid) console.log(`    same size    ${mid.sized.requests.average.toFixed(1)} req/s  p50 ${mid.sized.latency.p50} ms  p99 ${mid.sized.latency.p99} ms`);
  if (mid) console.log(`    ratio (read ÷ same size) ${mid.ratio.toFixed(2)}   rounds: ${rounds.map((r) => r.ratio.toFixed(2)).join(" ")}`);
  console.log(`\n(b) /api/me, 2 connections, ${duration} s: idle, then with ${args.readers} connections reading the draft ${Number(args.rate) > 0 ? `at ${args.rate} reads/s in all` : "without pause"}, median of ${meRounds.length} rounds`);
  console.log(`    idle         p50 ${meMid.idle.latency.p50} ms  p99 ${meMid.idle.latency.p99} ms  ${meMid.idle.requests.average.toFixed(0)} req/s`);
  console.log(`    under reads  p50 ${meMid.busy.latency.p50} ms  p99 ${meMid.busy.latency.p99} ms  ${meMid.busy.requests.average.toFixed(0)} req/s  (draft reads: ${(meMid.readLoad["2xx"] / (duration + 2)).toFixed(1)}/s served, ${(meMid.readLoad.non2xx / (duration + 2)).toFixed(0)}/s refused with 429)`);
  console.log(`    p99 ratio (under reads ÷ idle) ${meMid.ratio.toFixed(2)}   rounds: ${meRounds.map((r) => r.ratio.toFixed(2)).join(" ")}`);
  console.log(`    beside: with ${args.readers} connections reading the same-size constant answer instead`);
  console.log(`    idle         p50 ${sizedMid.idle.latency.p50} ms  p99 ${sizedMid.idle.latency.p99} ms`);
  console.log(`    under sized  p50 ${sizedMid.busy.latency.p50} ms  p99 ${sizedMid.busy.latency.p99} ms  (constant reads ${sizedMid.readLoad.requests?.average?.toFixed(1)} req/s, none refused)`);
  console.log(`    p99 ratio ${sizedMid.ratio.toFixed(2)}   rounds: ${sizedRounds.map((r) => r.ratio.toFixed(2)).join(" ")}`);
} finally {
  await stop();
}
process.exit(0);
