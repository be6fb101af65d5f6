import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { accountPageFor, atEdge, isJsonPath, methodsAt, undecodableSegment } from "./pre-route";

const url = (p: string) => new URL(p, "http://127.0.0.1:3000");
const routed = (method: string, p: string) => {
  const r = atEdge(method, url(p));
  return "pathname" in r ? r.pathname : null;
};

/** Each page and route file under `areas` of app/, with an address it answers. */
function filesUnder(areas: string[]): { sample: string; kind: "route" | "page" }[] {
  const root = path.resolve(import.meta.dirname, "../../app");
  const found: { sample: string; kind: "route" | "page" }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^(route|page)\.tsx?$/.test(e.name)) {
        const sample = `/${path.relative(root, dir).split(path.sep).join("/")}`
          .replace(/\/\[\[\.\.\.[^\]]+\]\]/g, "/x/y")
          .replace(/\/\[\.\.\.[^\]]+\]/g, "/x/y")
          .replace(/\/\[[^\]]+\]/g, "/x")
          .replace(/\/$/, "");
        found.push({ sample: sample || "/", kind: e.name.startsWith("route") ? "route" : "page" });
      }
    }
  };
  for (const area of areas) walk(path.join(root, area));
  return found;
}

describe("the edge", () => {
  it("finds segments whose percent-encoding does not decode", () => {
    expect(undecodableSegment("/api/%E0%A4%A")).toBe("%E0%A4%A");
    expect(undecodableSegment("/~/member/%C0%AF")).toBe("%C0%AF");
    expect(undecodableSegment("/x/%ED%A0%80/y")).toBe("%ED%A0%80");
    expect(undecodableSegment("/x/%")).toBe("%");
    for (const ok of ["/", "/api/me", "/~/member/%25E0", "/api/%00", "/a/%F0%9F%98%80", "/a/%2F"]) expect(undecodableSegment(ok)).toBeNull();
  });

  it("answers an undecodable path with 400 invalid_path, whatever the route", async () => {
    for (const p of ["/api/%E0%A4%A", "/docs/%FF", "/~/a/%E0%A4%A", "/dashboards/playground/draft/%C0%80/events"]) {
      const r = atEdge("GET", url(p));
      expect("answer" in r && r.answer.status).toBe(400);
      if ("answer" in r) expect(await r.answer.json()).toEqual({ error: "invalid_path", hint: expect.any(String) });
    }
  });

  it("routes a JSON route's address with a trailing slash to the address without it; a page's redirects", () => {
    expect(routed("GET", "/api/me/")).toBe("/api/me");
    expect(routed("POST", "/dashboards/playground/draft/")).toBe("/dashboards/playground/draft");
    expect(routed("POST", "/~/member/x/")).toBe("/~/member/x");
    expect(routed("GET", "/api/me")).toBe("/api/me");
    const page = atEdge("GET", url("/~/member/x/?a=1"));
    expect("answer" in page && [page.answer.status, page.answer.headers.get("location")]).toEqual([308, "http://127.0.0.1:3000/~/member/x?a=1"]);
    expect(routed("GET", "/")).toBe("/");
  });

  it("knows which addresses are JSON routes", () => {
    expect(isJsonPath("/api/me", "GET")).toBe(true);
    expect(isJsonPath("/dashboards/playground/draft/x", "GET")).toBe(true);
    expect(isJsonPath("/dashboards/playground", "GET")).toBe(false);
    expect(isJsonPath("/dashboards/playground/watch/x", "GET")).toBe(false);
    expect(isJsonPath("/dashboards/playground/d/x", "GET")).toBe(false);
    expect(isJsonPath("/dashboards/playground/llms.txt", "GET")).toBe(false);
    expect(isJsonPath("/~/member/x", "GET")).toBe(false);
    expect(isJsonPath("/~/member/x", "POST")).toBe(true);
    expect(isJsonPath("/~/member/x/source", "GET")).toBe(true);
    expect(isJsonPath("/signin", "POST")).toBe(false);
    expect(isJsonPath("/healthz", "GET")).toBe(true);
    expect(isJsonPath("/readyz", "GET")).toBe(true);
    // Prometheus text, not JSON: a trailing slash there redirects like a page's.
    expect(isJsonPath("/metrics", "GET")).toBe(false);
  });

  it("answers unknown addresses under /account and the playground with the 404 envelope", async () => {
    for (const p of ["/account/nope", "/dashboards/playground/nope", "/dashboards/playground/draft/x/nope"]) {
      const r = atEdge("POST", url(p));
      expect("answer" in r && r.answer.status, p).toBe(404);
    }
    // /account itself is the account's page.
    expect(routed("GET", "/account")).toBe("/account");
  });

  it("sends a browser that opens an account action to its page, and leaves anything else to the route's 405", () => {
    const html = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    expect(accountPageFor("/account/home", "GET", html)).toBe("/account#home");
    expect(accountPageFor("/account/favourites", "HEAD", html)).toBe("/account#favourites");
    expect(accountPageFor("/account/trust", "GET", html)).toBe("/account#trusted-authors");
    expect(accountPageFor("/account/home", "GET", "application/json")).toBeNull();
    expect(accountPageFor("/account/home", "GET", null)).toBeNull();
    expect(accountPageFor("/account/home", "POST", html)).toBeNull();
    expect(accountPageFor("/account/nope", "GET", html)).toBeNull();
    expect(accountPageFor("/account/constructor", "GET", html)).toBeNull();
  });

  // The edge's list of JSON routes must name every route file in the areas it closes, or a new
  // route there would be answered 404 before it runs.
  it("lets through every route and page under /account and the playground", () => {
    const found = filesUnder(["account", "dashboards/playground"]);
    expect(found.length).toBeGreaterThan(8);
    for (const { sample, kind } of found) {
      expect(routed("GET", sample), sample).toBe(sample);
      if (kind === "route") expect(routed("POST", sample), sample).toBe(sample);
    }
  });

  // A new route file with no entry would be taken for a page, and its writes refused here.
  it("knows the methods of every route file, and takes every page for a page", () => {
    const found = filesUnder([""]);
    expect(found.filter((f) => f.kind === "route").length).toBeGreaterThan(25);
    // A saved dashboard's address is its page for GET and the save route for POST (proxy.ts).
    const shared = new Set(["/~/x/x"]);
    for (const { sample, kind } of found) {
      expect(methodsAt(sample).route, `${kind} ${sample}`).toBe(kind === "route" || shared.has(sample));
      if (kind === "page") expect(methodsAt(sample).allow, sample).toMatch(/^GET, HEAD/);
    }
  });

  it("answers a method no route takes, and any write to a page, with the 405 envelope naming what the address answers", async () => {
    for (const [method, p, allow] of [
      ["PROPFIND", "/api/me", "GET, HEAD"],
      ["MKCOL", "/dashboards/playground/draft", "POST"],
      ["TRACE", "/", "GET, HEAD"],
      ["PROPFIND", "/account/home", "POST"],
      ["PUT", "/docs", "GET, HEAD"],
      ["POST", "/dashboards/playground", "GET, HEAD"],
      ["DELETE", "/~/csm", "GET, HEAD"],
      ["PROPFIND", "/~/csm/my-book", "GET, HEAD, POST"],
    ] as const) {
      const r = atEdge(method, url(p));
      expect("answer" in r, `${method} ${p}`).toBe(true);
      if (!("answer" in r)) continue;
      expect(r.answer.status).toBe(405);
      expect(r.answer.headers.get("allow"), `${method} ${p}`).toBe(allow);
      expect(await r.answer.json()).toEqual({ error: "method_not_allowed", hint: `${method} is not a method this address answers; it answers ${allow}.` });
    }
    // A route's own refusals of the standard methods stay its own.
    expect(routed("DELETE", "/api/me")).toBe("/api/me");
    expect(routed("OPTIONS", "/dashboards/playground/draft")).toBe("/dashboards/playground/draft");
  });
});
