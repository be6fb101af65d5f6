// Connections across many token lifetimes, on the production build as users start it: one server
// whose stand-ins' access tokens live --ttl ms (STAND_IN_TOKEN_TTL_MS), beside a baseline server
// with the vendors' own lifetimes (a day or eight hours: nothing expires during the run). The
// CSM and the admin read every connector (tracker, code hosting, customer messaging, and calls
// through the shared credential) and run each connection check, on both servers in turn, for
// --lifetimes token lifetimes. The vendor-read cache is off on both, so every read presents the
// stored token to the stand-in.
//
//   node bench/token-lifetimes.mjs [--ttl 3000] [--lifetimes 20] [--port 3420]
//
// Figures: per connector, reads answered 200 of all reads on each server, latency p50 and p99,
// and the ratio of the short-lifetime server's p50 to the baseline's (the cost of renewing);
// then what the short-lifetime server stored for each credential (last renewal, expiry, and any
// reason to reconnect). Exits 1 when any read on either server answered anything but 200.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { ensureBuild } from "../scripts/start.mjs";
import { root, startServer } from "./server.mjs";

const { values: args } = parseArgs({
  options: {
    ttl: { type: "string", default: "3000" },
    lifetimes: { type: "string", default: "20" },
    port: { type: "string", default: "3420" },
  },
});
const ttl = Number(args.ttl);
const runMs = ttl * Number(args.lifetimes);
const port = Number(args.port);

const reads = [
  { name: "tracker", path: "/api/vendors/tracker/issues", as: "csm" },
  { name: "coderepo", path: "/api/vendors/coderepo/repos", as: "csm" },
  { name: "support", path: "/api/vendors/support/conversations", as: "csm" },
  { name: "calls (shared, csm)", path: "/api/vendors/calls/calls", as: "csm" },
  { name: "calls (shared, admin)", path: "/api/vendors/calls/calls", as: "admin" },
  ...["tracker", "coderepo", "support", "calls"].map((slug) => ({ name: `check ${slug}`, path: `/api/connections/${slug}/check`, as: "csm" })),
];

const servers = [
  { label: "short", port, dataDir: path.join(root, ".data", "bench-tokens-short"), env: { STAND_IN_TOKEN_TTL_MS: String(ttl) } },
  { label: "baseline", port: port + 1, dataDir: path.join(root, ".data", "bench-tokens-baseline"), env: {} },
];

async function signIn(base, email) {
  const r = await fetch(`${base}/signin/demo`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ email, next: "/" }),
    redirect: "manual",
  });
  const cookie = /dd_session=[^;]+/.exec(r.headers.get("set-cookie") ?? "")?.[0];
  if (!cookie) throw new Error(`sign-in as ${email} failed: ${r.status}`);
  return cookie;
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] : NaN;
};

ensureBuild();
const stops = [];
try {
  for (const s of servers) {
    fs.rmSync(s.dataDir, { recursive: true, force: true });
    stops.push(
      await startServer({
        port: s.port,
        dataDir: s.dataDir,
        readyPath: "/signin",
        env: { ...s.env, DATABASE_URL: "", CONNECTOR_CACHE_FRESH_MS: "0", CONNECTOR_CACHE_STALE_MS: "0" },
      }),
    );
    s.base = `http://127.0.0.1:${s.port}`;
    s.cookies = { csm: await signIn(s.base, "csm@demo.test"), admin: await signIn(s.base, "admin@demo.test") };
    s.results = new Map(reads.map((r) => [r.name, { ok: 0, other: new Map(), ms: [] }]));
  }

  console.log(`Reading every connector for ${runMs / 1000} s: ${args.lifetimes} lifetimes of ${ttl} ms on the short server.`);
  const started = Date.now();
  let rounds = 0;
  while (Date.now() - started < runMs) {
    for (const s of servers) {
      await Promise.all(
        reads.map(async (r) => {
          const t0 = performance.now();
          const res = await fetch(`${s.base}${r.path}`, { headers: { cookie: s.cookies[r.as] } });
          const body = await res.text();
          const row = s.results.get(r.name);
          row.ms.push(performance.now() - t0);
          // A check answers 200 with its status; only "ok" counts as answering.
          const ok = res.status === 200 && (!r.name.startsWith("check") || JSON.parse(body).ok === true);
          if (ok) row.ok++;
          else {
            const key = `${res.status} ${body.slice(0, 160)}`;
            row.other.set(key, (row.other.get(key) ?? 0) + 1);
          }
        }),
      );
    }
    rounds++;
    await new Promise((r) => setTimeout(r, 100));
  }

  const [short, baseline] = servers;
  let failures = 0;
  console.log(`\n${rounds} rounds in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  console.log("| read | short lifetime: 200s / reads | p50 ms | p99 ms | baseline: 200s / reads | p50 ms | p99 ms | p50 ratio |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of reads) {
    const a = short.results.get(r.name);
    const b = baseline.results.get(r.name);
    failures += a.other.size + b.other.size;
    console.log(
      `| ${r.name} | ${a.ok} / ${a.ms.length} | ${pct(a.ms, 50).toFixed(1)} | ${pct(a.ms, 99).toFixed(1)} | ${b.ok} / ${b.ms.length} | ${pct(b.ms, 50).toFixed(1)} | ${pct(b.ms, 99).toFixed(1)} | ${(pct(a.ms, 50) / pct(b.ms, 50)).toFixed(2)} |`,
    );
    for (const [what, n] of [...a.other, ...b.other]) console.log(`    ${n}× ${what}`);
  }

  const db = new Database(path.join(short.dataDir, "app.sqlite"), { readonly: true, fileMustExist: true });
  const now = Date.now();
  const rows = [
    ...db.prepare("select u.email as who, t.slug, t.connected_at, t.refreshed_at, t.expires_at, t.reconnect_reason from connector_tokens t join users u on u.id = t.user_id where u.email in ('csm@demo.test', 'admin@demo.test') order by 1, 2").all(),
    ...db.prepare("select 'shared' as who, slug, connected_at, refreshed_at, expires_at, reconnect_reason from donor_credentials").all(),
  ];
  db.close();
  console.log("\nStored on the short-lifetime server at the end:\n");
  console.log("| credential | connected | last renewed | expires | needs reconnecting |");
  console.log("|---|---|---|---|---|");
  for (const row of rows) {
    const ago = (t) => (t === null ? "never" : `${((now - t) / 1000).toFixed(1)} s ago`);
    failures += row.reconnect_reason ? 1 : 0;
    console.log(
      `| ${row.who} ${row.slug} | ${ago(row.connected_at)} | ${ago(row.refreshed_at)} | ${row.expires_at === null ? "never" : `in ${((row.expires_at - now) / 1000).toFixed(1)} s`} | ${row.reconnect_reason ?? "no"} |`,
    );
  }
  if (failures > 0) {
    console.error(`\n${failures} kinds of failure: some connector stopped answering.`);
    process.exitCode = 1;
  } else {
    console.log("\nEvery connector answered every read on both servers.");
  }
} finally {
  for (const stop of stops) await stop();
}
