import { describe, expect, it } from "vitest";
import { DASHBOARD_PARAMS_MAX, DASHBOARD_PARAM_VALUE_MAX, dashboardParamsProblem, droppedText, paramValueProblem, paramsKey, parseDashboardParams, withDashboardParams } from "./params";

const parse = (query: string) => parseDashboardParams(new URLSearchParams(query));

describe("parseDashboardParams", () => {
  it("passes p.<name> on as strings and leaves the page's own parameters alone", () => {
    const { params, dropped } = parse("p.days=90&p.from=2026-01-01&kiosk=1&revision=2");
    expect({ ...params }).toEqual({ days: "90", from: "2026-01-01" });
    expect(dropped).toEqual([]);
  });

  it("reads the framework's searchParams record, arrays included", () => {
    const { params, dropped } = parseDashboardParams({ "p.days": ["30", "60"], "p.team": "north", kiosk: "1", other: undefined });
    expect({ ...params }).toEqual({ days: "30", team: "north" });
    expect(dropped).toEqual([{ name: "days", reason: "repeated" }]);
  });

  it("drops names outside [a-z][a-z0-9_]{0,31}", () => {
    const bad = ["__proto__", "constructor.x", "Days", "1st", "", "a-b", "x".repeat(33), "é", "a b", "to%5Bstring%5D"];
    const query = new URLSearchParams(bad.map((n) => [`p.${n}`, "1"]));
    const { params, dropped } = parseDashboardParams(query);
    expect(Object.keys(params)).toEqual([]);
    expect(dropped.map((d) => d.reason)).toEqual(bad.map(() => "name"));
    expect(Object.getPrototypeOf(params)).toBeNull();
  });

  it("keeps names like constructor as plain data on an object with no prototype", () => {
    const { params } = parse("p.constructor=a&p.tostring=b&p.x_1=c");
    expect({ ...params }).toEqual({ constructor: "a", tostring: "b", x_1: "c" });
    expect(Object.isFrozen(params)).toBe(true);
    expect(parse("").params.constructor).toBeUndefined();
  });

  it("keeps markup as inert text and drops long values and control characters", () => {
    const long = "v".repeat(DASHBOARD_PARAM_VALUE_MAX + 1);
    const { params, dropped } = parseDashboardParams(
      new URLSearchParams([
        ["p.x", "</script><script>alert(1)</script>"],
        ["p.edge", "v".repeat(DASHBOARD_PARAM_VALUE_MAX)],
        ["p.big", long],
        ["p.nl", "a\nb"],
        ["p.rtl", "a\u202eb"],
      ]),
    );
    expect(params.x).toBe("</script><script>alert(1)</script>");
    expect(params.edge).toHaveLength(DASHBOARD_PARAM_VALUE_MAX);
    expect(dropped).toEqual([
      { name: "big", reason: "long" },
      { name: "nl", reason: "control" },
      { name: "rtl", reason: "control" },
    ]);
  });

  it("keeps the first 20 and drops the rest, each named", () => {
    const query = new URLSearchParams(Array.from({ length: 100 }, (_, i) => [`p.k${i}`, String(i)]));
    const { params, dropped } = parseDashboardParams(query);
    expect(Object.keys(params)).toHaveLength(DASHBOARD_PARAMS_MAX);
    expect(params.k19).toBe("19");
    expect(params.k20).toBeUndefined();
    expect(dropped).toHaveLength(80);
    expect(dropped.every((d) => d.reason === "too-many")).toBe(true);
  });

  it("says which were dropped in one bounded sentence, with hostile names cleaned and clipped", () => {
    expect(droppedText([])).toBeNull();
    expect(droppedText([{ name: "Days", reason: "name" }])).toBe(
      "One address parameter was not passed to the dashboard: p.Days (not a name of lower-case letters, digits and _ (up to 32, starting with a letter)).",
    );
    const { dropped } = parse(`p.${"\u202e".repeat(3)}${"a".repeat(500)}=1&${Array.from({ length: 30 }, (_, i) => `p.K${i}=1`).join("&")}`);
    const text = droppedText(dropped) ?? "";
    expect(text).toMatch(/^31 address parameters were not passed/);
    expect(text).toContain("and 26 more");
    expect(text).not.toContain("\u202e");
    expect(text.length).toBeLessThan(1000);
  });

  it("keys parameters independently of their order", () => {
    expect(paramsKey(parse("p.a=1&p.b=2").params)).toBe(paramsKey(parse("p.b=2&p.a=1").params));
    expect(paramsKey(parse("p.a=1").params)).not.toBe(paramsKey(parse("p.a=2").params));
    expect(paramsKey(undefined)).toBe("");
  });
});

