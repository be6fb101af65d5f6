// npm test: every suite, in order — types, lint, unit and integration (SQLite and PostgreSQL),
// then end-to-end in Chromium against the production build. Stops at the first failing step
// and ends with one line counting the tests that ran.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
fs.mkdirSync(path.join(root, "test-results"), { recursive: true });
for (const f of ["vitest.json", "e2e.json"]) fs.rmSync(path.join(root, "test-results", f), { force: true });

const steps = [
  ["types", bin("tsc"), ["--noEmit"]],
  ["lint", bin("eslint"), ["--max-warnings=0", "."]],
  [
    "unit + integration",
    bin("vitest"),
    ["run", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/vitest.json"],
  ],
  ["build", process.execPath, ["scripts/start.mjs", "--build-only"]],
  ["e2e (end-to-end)", bin("playwright"), ["test"]],
];

const only = process.argv.slice(2);
let failed = false;
for (const [name, cmd, args] of steps) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  console.log(`${r.status === 0 ? "✓" : "✗"} ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  if (r.status !== 0) {
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
