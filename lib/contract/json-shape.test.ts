import { describe, expect, it } from "vitest";
import { anything, arrayOf, finiteNumber, INVALID, literal, nonEmptyString, nullable, object, oneOf, optional, parseOrNull, recordOf, string } from "@/lib/contract/json-shape";

describe("json shapes", () => {
  const shape = object({
    v: literal(1),
    name: nonEmptyString,
    mode: oneOf("demo", "live"),
    dash: nullable(string),
    at: finiteNumber,
    tags: arrayOf(string),
    examples: recordOf(string),
    note: optional(string),
    history: optional(anything),
  });
  const good = { v: 1, name: "n", mode: "live", dash: null, at: 5, tags: ["a"], examples: { "/me": "x" } };

  it("keeps the known fields and drops the rest", () => {
    expect(parseOrNull(shape, { ...good, extra: "gone", note: "kept" })).toEqual({ ...good, note: "kept" });
    expect(parseOrNull(shape, { ...good, history: null })).toEqual({ ...good, history: null });
  });

  it("refuses a value of the wrong shape anywhere in it", () => {
    const bad = [
      null,
      [],
      "text",
      { ...good, v: 2 },
      { ...good, name: "" },
      { ...good, mode: "other" },
      { ...good, dash: undefined },
      { ...good, at: "5" },
      { ...good, tags: ["a", 1] },
      { ...good, tags: {} },
      { ...good, examples: { "/me": 1 } },
      { ...good, examples: [] },
      { ...good, note: 3 },
    ];
    for (const b of bad) expect(shape(b), JSON.stringify(b)).toBe(INVALID);
  });

  it("tells a null value from a refusal", () => {
    expect(nullable(string)(null)).toBeNull();
    expect(nullable(string)(1)).toBe(INVALID);
    expect(finiteNumber(Infinity)).toBe(INVALID);
  });
});
