import { describe, expect, it } from "vitest";
import { dashboardExamples } from "@/demo/examples";
import { fetchIdioms, idiomPage, unreadableIdioms } from "@/tests/fixtures/fetch-idioms";
import { analyseDraft } from "./index";

// The manifest is what a viewer agrees to: every path the code fetches and nothing else. The
// corpus's idioms are each run in the service's renderer too (tests/integration/renderer/
// manifest.test.ts), where what the broker relays must equal what the check reads here.

/** Where a script given to idiomPage starts, as a line of the document. */
const SCRIPT_LINE = idiomPage({ name: "x", script: "§", paths: [] }).split("\n").findIndex((l) => l.includes("§")) + 1;

describe("the manifest of a corpus of fetch-building idioms", () => {
  it("holds 30 idioms", () => {
    expect(fetchIdioms).toHaveLength(30);
    expect(new Set(fetchIdioms.map((i) => i.name)).size).toBe(30);
  });

  for (const idiom of fetchIdioms) {
    it(`reads exactly the paths of: ${idiom.name}`, () => {
      const a = analyseDraft(idiomPage(idiom));
      expect(a.reads).toEqual({ paths: idiom.paths, complete: true });
      expect(a.warnings.filter((w) => w.rule === "read-unresolved")).toEqual([]);
    });
  }
});

describe("a read the check cannot resolve", () => {
  for (const idiom of unreadableIdioms) {
    it(`is a finding at its line, not a guess: ${idiom.name}`, () => {
      const a = analyseDraft(idiomPage({ name: idiom.name, script: idiom.script, paths: [] }));
      expect(a.reads).toEqual({ paths: idiom.paths, complete: false });
      const found = a.warnings.filter((w) => w.rule === "read-unresolved");
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ severity: "warning", line: SCRIPT_LINE + idiom.line - 1 });
      expect(found[0]?.message).toContain("fetch(");
    });
  }

  it("names no phantom detail read for an optional cursor (the paging idiom the check itself suggests)", () => {
    const a = analyseDraft(idiomPage({ name: "p", script: `let cursor = null; fetch(API + "/vendors/support/conversations" + (cursor ? "?cursor=" + cursor : ""));`, paths: [] }));
    expect(a.reads.paths).toEqual(["/vendors/support/conversations"]);
  });

  it("does not count a path written anywhere but a request", () => {
    const a = analyseDraft(idiomPage({ name: "p", script: `const HELP = "/cx/book"; const link = API + "/crm/customers/deals"; fetch(API + "/me");`, paths: [] }));
    expect(a.reads).toEqual({ paths: ["/me"], complete: true });
  });

  it("follows a helper and a constant across script blocks", () => {
    const html = `<!doctype html><script>const API = window.DASHBOARD_API_BASE || "/api"; const PATHS = ["/me", "/cx/owners"]; function get(p) { return fetch(API + p); }</script>
<script>PATHS.forEach((p) => get(p)); get("/me/home");</script>`;
    expect(analyseDraft(html).reads).toEqual({ paths: ["/cx/owners", "/me", "/me/home"], complete: true });
  });

  it("reads a path list embedded as JSON data", () => {
    const html = `<!doctype html><script>const VIEWS = [{"path": "/cx/owners"}, {"path": "/cx/districts"}];
const API = window.DASHBOARD_API_BASE || "/api"; for (const v of VIEWS) fetch(API + v.path);</script>`;
    expect(analyseDraft(html).reads).toEqual({ paths: ["/cx/districts", "/cx/owners"], complete: true });
  });

  it("gives every example dashboard an exact, complete manifest", () => {
    const want: Record<string, string[]> = {
      "cx-book": ["/cx/book", "/cx/owners", "/vendors/support/conversations"],
      "district-health": ["/cx/districts"],
      "crm-pipeline": ["/crm/customers/deals", "/crm/customers/sources", "/crm/customers/summary"],
    };
    for (const e of dashboardExamples) {
      const a = analyseDraft(e.html);
      expect(a.reads, e.id).toEqual({ paths: want[e.id], complete: true });
      expect(a.warnings.filter((w) => w.rule === "read-unresolved"), e.id).toEqual([]);
    }
  });
});
