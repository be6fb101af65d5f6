import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { atEdge, isJsonPath, undecodableSegment } from "./pre-route";

const url = (p: string) => new URL(p, "http://127.0.0.1:3000");
const routed = (method: string, p: string) => {
  const r = atEdge(method, url(p));
  return "pathname" in r ? r.pathname : null;
};

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
    for (const p of ["/account", "/account/nope", "/dashboards/playground/nope", "/dashboards/playground/draft/x/nope"]) {
      const r = atEdge("POST", url(p));
      expect("answer" in r && r.answer.status, p).toBe(404);
    }
  });

  // The edge's list of JSON routes must name every route file in the areas it closes, or a new
  // route there would be answered 404 before it runs.
  it("lets through every route and page under /account and the playground", () => {
    const root = path.resolve(import.meta.dirname, "../../app");
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/^(route|page)\.tsx?$/.test(e.name)) found.push(path.relative(root, dir));
      }
    };
    walk(path.join(root, "account"));
    walk(path.join(root, "dashboards", "playground"));
    expect(found.length).toBeGreaterThan(8);
    for (const dir of found) {
      const sample = `/${dir.split(path.sep).join("/")}`
        .replace(/\/\[\[\.\.\.[^\]]+\]\]/g, "/x/y")
        .replace(/\/\[\.\.\.[^\]]+\]/g, "/x/y")
        .replace(/\/\[[^\]]+\]/g, "/x");
      expect(routed("GET", sample), sample).toBe(sample);
      expect(routed("POST", sample), sample).toBe(sample);
    }
  });
});
