import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { endpoints } from "@/lib/contract/endpoints";
import { siteOperations, toolOperations } from "@/lib/contract/operations";
import { buildOperations } from "@/lib/reference/operations";
import { SchemaSet } from "@/lib/reference/json-schema";
import { methodsAt } from "@/lib/http/pre-route";
import { playgroundOperations } from "@/lib/playground/operations";
import { playgroundTools, toolImplementations } from "@/lib/agent/tools";
import type { PlaygroundTool } from "@/lib/agent/tools/shared";

// Every operation the service answers is declared once: /api's in lib/contract/endpoints.ts, the
// rest in lib/contract/operations/ (with the reference's words, errors and schemas, and the MCP
// tool that mirrors it), and the playground's handlers and the MCP tools one file each beside
// them (lib/playground/operations/, lib/agent/tools/), which its route modules and tools/list are
// derived from. A route file, a documented operation, a handler or an MCP tool without its entry
// fails here, and so does an entry's tool without an implementation.

const root = path.resolve(__dirname, "..");

/** `/draft/:read_id` and `/draft/[token]` alike: any path value is `:`, the rest of a path `*`. */
function shape(p: string): string {
  return p
    .replace(/\/\[\[\.\.\.[^\]]+\]\]$|\/:apiPath$/, "/*")
    .replace(/\[[^\]]+\]|:[A-Za-z_]+/g, ":");
}

/** Route files under `dir` (relative to app/), as the paths they answer and the methods they take. */
function routesUnder(dir: string): { path: string; methods: string[] }[] {
  const found: { path: string; methods: string[] }[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, "app", rel), { withFileTypes: true })) {
      const next = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) walk(next);
      else if (entry.name === "route.ts") {
        const routePath = `/${rel}`;
        // A concrete path the route answers, for the edge's method table.
        const concrete = routePath.replace(/\[\[\.\.\.[^\]]+\]\]/, "me").replace(/\[[^\]]+\]/g, "x");
        // HEAD answers as GET does, and OPTIONS is a browser's CORS preflight: neither is an operation.
        const methods = methodsAt(concrete).allow.split(", ").filter((m) => m !== "HEAD" && m !== "OPTIONS");
        found.push({ path: routePath, methods });
      }
    }
  };
  walk(dir);
  return found;
}

const registered = new Set(siteOperations.map((o) => `${o.method} ${shape(o.path)}`));

/** Every route outside /api and the space's: the playground's, the account's, snapshots', OAuth's and health's. */
const siteRoutes = () => [
  ...routesUnder("dashboards/playground"),
  ...routesUnder("account"),
  ...routesUnder("snapshots"),
  ...routesUnder("oauth"),
  ...routesUnder(".well-known"),
  ...["healthz", "readyz", "metrics"].flatMap((d) => routesUnder(d)),
];

/** `GET /a/:` answers `GET /a/:` alone; a catch-all route, `GET /a/*`, answers every `GET /a/…`. */
const answers = (route: string, operation: string) => route === operation || (route.endsWith("/*") && operation.startsWith(route.slice(0, -1)));

/** Every route file in app/, as its directory under app/ and its text. */
function routeFiles(): { dir: string; text: string }[] {
  const found: { dir: string; text: string }[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, "app", rel), { withFileTypes: true })) {
      const next = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) walk(next);
      else if (entry.name === "route.ts") found.push({ dir: rel, text: fs.readFileSync(path.join(root, "app", next), "utf8") });
    }
  };
  walk("");
  return found;
}

/** A route file that states no logic: its methods are one route module of the app's, mounted. */
const MOUNT = /^export const \{ GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS \} = app\(\)\.routes\.([\w.]+);$/m;

describe("the route files", () => {
  it("each mount one of the app's route modules and state nothing else", () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(40);
    const stating = files.filter((f) => !MOUNT.test(f.text)).map((f) => f.dir);
    expect(stating).toEqual([]);
    for (const f of files.filter((f) => MOUNT.test(f.text))) {
      const code = f.text.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("//"));
      expect(code, f.dir).toEqual(['import { app } from "@/lib/root";', 'export const dynamic = "force-dynamic";', expect.stringMatching(MOUNT)]);
    }
  });

  it("mount each playground route module at the path its operations declare, with their methods", () => {
    const mounted = new Map<string, string>();
    for (const f of routeFiles()) {
      const key = MOUNT.exec(f.text)?.[1];
      if (key?.startsWith("playground.")) mounted.set(key.slice("playground.".length), `/${f.dir}`);
    }
    const keys = [...new Set(playgroundOperations.map((o) => o.route))];
    expect([...mounted.keys()].sort()).toEqual([...keys].sort());
    for (const key of keys) {
      const dir = mounted.get(key)!;
      const declared = playgroundOperations.filter((o) => o.route === key).map((o) => siteOperations.find((s) => s.id === o.op)!);
      for (const d of declared) expect(shape(d.path), `${d.id} at ${dir}`).toBe(shape(dir));
      expect(declared.map((d) => d.method).sort(), dir).toEqual(routesUnder(dir.slice(1)).find((r) => r.path === dir)!.methods.sort());
    }
  });

  it("take each playground operation's handler from one file, and each declaration mounted by the playground's routes has one", () => {
    const handled = playgroundOperations.map((o) => o.op);
    expect(new Set(handled).size).toBe(handled.length);
    const routeDirs = new Set(routeFiles().filter((f) => MOUNT.exec(f.text)?.[1]?.startsWith("playground.")).map((f) => shape(`/${f.dir}`)));
    const served = siteOperations.filter((o) => routeDirs.has(shape(o.path))).map((o) => o.id);
    expect([...handled].sort()).toEqual(served.sort());
  });
});

