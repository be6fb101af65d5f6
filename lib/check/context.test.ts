import { describe, expect, it } from "vitest";
import { Context, LineIndex, MAX_FINDINGS_PER_RULE, clip } from "./context";

describe("LineIndex", () => {
  it("maps offsets to 1-based lines and columns for \\n, \\r\\n and \\r", () => {
    for (const nl of ["\n", "\r\n", "\r"]) {
      const text = ["ab", "", "cde"].join(nl);
      const idx = new LineIndex(text);
      expect(idx.locate(0)).toEqual({ line: 1, column: 1 });
      expect(idx.locate(1)).toEqual({ line: 1, column: 2 });
      expect(idx.locate(text.indexOf("c"))).toEqual({ line: 3, column: 1 });
      expect(idx.locate(text.length)).toEqual({ line: 3, column: 4 });
      expect(idx.locate(text.length + 50)).toEqual({ line: 3, column: 4 });
    }
  });
});

describe("Context", () => {
  it("reports each rule and place once, and at most MAX_FINDINGS_PER_RULE per rule", () => {
    const ctx = new Context("x".repeat(200));
    ctx.report("forbidden-api", 3, "m", "h");
    ctx.report("forbidden-api", 3, "m2", "h2");
    expect(ctx.warnings()).toHaveLength(1);
    for (let i = 10; i < 100; i++) ctx.report("js-syntax", i, "m", "h");
    expect(ctx.warnings().filter((w) => w.rule === "js-syntax")).toHaveLength(MAX_FINDINGS_PER_RULE);
  });
});

describe("clip", () => {
  it("shortens long values and shows holes", () => {
    expect(clip("a".repeat(100), 10)).toBe(`${"a".repeat(9)}…`);
    expect(clip("\u0000/cx/book")).toBe("…/cx/book");
    expect(clip("a\n  b")).toBe("a b");
  });
});
