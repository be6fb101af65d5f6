import { describe, expect, it } from "vitest";
import { analyseDraft, paramReadsOf } from "./index";

const page = (script: string) => `<!doctype html>\n<html><body>\n<p id="out"></p>\n<script>\n${script}\n</script>\n</body></html>\n`;
const reads = (script: string) => analyseDraft(page(script)).params;

describe("the parameters a dashboard reads", () => {
  it.each([
    ["a property of window.DASHBOARD_PARAMS", "const d = window.DASHBOARD_PARAMS.days;", ["days"]],
    ["the bare global", "const d = DASHBOARD_PARAMS.days;", ["days"]],
    ["a bracket string", 'const f = window.DASHBOARD_PARAMS["from"];', ["from"]],
    ["a template key", "const f = DASHBOARD_PARAMS[`team`];", ["team"]],
    ["the fallback in brackets", 'out.textContent = (window.DASHBOARD_PARAMS || {}).days || "none";', ["days"]],
    ["optional chaining", "const d = window.DASHBOARD_PARAMS?.days;", ["days"]],
    ["the documented alias", 'const params = window.DASHBOARD_PARAMS || {};\nconst days = /^[0-9]{1,3}$/.test(params.days || "") ? Number(params.days) : 30;\nconst from = params["from"];', ["days", "from"]],
    ["an alias of an alias", "const params = window.DASHBOARD_PARAMS ?? {}; const p = params; use(p.region);", ["region"]],
    ["an alias assigned later", "let q; q = globalThis.DASHBOARD_PARAMS; use(q.owner_id);", ["owner_id"]],
    ["destructuring", 'const { days, from: start, "team": t } = window.DASHBOARD_PARAMS || {};', ["days", "from", "team"]],
    ["destructuring an alias", "const params = self.DASHBOARD_PARAMS; const { region } = params;", ["region"]],
  ])("are found in %s", (_, code, expected) => {
    expect(reads(code)).toEqual(expected);
  });

  it("lists each name once, in the order first read, across scripts and handlers", () => {
    const html = `<!doctype html><button onclick="alert(DASHBOARD_PARAMS.team)">t</button>${page("const p = DASHBOARD_PARAMS; use(p.days, p.team, p.days);")}`;
    expect(analyseDraft(html).params).toEqual(["team", "days"]);
  });

  it.each([
    ["a name the page never passes", "use(window.DASHBOARD_PARAMS.Days, DASHBOARD_PARAMS['two words'], DASHBOARD_PARAMS._x);"],
    ["a computed key", "const k = 'days'; use(DASHBOARD_PARAMS[k]);"],
    ["a method call", "const params = DASHBOARD_PARAMS; params.get('days');"],
    ["another object's property", "const params = new URLSearchParams(location.search); use(params.days, window.OTHER.days);"],
    ["the global itself", "const all = window.DASHBOARD_PARAMS; console.log(Object.keys(all));"],
    ["a name only in a string", 'out.textContent = "DASHBOARD_PARAMS.days";'],
  ])("leave out %s", (_, code) => {
    expect(reads(code)).toEqual([]);
  });

  it("keeps to as many names as the page passes", () => {
    const names = Array.from({ length: 30 }, (_, i) => `n${i}`);
    const found = reads(`use(${names.map((n) => `DASHBOARD_PARAMS.${n}`).join(", ")});`);
    expect(found).toEqual(names.slice(0, 20));
  });

  it("reads nothing from a document that never names the global, and survives one that does not parse", () => {
    expect(paramReadsOf(page("const d = window.PARAMS.days;"))).toEqual([]);
    expect(paramReadsOf(page("const d = DASHBOARD_PARAMS.days; {"))).toEqual([]);
    expect(paramReadsOf(page("const d = DASHBOARD_PARAMS.days;"))).toEqual(["days"]);
  });
});
