import { describe, expect, it } from "vitest";
import { plural } from "./plural";

describe("plural", () => {
  it("says one thing in the singular and any other count in the plural", () => {
    expect([0, 1, 2].map((n) => plural(n, "error"))).toEqual(["0 errors", "1 error", "2 errors"]);
    expect(plural(1, "match", "matches")).toBe("1 match");
    expect(plural(2, "match", "matches")).toBe("2 matches");
  });
});
