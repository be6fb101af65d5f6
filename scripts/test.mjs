// npm test: every suite — types, lint and unused code, the production build, unit and
// integration (SQLite and PostgreSQL, some against that build), then end-to-end in Chromium
// against it. Each step starts once the steps it needs have passed, beside whatever else is
// running; after a failing step nothing new starts. It ends with one line counting the tests that
// ran and the whole run's time.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
fs.mkdirSync(path.join(root, "test-results"), { recursive: true });
for (const f of ["vitest.json", "e2e.json"]) fs.rmSync(path.join(root, "test-results", f), { force: true });

// On two cores, what overlaps is what waits: lint and knip (one core each) beside the build
// (which waits on its own workers and the disk at times). The type check follows the build so
// that it also reads the route types the build writes (.next/types), never while they are being
// written. Unit and integration, then end-to-end, run one after the other: side by side on two
// cores they took 13 minutes where in turn they take under 8, and the vitest workers' own RPC
// timed out. TEST_STEPS_BESIDE=1 runs them side by side, for a machine with cores to spare.
const steps = [
  // The cache (under node_modules/.cache) is keyed on each file's content and the config.
  { name: "lint", cmd: bin("eslint"), args: ["--max-warnings=0", "--cache", "--cache-strategy", "content", "--cache-location", "node_modules/.cache/eslint/", "."] },
  // Unused files, exports and dependencies (about 8 s).
  { name: "knip", cmd: bin("knip"), args: [] },
  // Some integration tests and every end-to-end test start the production server.
  { name: "build", cmd: process.execPath, args: ["scripts/start.mjs", "--build-only"] },
  { name: "types", cmd: bin("tsc"), args: ["--noEmit"], after: ["build"] },
  {
    name: "unit + integration",
    cmd: bin("vitest"),
    args: ["run", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/vitest.json"],
    after: ["build", "lint", "knip", "types"],
  },
  { name: "e2e (end-to-end)", cmd: bin("playwright"), args: ["test"], after: ["build", "lint", "knip", "types", ...(process.env.TEST_STEPS_BESIDE === "1" ? [] : ["unit + integration"])] },
];

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const started = Date.now();
const since = (t) => `${((Date.now() - t) / 1000).toFixed(1)} s`;

/**
 * Runs one step. Alone it prints as it goes; beside others its output is kept and printed whole
 * when it ends, so the logs of steps running together do not interleave.
 */
function run({ name, cmd, args }, alone) {
  const t0 = Date.now();
  console.log(alone ? `\n▶ ${name}` : `▷ ${name} started (${since(started)} into the run)`);
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn(cmd, args, { cwd: root, stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"], env });
    if (!alone) {
      child.stdout.on("data", (c) => chunks.push(c));
      child.stderr.on("data", (c) => chunks.push(c));
    }
    let ended = false;
    const done = (status) => {
      if (ended) return;
      ended = true;
      if (!alone) {
        console.log(`\n▶ ${name}`);
        process.stdout.write(Buffer.concat(chunks));
      }
      console.log(`${status === 0 ? "✓" : "✗"} ${name} (${since(t0)})`);
      resolve(status === 0);
    };
    child.on("error", (e) => {
      chunks.push(Buffer.from(`${e.message}\n`));
      done(1);
    });
    child.on("close", (code) => done(code));
  });
}

const only = process.argv.slice(2);
const chosen = steps.filter(({ name }) => !only.length || only.some((o) => name.includes(o)));
const names = new Set(chosen.map((s) => s.name));
// A step waits only for the chosen steps it needs: `node scripts/test.mjs e2e` runs e2e alone.
const waiting = chosen.map((s) => ({ ...s, after: (s.after ?? []).filter((n) => names.has(n)) }));
const passed = new Set();
const running = new Map();
let failed = false;
for (;;) {
  if (!failed) {
    for (const step of waiting.filter((s) => s.after.every((n) => passed.has(n)))) {
      waiting.splice(waiting.indexOf(step), 1);
      running.set(step.name, run(step, chosen.length === 1).then((ok) => ({ name: step.name, ok })));
    }
  }
  if (!running.size) break;
  const { name, ok } = await Promise.race(running.values());
  running.delete(name);
  if (ok) passed.add(name);
  else failed = true;
}
if (failed && waiting.length) console.log(`\nnot run, after a failure: ${waiting.map((s) => s.name).join(", ")}`);

function read(file) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, "test-results", file), "utf8"));
  } catch {
    return null;
  }
}
const v = read("vitest.json");
const e = read("e2e.json");
const count = (v?.numPassedTests ?? 0) + (e?.stats?.expected ?? 0);
// A suite that fails to load runs no tests; it still counts as a failure.
const failedCount = (v?.numFailedTests ?? 0) + (v?.numFailedTestSuites ?? 0) + (e?.stats?.unexpected ?? 0) + (e?.stats?.flaky ?? 0);
console.log(`\n${count} passed, ${failedCount} failed (${since(started)} in all)`);
process.exit(failed || failedCount > 0 ? 1 : 0);
