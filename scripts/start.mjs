// npm start: serve the production build, building first when it is missing or stale.
// PORT is honoured (default 3000).
import { spawnSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIsFresh, recordBuild, sourceStamp } from "./build-stamp.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

const lockDir = path.join(root, ".next-build-lock");

// Several servers may start at once (end-to-end tests): one builds, the others wait for it.
function withBuildLock(fn) {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 15 * 60_000) fs.rmSync(lockDir, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

export function ensureBuild() {
  if (buildIsFresh(root)) return;
  withBuildLock(build);
}

function build() {
  if (buildIsFresh(root)) return;
  const stamp = sourceStamp(root);
  console.log("[start] building the production bundle (sources changed or no build yet)…");
  const r = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (r.status !== 0) process.exit(r.status ?? 1);
  recordBuild(root, stamp);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureBuild();
  if (process.argv.includes("--build-only")) process.exit(0);
  const port = process.env.PORT || "3000";
  const child = spawn(process.execPath, [nextBin, "start", "-p", port], {
    cwd: root,
    stdio: "inherit",
    // The app shuts down on SIGTERM itself (lib/ops/shutdown.ts): the framework's own handler
    // would wait on open event streams for ever and exit 143.
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NEXT_MANUAL_SIG_HANDLE: "1" },
  });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
