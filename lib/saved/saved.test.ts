import { describe, expect, it } from "vitest";
import { UNSAFE_DISPLAY_LIST, codePoint } from "@/tests/fixtures/display-text";
import { revisionParam, segment } from "./params";
import { SLUG_PATTERN, htmlTitle, toSlug } from "./slug";
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
  // A title is content, so it is neutralised rather than refused: what is left is what pages show.
  it("takes out bidirectional controls, zero-width and control characters, written out or as entities", () => {
    for (const ch of UNSAFE_DISPLAY_LIST) {
      // &#0; is no character at all, and stays as written.
      const entity = ch === "\u0000" ? "" : `&#x${ch.codePointAt(0)!.toString(16)};`;
      for (const title of [`<title>Pipe${ch}line</title>`, `<title>Pipe${entity}line</title>`, `<title>${ch}Pipeline${ch}</title>`]) {
        expect(["Pipeline", "Pipe line"], `${codePoint(ch)} in ${JSON.stringify(title)}`).toContain(titleOf(title, "x"));
      }
    }
    // "Q3 report" that would read "troper 3Q" after the right-to-left override.
    expect(titleOf("<title>\u202etroper 3Q</title>", "x")).toBe("troper 3Q");
    expect(htmlTitle("<title>&#8238;&#8203;</title>")).toBeUndefined();
    expect(titleOf("<title>\u200b\u2066</title>", "fallback")).toBe("fallback");
    expect(titleOf("<title>\u05d3\u05d5\u05f4\u05d7 Q3</title>", "x")).toBe("\u05d3\u05d5\u05f4\u05d7 Q3");
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
