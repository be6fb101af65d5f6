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
  // What the frame receives is compiled from its sources ahead of time, and committed.
  const check = spawnSync(process.execPath, [path.join(root, "scripts", "frame-scripts.mjs"), "--check"], { cwd: root, stdio: "inherit" });
  if (check.status !== 0) process.exit(check.status ?? 1);
  const stamp = sourceStamp(root);
  console.log("[start] building the production bundle (sources changed or no build yet)…");
  const r = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (r.status !== 0) process.exit(r.status ?? 1);
  recordBuild(root, stamp);
}

const JEMALLOC_PATHS = [
  "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
  "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
  "/usr/lib64/libjemalloc.so.2",
  "/usr/lib/libjemalloc.so.2",
  "/usr/local/lib/libjemalloc.so.2",
];

/**
 * The allocator the server runs on. glibc's malloc keeps what thousands of closed connections
 * freed (fragments between live blocks, which it can only give back from the top of its heap):
 * after 5,000 event streams came and went, about 12 MB stayed, for good. jemalloc returns freed
 * pages to the system within about a second of them going idle (docs/operations.md, "Memory").
 * Used where the system has it (Debian: libjemalloc2), unless SERVER_ALLOCATOR=system.
 */
export function jemallocPath(env = process.env) {
  if (env.SERVER_ALLOCATOR === "system") return null;
  const candidates = env.JEMALLOC_PATH ? [env.JEMALLOC_PATH] : JEMALLOC_PATHS;
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

/** The environment of the production server process: what `npm start` gives it, and the benchmarks too. */
export function serverEnv(env = process.env) {
  const out = {
    ...env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    // The app shuts down on SIGTERM itself (lib/ops/shutdown.ts): the framework's own handler
    // would wait on open event streams for ever and exit 143.
    NEXT_MANUAL_SIG_HANDLE: "1",
  };
  const jemalloc = jemallocPath(env);
  if (jemalloc && !(env.LD_PRELOAD ?? "").includes("jemalloc")) {
    out.LD_PRELOAD = [jemalloc, env.LD_PRELOAD].filter(Boolean).join(" ");
    // Freed pages go back after a second idle, purged by jemalloc's own thread rather than on
    // the request path; muzzy pages are not kept at all.
    out.MALLOC_CONF = env.MALLOC_CONF ?? "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0";
  }
  return out;
}

/**
 * Refuses a bad configuration before anything builds or listens: the app's own validation
 * (lib/config.ts, through scripts/check-config.ts) under the server's environment. Without it a
 * bad value surfaced only inside the server, which then answered 500 to every request.
 * Exits the process with the check's own one-line message on stderr.
 */
export function checkConfiguration(env = serverEnv()) {
  const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
  // The check loads lib/config.ts, which is server-only: the react-server condition lets it.
  const r = spawnSync(process.execPath, [tsx, "--conditions=react-server", path.join(root, "scripts", "check-config.ts")], { cwd: root, stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const buildOnly = process.argv.includes("--build-only");
  // The build does not read the configuration, so --build-only (tests, CI) goes without the check.
  if (!buildOnly) checkConfiguration();
  ensureBuild();
  if (buildOnly) process.exit(0);
  const port = process.env.PORT || "3000";
  const child = spawn(process.execPath, [nextBin, "start", "-p", port], {
    cwd: root,
    stdio: "inherit",
    env: serverEnv(),
  });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
