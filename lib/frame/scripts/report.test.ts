import { describe, expect, it } from "vitest";
import { clip, describe as describeValue } from "./report";

describe("the render report's text", () => {
  it("clips to the bound, marking the cut", () => {
    expect(clip("abc", 3)).toBe("abc");
    expect(clip("abcd", 3)).toBe("ab…");
    expect(clip(12345, 4)).toBe("123…");
  });

  it("describes any value, and never throws", () => {
    expect(describeValue("text")).toBe("text");
    expect(describeValue(new TypeError("bad rows"))).toBe("TypeError: bad rows");
    expect(describeValue({ rows: [1] })).toBe('{"rows":[1]}');
    expect(describeValue(undefined)).toBe("undefined");
    // What JSON cannot write is written as text, and what neither can as its type.
    expect(describeValue({ toJSON: () => undefined })).toBe("[object Object]");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toBe("(object)");
    expect(describeValue(Object.create(null))).toBe("{}");
  });
});
