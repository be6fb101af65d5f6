// Loads endpoints of the production build with autocannon, beside a baseline route that
// returns a constant small JSON in the same build, and prints req/s, p50, p99 and the ratio.
//
//   npm run bench -- [--duration 10] [--connections 10] [--only me] [--scale 1]
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { ensureBuild } from "../scripts/start.mjs";
import { servers, targets } from "./targets.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    only: { type: "string" },
    scale: { type: "string", default: "1" },
    port: { type: "string", default: "3300" },
  },
});
const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;

ensureBuild();

function startServer(extraEnv) {
  const dataDir = path.join(root, ".data", `bench-scale-${args.scale}`);
  const server = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port)], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      DEMO_SCALE: args.scale,
      BENCH_BASELINE: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      ...extraEnv,
    },
  });
  const stop = () =>
    new Promise((resolve) => {
      if (server.exitCode !== null) return resolve();
      server.once("exit", resolve);
      server.kill("SIGTERM");
    });
  process.on("exit", () => server.kill("SIGTERM"));
  return stop;
}

async function waitUp() {
  for (let i = 0; i < 600; i++) {
    try {
      const r = await fetch(`${base}/bench-baseline`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("server did not start");
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

const chosen = targets.filter((t) => !args.only || args.only.split(",").some((o) => t.name.startsWith(o)));
const table = [];
for (const [serverName, env] of Object.entries(servers)) {
  const mine = chosen.filter((t) => t.server === serverName);
  if (mine.length === 0) continue;
  const stop = startServer(env);
  await waitUp();
  const baseline = await measure(`baseline (${serverName})`, `${base}/bench-baseline`);
  table.push({ ...baseline, ratio: 1 });
  const cookies = {};
  for (const t of mine) {
    cookies[t.as] ??= await signIn(t.as);
    const row = await measure(t.name, `${base}${t.path}`, { cookie: cookies[t.as] });
    table.push({ ...row, ratio: row.rps / baseline.rps });
  }
  await stop();
}

console.log(`\nconnections ${args.connections}, ${args.duration} s each, scale ${args.scale}`);
console.log("name".padEnd(22), "req/s".padStart(8), "p50 ms".padStart(8), "p99 ms".padStart(8), "ratio".padStart(7), " path");
for (const r of table) {
  console.log(r.name.padEnd(22), String(Math.round(r.rps)).padStart(8), String(r.p50).padStart(8), String(r.p99).padStart(8), r.ratio.toFixed(2).padStart(7), " " + r.url);
}
fs.mkdirSync(path.join(root, "bench", "results"), { recursive: true });
fs.writeFileSync(path.join(root, "bench", "results", "latest.json"), JSON.stringify({ at: new Date().toISOString(), args, rows: table }, null, 2));
process.exit(0);
