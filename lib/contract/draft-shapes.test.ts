import { describe, expect, it } from "vitest";
import { draftEventShape, draftViewShape } from "./draft-shapes";
import { draftEvent, draftView } from "./playground";
import { INVALID } from "./json-shape";

// The plain shapes and the zod schemas answer alike: the same value for a well-formed draft, a
// refusal for each way one can be malformed.

const view = {
  id: "AbCdEfGhIjKlMnOpQr",
  revision: 3,
  html: "<!doctype html><title>t</title>",
  dataMode: "demo",
  scenario: "default",
  examples: { "/vendors/tracker/issues": "empty" },
  dash: null,
  updatedAt: 1764000000000,
  warnings: [{ rule: "hardcoded-api-base", severity: "warning", message: "m", line: 4, column: 2, hint: "h" }],
  reads: { paths: ["/me"], complete: true },
};
const event = { revision: 4, scenario: "default", examples: {}, dash: "my-book", html: "<p>x</p>" };

const spoiled = (base: Record<string, unknown>, path: string[], value: unknown) => {
  const copy = structuredClone(base) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  if (value === undefined) delete at[path.at(-1)!];
  else at[path.at(-1)!] = value;
  return copy;
};

const viewCases: [string[], unknown][] = [
  [["id"], 7],
  [["revision"], 1.5],
  [["revision"], "3"],
  [["html"], undefined],
  [["dataMode"], "live-ish"],
  [["examples"], { "/me": 1 }],
  [["examples"], ["empty"]],
  [["dash"], undefined],
  [["updatedAt"], Number.NaN],
  [["warnings"], [{ ...view.warnings[0], severity: "fatal" }]],
  [["warnings"], [{ ...view.warnings[0], line: 0 }]],
  [["warnings"], [{ ...view.warnings[0], hint: undefined }]],
  [["reads", "complete"], "yes"],
  [["reads", "paths"], [1]],
];

describe("the draft's plain shapes", () => {
  it("read a well-formed draft and event as the schemas do, extra fields left out", () => {
    expect(draftViewShape({ ...view, extra: true })).toEqual(draftView.parse(view));
    expect(draftEventShape({ ...event, extra: true })).toEqual(draftEvent.parse(event));
    expect(draftViewShape({ ...view, dash: "my-book", dataMode: "live", warnings: [] })).toEqual(draftView.parse({ ...view, dash: "my-book", dataMode: "live", warnings: [] }));
  });

  it.each(viewCases)("refuse a draft whose %j is %j, as the schema does", (path, value) => {
    const bad = spoiled(view, path, value);
    expect(draftView.safeParse(bad).success).toBe(false);
    expect(draftViewShape(bad)).toBe(INVALID);
  });

  it("refuse malformed events, as the schema does", () => {
    for (const bad of [null, [], "x", spoiled(event, ["revision"], null), spoiled(event, ["html"], 1), spoiled(event, ["dash"], undefined), spoiled(event, ["examples"], null)]) {
      expect(draftEvent.safeParse(bad).success).toBe(false);
      expect(draftEventShape(bad)).toBe(INVALID);
    }
  });
});
