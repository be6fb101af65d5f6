import { describe, expect, it } from "vitest";
import { analyseDraft } from "./index";
import { readAllowed, READS_MAX, resolveShape } from "./reads";
import { SEG } from "./resolve-values";
import { HOLE } from "./urls";

// The manifest of reads: what a viewer is shown before a dashboard runs on their data, and all
// the broker then answers.

const page = (script: string) => `<!doctype html><html><body><script>\nconst API = window.DASHBOARD_API_BASE || "/api";\n${script}\n</script></body></html>`;
const readsOf = (script: string) => analyseDraft(page(script)).reads;

describe("the manifest of reads", () => {
  it("fills in path values written literally and keeps computed ones open", () => {
    expect(readsOf(`fetch(API + "/me"); fetch(API + "/crm/users/contacts?limit=50"); fetch(\`\${API}/crm/\${inst}/deals\`);`)).toEqual({
      paths: ["/crm/:instance/deals", "/crm/users/contacts", "/me"],
      complete: true,
    });
  });

  it("reads paths handed to a helper, and paths in data only when they are fetched", () => {
    const r = readsOf(`async function get(p) { const res = await fetch(API + p); return res.ok ? res.json() : null; }
      const views = [{ path: "/cx/book?owner=o1" }, { path: "/cx/districts" }];
      const unused = [{ path: "/crm/customers/deals" }];
      get("/me/favourites");
      views.forEach((v) => get(v.path));`);
    expect(r.paths).toEqual(["/cx/book", "/cx/districts", "/me/favourites"]);
    expect(r.complete).toBe(true);
  });

  it("says when the paths cannot be read ahead", () => {
    expect(readsOf(`const p = atob("L21l"); fetch(API + p);`)).toEqual({ paths: [], complete: false });
    // Every written path goes straight into a request, and one more request is built at run time.
    expect(readsOf(`fetch(API + "/me"); fetch(API + atob("L21lL2Zhdm91cml0ZXM="));`)).toEqual({ paths: ["/me"], complete: false });
    // A helper handed written paths is read ahead.
    expect(readsOf(`const get = (p) => fetch(API + p); get("/me");`)).toEqual({ paths: ["/me"], complete: true });
    // A document that reads nothing has nothing to hide.
    expect(readsOf(`document.body.textContent = "hello";`)).toEqual({ paths: [], complete: true });
  });

  it("names one template for a shape, and none when it could be several", () => {
    expect(resolveShape(`${HOLE}/crm/customers/${HOLE}`)).toEqual({ kind: "unresolved" });
    expect(resolveShape(`${HOLE}/crm/${HOLE}/deals?limit=5`)).toEqual({ kind: "path", path: "/crm/:instance/deals" });
    expect(resolveShape(`${HOLE}/vendors/support/conversations/${SEG}`)).toEqual({ kind: "path", path: "/vendors/support/conversations/:id" });
    // A computed piece glued to a list's path could go on to its detail path: no guess.
    expect(resolveShape(`${HOLE}/vendors/support/conversations${HOLE}`)).toEqual({ kind: "unresolved" });
    expect(resolveShape(`${HOLE}/vendors/support/conversations${SEG}`)).toEqual({ kind: "path", path: "/vendors/support/conversations" });
    expect(resolveShape(`${HOLE}/${HOLE}`)).toEqual({ kind: "unresolved" });
    expect(resolveShape(HOLE)).toEqual({ kind: "unresolved" });
    expect(resolveShape("https://evil.example/steal")).toEqual({ kind: "outside" });
    expect(resolveShape("/dashboards/playground/draft/abc")).toEqual({ kind: "outside" });
  });

  it("keeps a hostile document's manifest small", () => {
    const many = Array.from({ length: 500 }, (_, i) => `fetch(API + "/crm/c${i}/contacts");`).join("\n");
    expect(readsOf(many).paths.length).toBe(READS_MAX);
  });

});

describe("readAllowed", () => {
  const paths = ["/crm/:instance/deals", "/crm/customers/contacts", "/me"];
  it("admits the templates and nothing else", () => {
    expect(readAllowed(paths, "/me")).toBe(true);
    expect(readAllowed(paths, "/crm/users/deals")).toBe(true);
    expect(readAllowed(paths, "/crm/customers/contacts")).toBe(true);
    expect(readAllowed(paths, "/crm/users/contacts")).toBe(false);
    expect(readAllowed(paths, "/me/favourites")).toBe(false);
    expect(readAllowed(paths, "/crm//deals")).toBe(false);
    expect(readAllowed([], "/me")).toBe(false);
  });
});
