// npm run cluster: several app instances on one PostgreSQL behind nginx, as a deployment that
// outgrows one instance runs them (docs/operations.md). Each instance is the production server
// as `npm start` runs it; nginx balances requests round-robin (no sticky sessions) with the
// settings event streams need, and the instances believe its X-Forwarded-For (TRUSTED_PROXY).
//
//   DATABASE_URL=postgres://… node scripts/cluster.mjs [--instances 2] [--port 8080]
//
// Ctrl-C (or SIGTERM) shuts the instances down gracefully and stops nginx.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "./start.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const NGINX = process.env.NGINX_BIN || "/usr/sbin/nginx";

/** The nginx configuration the cluster runs (and docs/operations.md shows). */
export function nginxConfig({ dir, listen, upstreams }) {
  return `# Written by scripts/cluster.mjs.
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;

events {
  worker_connections 4096;
}

http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # A draft is at most 2 MiB of HTML, up to six times that as JSON.
  client_max_body_size 16m;

  upstream app {
    # Round-robin, no stickiness: any instance serves any request. A refused connection
    # marks an instance down for a few seconds and the request goes to the next one.
${upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=5s;`).join("\n")}
    keepalive 64;
  }

  server {
    listen ${listen};

    location / {
      proxy_pass http://app;
      # Keep-alive to the instances (HTTP/1.1, no Connection: close passed on).
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # One id for a request in nginx's log and the app's.
      proxy_set_header X-Request-Id $request_id;
      # Event streams: every frame goes to the client as it is written, and an idle stream
      # (heartbeats every 15 s) is not cut.
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      proxy_connect_timeout 2s;
      # A request the dead instance never received goes to another one.
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function get(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", () => resolve(0));
    req.on("timeout", () => {
      req.destroy();
      resolve(0);
    });
  });
}

async function until(what, check, ms = 120_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not happen within ${ms} ms`);
}

function startInstance({ port, env, dataDir, quiet }) {
  const child = spawn(process.execPath, [path.join(root, "scripts", "start.mjs")], {
    cwd: root,
    stdio: quiet ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir },
  });
  let out = "";
  child.stdout?.on("data", (c) => (out += c));
  child.stderr?.on("data", (c) => (out += c));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return { port, url: `http://127.0.0.1:${port}`, process: child, exited, output: () => out };
}

/**
 * Starts nginx and `instances` app instances on DATABASE_URL (one schema: DATABASE_SCHEMA or the
 * default). Answers the proxy's URL, the instances, and stop().
 */
export async function startCluster({ instances = 2, port, databaseUrl, env = {}, quiet = false } = {}) {
  if (!databaseUrl) throw new Error("the cluster needs DATABASE_URL: instances share one PostgreSQL");
  ensureBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-cluster-"));
  for (const d of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) fs.mkdirSync(path.join(dir, d), { mode: 0o777 });
  fs.chmodSync(dir, 0o755);
  const proxyPort = port ?? (await freePort());
  const ports = [];
  for (let i = 0; i < instances; i++) ports.push(await freePort());
  const publicOrigin = `http://127.0.0.1:${proxyPort}`;
  const shared = {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    TRUSTED_PROXY: "127.0.0.1",
    PUBLIC_ORIGIN: publicOrigin,
    // Sessions, cursors and sealed secrets must open on every instance.
    SECRET_KEY: process.env.SECRET_KEY || randomBytes(32).toString("base64url"),
    ...env,
  };
  const nodes = [];
  const stop = async () => {
    await Promise.all(
      nodes.map((n) => {
        if (n.process.exitCode === null && n.process.signalCode === null) n.process.kill("SIGTERM");
        return n.exited;
      }),
    );
    if (nginx && nginx.exitCode === null) {
      nginx.kill("SIGQUIT");
      await nginxExited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  let nginx;
  let nginxExited;
  try {
    // One at a time: the first migrates (and seeds the demo tenant, when on) before the others open.
    for (const [i, p] of ports.entries()) {
      const node = startInstance({ port: p, env: shared, dataDir: path.join(dir, `instance-${i + 1}`), quiet });
      nodes.push(node);
      await until(`instance ${i + 1} ready`, async () => {
        // An instance that stopped (a configuration it refuses) will never be ready: say why now.
        if (node.process.exitCode !== null) throw new Error(`instance ${i + 1} exited (${node.process.exitCode}): ${node.output().trim().split("\n").slice(-3).join(" ")}`);
        return (await get(`${node.url}/readyz`)) === 200;
      });
    }
    const conf = path.join(dir, "nginx.conf");
    fs.writeFileSync(conf, nginxConfig({ dir, listen: `127.0.0.1:${proxyPort}`, upstreams: ports.map((p) => `127.0.0.1:${p}`) }));
    let nginxLog = "";
    nginx = spawn(NGINX, ["-c", conf, "-p", dir], { stdio: ["ignore", "pipe", "pipe"] });
    nginx.stderr.on("data", (c) => (nginxLog += c));
    nginxExited = new Promise((resolve) => nginx.once("exit", resolve));
    await until("nginx ready", async () => {
      if (nginx.exitCode !== null) throw new Error(`nginx exited: ${nginxLog}`);
      return (await get(`${publicOrigin}/readyz`)) === 200;
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: publicOrigin, instances: nodes, dir, stop };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? fallback : process.argv[i + 1];
  };
  const cluster = await startCluster({
    instances: Number(arg("--instances", "2")),
    port: Number(arg("--port", process.env.PORT || "8080")),
    databaseUrl: process.env.DATABASE_URL,
  });
  console.log(`[cluster] nginx at ${cluster.url} in front of ${cluster.instances.map((n) => n.url).join(", ")}`);
  let stopping = false;
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      void cluster.stop().then(() => process.exit(0));
    });
  }
}
