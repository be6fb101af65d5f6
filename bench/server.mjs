// The production build's server for a benchmark: started on its own port and data folder, with
// the CRM sync pushed out of the measured window, and stopped with the benchmark.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serverEnv } from "../scripts/start.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Starts `next start` and resolves once `readyPath` answers 2xx; the result stops it. */
export async function startServer({ port, dataDir, readyPath, env = {}, quiet }) {
  const server = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port)], {
    cwd: root,
    stdio: ["ignore", "ignore", quiet ? "pipe" : "inherit"],
    // What `npm start` gives the server (scripts/start.mjs): the allocator, signal handling.
    env: {
      ...serverEnv(),
      DATA_DIR: dataDir,
      // The benchmark must not race the server's own background sync for the machine.
      CRM_SYNC_INTERVAL_MS: "86400000",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      ...env,
    },
  });
  if (quiet) {
    // Lines the caller expects (the inspector's notices) would drown the table; the rest still show.
    let pending = "";
    server.stderr.setEncoding("utf8").on("data", (chunk) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop();
      for (const line of lines) if (!quiet.test(line)) process.stderr.write(`${line}\n`);
    });
  }
  const kill = () => server.kill("SIGTERM");
  process.on("exit", kill);
  const stop = () =>
    new Promise((resolve) => {
      process.off("exit", kill);
      if (server.exitCode !== null) return resolve();
      server.once("exit", resolve);
      kill();
    });
  // The benchmarks that measure the server's memory read it from /proc by this.
  stop.pid = server.pid;
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode} before it answered`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}${readyPath}`)).ok) return stop;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error("server did not start");
}

/**
 * The production build on a fresh data folder under .data/<name>, and Debian's Chromium with the
 * machine's flags, for the scripts that look at pages (screenshots, gallery pictures).
 */
export async function startServerAndBrowser({ name, port, browserPath }) {
  const { ensureBuild } = await import("../scripts/start.mjs");
  const { chromium } = await import("@playwright/test");
  const fs = await import("node:fs");
  ensureBuild();
  const dataDir = path.join(root, ".data", name);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const stopServer = await startServer({ port, dataDir, readyPath: "/signin" });
  const browser = await chromium.launch({
    executablePath: browserPath ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  return {
    browser,
    stop: async () => {
      await browser.close();
      await stopServer();
    },
  };
}
