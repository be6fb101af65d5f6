// npm test: every suite, in order — types and lint side by side, the production build, unit and
// integration (SQLite and PostgreSQL, some against that build), then end-to-end in Chromium
// against it. Stops after the first stage with a failing step and ends with one line counting the tests that ran.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
fs.mkdirSync(path.join(root, "test-results"), { recursive: true });
for (const f of ["vitest.json", "e2e.json"]) fs.rmSync(path.join(root, "test-results", f), { force: true });

// Stages run in order; the steps of one stage run at the same time. tsc and eslint each keep
// one core busy, so on two cores they finish together in about the time of the longer one.
const stages = [
  [
    ["types", bin("tsc"), ["--noEmit"]],
    // The cache (under node_modules/.cache) is keyed on each file's content and the config.
    ["lint", bin("eslint"), ["--max-warnings=0", "--cache", "--cache-strategy", "content", "--cache-location", "node_modules/.cache/eslint/", "."]],
    // Unused files, exports and dependencies (about 8 s).
    ["knip", bin("knip"), []],
  ],
  // The build comes before the integration tests: some of them start the production server.
  [["build", process.execPath, ["scripts/start.mjs", "--build-only"]]],
  [
    [
      "unit + integration",
      bin("vitest"),
      ["run", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/vitest.json"],
    ],
  ],
  [["e2e (end-to-end)", bin("playwright"), ["test"]]],
];

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

/**
 * Runs one step. Alone in its stage it prints as it goes; beside others its output is kept and
 * printed whole when it ends, so the logs of steps running together do not interleave.
 */
function run([name, cmd, args], alone) {
  const t0 = Date.now();
  if (alone) console.log(`\n▶ ${name}`);
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
      console.log(`${status === 0 ? "✓" : "✗"} ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
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
let failed = false;
for (const stage of stages) {
  const steps = stage.filter(([name]) => !only.length || only.some((o) => name.includes(o)));
  if (!steps.length) continue;
  const results = await Promise.all(steps.map((s) => run(s, steps.length === 1)));
  if (results.includes(false)) {
    failed = true;
    break;
  }
}

function read(file) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, "test-results", file), "utf8"));
  } catch {
    return null;
  }
}
const v = read("vitest.json");
const e = read("e2e.json");
const passed = (v?.numPassedTests ?? 0) + (e?.stats?.expected ?? 0);
// A suite that fails to load runs no tests; it still counts as a failure.
const failedCount = (v?.numFailedTests ?? 0) + (v?.numFailedTestSuites ?? 0) + (e?.stats?.unexpected ?? 0) + (e?.stats?.flaky ?? 0);
console.log(`\n${passed} passed, ${failedCount} failed`);
process.exit(failed || failedCount > 0 ? 1 : 0);