describe("paramValueProblem", () => {
  it("accepts what the page would pass and names what it would not", () => {
    expect(paramValueProblem("90")).toBeNull();
    expect(paramValueProblem("x".repeat(DASHBOARD_PARAM_VALUE_MAX))).toBeNull();
    expect(paramValueProblem("x".repeat(DASHBOARD_PARAM_VALUE_MAX + 1))).toMatch(`At most ${DASHBOARD_PARAM_VALUE_MAX} characters`);
    for (const bad of ["a\u0000b", "line\nbreak", "rtl\u202eoverride", "zero\u200bwidth"]) expect(paramValueProblem(bad)).toMatch(/control or invisible/);
  });

  it("agrees with the parser: a value it accepts is passed on unchanged", () => {
    for (const value of ["90", "2026-01-01..2026-03-31", "a b & c = d", "é 日本"]) {
      expect(paramValueProblem(value)).toBeNull();
      expect(parse(new URLSearchParams({ "p.v": value }).toString()).params.v).toBe(value);
    }
  });
});

describe("withDashboardParams", () => {
  it("replaces the dashboard's parameters and keeps the page's own, and the fragment", () => {
    const next = withDashboardParams("https://x.test/~/ana/sales?kiosk=1&p.days=30&revision=2&p.team=north#top", { days: "90", from: "2026-01-01" });
    expect(next).toBe("/~/ana/sales?kiosk=1&revision=2&p.days=90&p.from=2026-01-01#top");
  });

  it("leaves out an empty value, and the query altogether when nothing is left", () => {
    expect(withDashboardParams("https://x.test/d?p.days=30", { days: "" })).toBe("/d");
    expect(withDashboardParams("https://x.test/d?static=1&p.days=30", { days: "", team: "a b&c" })).toBe("/d?static=1&p.team=a+b%26c");
  });

  it("writes an address the page reads back as the same parameters", () => {
    const values = { days: "90", q: "a=b&c", emoji: "😀" };
    const back = parseDashboardParams(new URL(withDashboardParams("https://x.test/d?p.old=1", values), "https://x.test").searchParams);
    expect({ ...back.params }).toEqual(values);
  });
});

describe("parameters given as an object (a render)", () => {
  it("passes what the page would pass, and names what it would drop, and why", () => {
    expect(dashboardParamsProblem({})).toBeNull();
    expect(dashboardParamsProblem({ district: "Northwind", days: "90" })).toBeNull();
    expect(dashboardParamsProblem({ District: "x" })).toMatch(/"District" \(not a name of lower-case letters/);
    expect(dashboardParamsProblem({ q: "x".repeat(DASHBOARD_PARAM_VALUE_MAX + 1) })).toMatch(/"q" \(longer than 200 characters\)/);
    expect(dashboardParamsProblem({ q: "a\u202eb" })).toMatch(/"q" \(holds control or invisible characters\)/);
    const many = Object.fromEntries(Array.from({ length: DASHBOARD_PARAMS_MAX + 2 }, (_, i) => [`k${i}`, "v"]));
    expect(dashboardParamsProblem(many)).toMatch(/more than 20 parameters/);
    // The address's prefix is the one mistake worth naming.
    expect(dashboardParamsProblem({ "p.district": "x" })).toContain('without the "p." prefix');
  });
});