describe("the registry of operations", () => {
  it("has an entry for every method of every playground, account, OAuth and health route", () => {
    const routes = siteRoutes();
    expect(routes.length).toBeGreaterThan(22);
    const missing = routes.flatMap((r) => r.methods.map((m) => `${m} ${shape(r.path)}`)).filter((k) => ![...registered].some((o) => answers(k, o)));
    expect(missing).toEqual([]);
  });

  it("names only operations that have a route", () => {
    const served = new Set(siteRoutes().flatMap((r) => r.methods.map((m) => `${m} ${shape(r.path)}`)));
    // Saving's paths are the space's, which the edge hands to its save route and pages.
    const unserved = siteOperations.filter((o) => !o.path.startsWith("/~/") && ![...served].some((r) => answers(r, `${o.method} ${shape(o.path)}`))).map((o) => o.id);
    expect(unserved).toEqual([]);
  });

  it("documents exactly the registered operations, each once, with the registry's method, path and summary", () => {
    const docs = buildOperations(new SchemaSet());
    const site = docs.filter((d) => d.base === "origin");
    const api = docs.filter((d) => d.base === "api");
    expect(site.map((d) => d.operationId).sort()).toEqual(siteOperations.map((o) => o.id).sort());
    for (const o of siteOperations) expect(site.find((d) => d.operationId === o.id), o.id).toMatchObject({ method: o.method, path: o.path, summary: o.summary });
    expect(api.map((d) => d.operationId).sort()).toEqual(endpoints.map((e) => e.id).sort());
  });

  it("gives each MCP tool one operation", () => {
    const tools = siteOperations.flatMap((o) => ("tool" in o ? [o.tool.name] : []));
    expect(new Set(tools).size).toBe(tools.length);
    expect(tools.length).toBe(10);
  });

  it("tells route shapes apart", () => {
    expect(shape("/dashboards/playground/draft/[token]/render/[file]")).toBe(shape("/dashboards/playground/draft/:read_id/render/:file"));
    expect(shape("/dashboards/playground/api/[[...path]]")).toBe(shape("/dashboards/playground/api/:apiPath"));
    expect(shape("/dashboards/playground/draft/[token]")).not.toBe(shape("/dashboards/playground/draft"));
    expect(answers(`GET ${shape("/.well-known/oauth-protected-resource/[[...path]]")}`, "GET /.well-known/oauth-protected-resource/dashboards/playground/mcp")).toBe(true);
    expect(answers("POST /.well-known/oauth-protected-resource/*", "GET /.well-known/oauth-protected-resource/dashboards/playground/mcp")).toBe(false);
    expect(answers("GET /oauth/token", "GET /oauth/token/more")).toBe(false);
  });
});

describe("the MCP tools", () => {
  const declared = siteOperations.flatMap((o) => ("tool" in o ? [o.id] : []));

  it("are listed in tools/list's order once each, every declared tool and no other", () => {
    const listed = toolOperations.map((o) => o.id);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...declared].sort());
  });

  it("each have one implementation, and each implementation a declaration", () => {
    const implemented = toolImplementations.map((t) => t.op as string);
    expect(new Set(implemented).size).toBe(implemented.length);
    expect([...implemented].sort()).toEqual([...declared].sort());
  });

  it("are implemented only by modules the tool list holds", async () => {
    const dir = path.join(root, "lib/agent/tools");
    const exported: { file: string; tool: PlaygroundTool }[] = [];
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      const mod = (await import(path.join(dir, file))) as Record<string, unknown>;
      for (const value of Object.values(mod)) {
        if (value && typeof value === "object" && "op" in value && "register" in value) exported.push({ file, tool: value as PlaygroundTool });
      }
    }
    expect(exported.length).toBeGreaterThanOrEqual(declared.length);
    expect(exported.filter((e) => !toolImplementations.includes(e.tool)).map((e) => e.file)).toEqual([]);
  });

  it("register under their declarations' names, titles and descriptions, in the declared order", () => {
    const seen: { name: string; title?: string; description?: string }[] = [];
    const server = { registerTool: (name: string, config: { title?: string; description?: string }) => seen.push({ name, title: config.title, description: config.description }) };
    const ctx = { request: new Request("http://localhost/"), playground: () => Promise.reject(new Error("not called")), legacy: false, log: () => {} };
    for (const tool of playgroundTools) tool.register(server as unknown as Parameters<PlaygroundTool["register"]>[0], ctx);
    expect(seen).toEqual(toolOperations.map((o) => o.tool));
  });
});
