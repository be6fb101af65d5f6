import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, startProduction, type ProductionServer } from "../support/production";
// @ts-expect-error -- a plain ES module script, without types
import { ensureTool, nodeOf } from "../../../scripts/tools.mjs";

// Every request's Host is checked on the production server (proxy.ts, lib/http/hosts.ts): a page
// on another site whose name resolves to this server (DNS rebinding) is, to the browser, the
// same origin as that name, and sends the fetch metadata of one. Such a request must reach no
// session, page, API read, human action or MCP call. And every method a route does not take is
// the 405 envelope naming what the address takes.

beforeAll(() => ensureBuilt(), 900_000);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with the Host (and anything else) given, which fetch will not send. */
function send(server: ProductionServer, method: string, pathname: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: server.port, method, path: pathname, headers: { ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }), ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const envelope = (a: Answer) => JSON.parse(a.body) as { error: string; hint?: string };

// One server for the file: a start is most of its time, and a name in ALLOWED_HOSTS changes
// nothing the method checks below look at (they send the loopback name).
let server: ProductionServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-hosts-"));
  server = await startProduction({ DATA_DIR: dataDir, ALLOWED_HOSTS: "dash.internal" });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the Host of every request, on the production server", () => {
  let foreign: string;
  let loopback: string;
  /** What a rebinding page's requests carry: its own name as Host and Origin, and same-origin fetch metadata. */
  let asRebound: (extra?: Record<string, string>) => Record<string, string>;
  let asOurs: (extra?: Record<string, string>) => Record<string, string>;

  beforeAll(() => {
    foreign = `rebind.evil.example:${server.port}`;
    loopback = `127.0.0.1:${server.port}`;
    asRebound = (extra = {}) => ({ host: foreign, origin: `http://${foreign}`, "sec-fetch-site": "same-origin", ...extra });
    asOurs = (extra = {}) => ({ host: loopback, origin: `http://${loopback}`, "sec-fetch-site": "same-origin", ...extra });
  });

  const form = "email=admin%40demo.test&next=%2F";
  const formHeaders = { "content-type": "application/x-www-form-urlencoded" };

  /** Signs the admin in at the loopback name: the session cookie and the CSRF token a page carries. */
  async function admin(): Promise<{ cookie: string; csrf: string }> {
    const signedIn = await send(server, "POST", "/signin/demo", asOurs(formHeaders), form);
    expect(signedIn.status).toBe(303);
    const cookie = String(signedIn.headers["set-cookie"]?.[0] ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/^dd_session=/);
    const page = await send(server, "GET", "/dashboards/playground", { host: loopback, cookie });
    const csrf = /csrf\\?":\\?"([A-Za-z0-9_-]{20,})/.exec(page.body)?.[1];
    expect(csrf, "the editor page carries the CSRF token").toBeTruthy();
    return { cookie, csrf: csrf! };
  }

  it("refuses demo sign-in under a foreign name, and sets no cookie", async () => {
    const refused = await send(server, "POST", "/signin/demo", asRebound(formHeaders), form);
    expect(refused.status).toBe(400);
    expect(envelope(refused)).toEqual({ error: "untrusted_host", hint: expect.stringContaining("ALLOWED_HOSTS") as string });
    expect(refused.headers["set-cookie"]).toBeUndefined();
    expect(refused.headers["content-type"]).toMatch(/^application\/json/);
  });

  it("refuses /api, a save, setting home and pages under a foreign name even with a valid session", async () => {
    const { cookie, csrf } = await admin();
    const read = await send(server, "GET", "/api/crm/users/contacts", asRebound({ cookie }));
    expect([read.status, envelope(read).error]).toEqual([400, "untrusted_host"]);
    expect((await send(server, "GET", "/api/me", asOurs({ cookie }))).status).toBe(200);

    const slug = `rebound-${Date.now().toString(36)}`;
    const save = await send(server, "POST", `/~/admin/${slug}`, asRebound({ cookie, "x-csrf-token": csrf, "content-type": "text/html; charset=utf-8" }), "<p>x</p>");
    expect([save.status, envelope(save).error]).toEqual([400, "untrusted_host"]);
    expect((await send(server, "GET", `/~/admin/${slug}/source`, { host: loopback, cookie })).status).toBe(404);

    const home = await send(server, "POST", "/account/home", asRebound({ cookie, "x-csrf-token": csrf, "content-type": "application/json" }), JSON.stringify({ path: "/docs" }));
    expect([home.status, envelope(home).error]).toEqual([400, "untrusted_host"]);
    expect(JSON.parse((await send(server, "GET", "/api/me/home", { host: loopback, cookie })).body)).toMatchObject({ path: null });

    for (const page of ["/", "/dashboards/playground", "/connections", "/~/admin"]) {
      const res = await send(server, "GET", page, asRebound({ cookie }));
      expect(res.status, page).toBe(400);
      // The page (with its CSRF token) is never sent.
      expect(res.body, page).not.toContain("csrf");
    }
  });

  it("refuses the MCP endpoint under a foreign name, and answers it at the loopback name", async () => {
    const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    const mcp = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const refused = await send(server, "POST", "/dashboards/playground/mcp", asRebound(mcp), initialize);
    expect([refused.status, envelope(refused).error]).toEqual([400, "untrusted_host"]);
    expect((await send(server, "POST", "/dashboards/playground/mcp", { ...mcp, host: `localhost:${server.port}` }, initialize)).status).toBe(200);
  });

  it("answers under a name in ALLOWED_HOSTS, and writes URLs with it", async () => {
    const created = await send(server, "POST", "/dashboards/playground/draft", { host: `dash.internal:${server.port}`, "content-type": "text/html" }, "<p>hi</p>");
    expect(created.status).toBe(201);
    expect((JSON.parse(created.body) as { watchUrl: string }).watchUrl).toMatch(new RegExp(`^http://dash\\.internal:${server.port}/`));
    expect((await send(server, "GET", "/healthz", { host: `dash.internal.evil.example:${server.port}` })).status).toBe(400);
  });

  it("passes the MCP conformance suite's DNS rebinding scenario", async () => {
    const dir = (await ensureTool("conformance")) as string;
    const cli = path.join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
    const run = await promisify(execFile)(nodeOf(dir) as string, [cli, "server", "--url", `http://localhost:${server.port}/dashboards/playground/mcp`, "--scenario", "dns-rebinding-protection"], {
      cwd: dataDir,
      timeout: 120_000,
    }).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? "", stderr: err.stderr ?? "" }));
    const out = run.stdout.replace(/\u001b\[[0-9;]*m/g, "");
    expect(out, `${out}\n${run.stderr}`).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    expect(out).toContain("localhost-host-rebinding-rejected");
  }, 600_000);
});

