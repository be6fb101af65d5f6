import { describe, expect, it } from "vitest";
import { revisionParam, segment } from "./params";
import { SLUG_PATTERN, toSlug } from "./slug";
import { titleOf } from "./store";

describe("toSlug", () => {
  it.each([
    ["Team health", "team-health"],
    ["  Renewals — Q3 2026!  ", "renewals-q3-2026"],
    ["Café crème", "cafe-creme"],
    ["---", "dashboard"],
    [null, "dashboard"],
    ["a".repeat(80), "a".repeat(64)],
    [`${"b".repeat(63)}-tail`, "b".repeat(63)],
  ])("%s → %s", (input, slug) => {
    expect(toSlug(input)).toBe(slug);
    expect(SLUG_PATTERN.test(toSlug(input))).toBe(true);
  });
});

describe("titleOf", () => {
  it("reads the dashboard's own title, decoding entities and folding whitespace", () => {
    expect(titleOf("<html><head><title>\n Pipeline &amp; renewals &#8212; Q3 </title>", "x")).toBe("Pipeline & renewals — Q3");
  });
  it("falls back to the slug when there is no title or it is blank", () => {
    expect(titleOf("<h1>no title</h1>", "team-health")).toBe("team-health");
    expect(titleOf("<title>   </title>", "blank")).toBe("blank");
  });
  it("keeps long titles to 200 characters", () => {
    expect(titleOf(`<title>${"x".repeat(500)}</title>`, "s")).toHaveLength(200);
  });
});

describe("path parameters", () => {
  it("decodes segments and keeps malformed escapes as given", () => {
    expect(segment("o%27brien")).toBe("o'brien");
    expect(segment("%E0%A4%A")).toBe("%E0%A4%A");
  });
  it("accepts only positive integer revisions", () => {
    expect(revisionParam("3")).toBe(3);
    expect(revisionParam(["7", "8"])).toBe(7);
    for (const bad of ["0", "-1", "1.5", "abc", "", undefined, null, "1e3", "9999999999"]) expect(revisionParam(bad)).toBeUndefined();
  });
});
