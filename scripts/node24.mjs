// The suite on Node 24 beside the machine's Node: `node scripts/node24.mjs [unit] [integration]
// [smoke]` (all three by default); .ci/run runs it after `npm test`. Node 24 comes from the npm
// registry (scripts/tools.mjs), nothing installed on the system; it runs from the project's own
// node_modules, where lib/db/sqlite-driver.ts picks the SQLite driver written for it. The smoke
// starts the production build (made by `npm test`) on Node 24 and reads a page, the API and the
// health checks, and writes and reads a draft. `NODE_MAJOR=22 node scripts/node24.mjs` runs the
// same on Node 22, the other supported Node the registry provides (scripts/tools.mjs).
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

const major = process.env.NODE_MAJOR ?? "24";
if (!/^(22|24)$/.test(major)) throw new Error(`NODE_MAJOR=${major}: 22 or 24`);
const toolDir = await ensureTool(`node${major}`);
const node = nodeOf(toolDir);
const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
// Node 24 first on the PATH, so a test that starts `node` itself runs it too.
const env = { ...process.env, PATH: `${path.dirname(node)}:${process.env.PATH}` };

function run(args, extraEnv = {}) {
  return new Promise((resolve) => {
    const child = spawn(node, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function smoke() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "node24-smoke-"));
  const port = String(Number(process.env.E2E_PORT_BASE ?? 3400) + 90);
  const server = spawn(node, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", port], {
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