describe("methods, on the production server", () => {
  // One address per route file (lib/http/pre-route.test.ts holds the table to the files), and pages.
  const routes = [
    "/.well-known/oauth-authorization-server",
    "/.well-known/oauth-protected-resource/dashboards/playground/mcp",
    "/api/me",
    "/account/home",
    "/bench-baseline",
    "/connections/tracker/connect",
    "/dashboards/frame",
    "/dashboards/playground/api/me",
    "/dashboards/playground/check",
    "/dashboards/playground/draft",
    "/dashboards/playground/draft/AAAAAAAAAAAAAAAAAAAAAA",
    "/dashboards/playground/draft/AAAAAAAAAAAAAAAAAAAAAA/events",
    "/dashboards/playground/draft/AAAAAAAAAAAAAAAAAAAAAA/reports",
    "/dashboards/playground/draft/AAAAAAAAAAAAAAAAAAAAAA/revisions",
    "/dashboards/playground/endpoints",
    "/dashboards/playground/llms.txt",
    "/dashboards/playground/mcp",
    "/dashboards/playground/scenarios",
    "/docs/playground.md",
    "/docs/search.json",
    "/healthz",
    "/metrics",
    "/oauth/authorize",
    "/oauth/connected-apps",
    "/oauth/register",
    "/oauth/revoke",
    "/oauth/token",
    "/openapi.json",
    "/readyz",
    "/signin/callback",
    "/signin/demo",
    "/signin/oidc",
    "/signout",
    "/stand-ins/tracker/graphql",
    "/~/csm/my-book",
    "/~/csm/my-book/source",
  ];

  const PREFLIGHTED = new Set(["/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource/dashboards/playground/mcp", "/oauth/register", "/oauth/revoke", "/oauth/token"]);

  it("answers a method no route takes with the 405 envelope and the Allow each route gives itself", async () => {
    for (const route of routes) {
      // What the route's own defineRoute answers to a method it does not take. The OAuth
      // endpoints a browser-based MCP client calls answer OPTIONS as a CORS preflight instead.
      const own = await send(server, "OPTIONS", route);
      const preflighted = PREFLIGHTED.has(route);
      expect(own.status, route).toBe(preflighted ? 204 : 405);
      const allow = preflighted ? (await send(server, "PROPFIND", route)).headers.allow : own.headers.allow;
      if (preflighted) {
        expect(String(allow).split(", "), route).toContain("OPTIONS");
        // The preflight names the method the route takes, and no other.
        const method = route.startsWith("/.well-known/") ? "GET" : "POST";
        expect(own.headers["access-control-allow-methods"], route).toBe(`${method}, OPTIONS`);
      }
      for (const method of ["PROPFIND", "MKCOL", "TRACE"]) {
        const res = await send(server, method, route);
        expect(res.status, `${method} ${route}`).toBe(405);
        expect(res.headers.allow, `${method} ${route}`).toBe(allow);
        expect(envelope(res), `${method} ${route}`).toEqual({ error: "method_not_allowed", hint: `${method} is not a method this address answers; it answers ${allow}.` });
      }
    }
  });

  it("answers a page's non-reads with 405, not the page", async () => {
    for (const page of ["/", "/docs", "/docs/cx", "/account", "/signin", "/dashboards/playground", "/~/csm", "/no/such/page"]) {
      for (const method of ["PUT", "DELETE", "POST", "PROPFIND", "TRACE"]) {
        const res = await send(server, method, page);
        expect(res.status, `${method} ${page}`).toBe(405);
        expect(res.headers.allow).toBe("GET, HEAD");
        expect(res.headers["content-type"]).toMatch(/^application\/json/);
      }
      expect((await send(server, "HEAD", page)).status, page).not.toBe(405);
    }
  });
});
