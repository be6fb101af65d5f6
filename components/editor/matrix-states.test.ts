import { describe, expect, it } from "vitest";
import { demoApiResponse } from "@/lib/demo-api/answers";
import { isScenario, scenarioNamed } from "@/lib/demo-api/data";
import { MATRIX_STATES } from "./matrix-states";

const status = (scenario: string, path: string) => demoApiResponse({ path, search: new URLSearchParams(), scenario }).status;

describe("the editor's state matrix", () => {
  it("names only scenarios the demo data has, each once", () => {
    for (const s of MATRIX_STATES) expect(isScenario(s.scenario), s.scenario).toBe(true);
    expect(new Set(MATRIX_STATES.map((s) => s.scenario)).size).toBe(MATRIX_STATES.length);
    expect(new Set(MATRIX_STATES.map((s) => s.id)).size).toBe(MATRIX_STATES.length);
  });

  it("covers rich, empty, not connected, signed out and outage", () => {
    expect(MATRIX_STATES.map((s) => s.id)).toEqual(expect.arrayContaining(["rich", "empty", "not-connected", "signed-out", "outage"]));
  });

  it("each state's scenario answers as its label says", () => {
    const by = (id: string) => MATRIX_STATES.find((s) => s.id === id)?.scenario ?? "";
    expect(status(by("rich"), "/me")).toBe(200);
    expect(demoApiResponse({ path: "/me/favourites", search: new URLSearchParams(), scenario: by("empty") }).body).toEqual({ favourites: [] });
    expect(status(by("not-connected"), "/vendors/tracker/issues")).toBe(401);
    expect(demoApiResponse({ path: "/cx/districts", search: new URLSearchParams(), scenario: by("waiting") }).body).toMatchObject({ ok: false });
    expect(status(by("signed-out"), "/me")).toBe(401);
    expect(status(by("outage"), "/cx/districts")).toBe(500);
    expect(status(by("outage"), "/vendors/support/conversations")).toBe(502);
    expect(scenarioNamed(by("outage"))?.description).toMatch(/fail/i);
  });
});
