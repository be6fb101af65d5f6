import { describe, expect, it } from "vitest";
import { UNSAFE_DISPLAY_LIST, codePoint } from "@/tests/fixtures/display-text";
import { revisionParam, segment } from "./params";
import { SLUG_PATTERN, htmlTitle, proposedAddress, titleProblem, toSlug, withTitle } from "./slug";
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

describe("the save form's address", () => {
  const form = (title: string, more: Partial<Parameters<typeof proposedAddress>[0]> = {}) => proposedAddress({ title, titleTyped: true, addressTyped: null, ...more });
  it("follows the typed title under the save route's rules", () => {
    for (const [title, address] of [
      ["Renewals board", "renewals-board"],
      ["  Q3 — Pipeline & Renewals!  ", "q3-pipeline-renewals"],
      ["Crème brûlée", "creme-brulee"],
      ["!!!", "dashboard"],
      ["x".repeat(120), "x".repeat(64)],
    ]) {
      expect(form(title!)).toBe(address);
      expect(SLUG_PATTERN.test(form(title!))).toBe(true);
    }
  });
  it("keeps the suggested name until a title is typed", () => {
    expect(form("CRM pipeline", { titleTyped: false, suggested: "crm-pipeline-copy" })).toBe("crm-pipeline-copy");
    expect(form("CRM pipeline", { titleTyped: false, suggested: null })).toBe("crm-pipeline");
    expect(form("Board two", { titleTyped: true, suggested: "crm-pipeline-copy" })).toBe("board-two");
  });
  it("stops following the title once the address is edited", () => {
    expect(form("Board two", { addressTyped: "my-board" })).toBe("my-board");
    expect(form("Board two", { addressTyped: "" })).toBe("");
  });
});

describe("titles typed in the save form", () => {
  it("refuses blank, overlong and invisibly altered titles", () => {
    expect(titleProblem("   ")).toMatch(/Give the dashboard a title/);
    expect(titleProblem("x".repeat(201))).toMatch(/at most 200 characters/);
    expect(titleProblem("Q3\u202e report")).toMatch(/invisible or direction-changing/);
    expect(titleProblem("Pipe\u200bline")).toMatch(/invisible or direction-changing/);
    expect(titleProblem("  Renewals &  <Q3>  ")).toBeNull();
    expect(titleProblem("\u05d3\u05d5\u05f4\u05d7 Q3")).toBeNull();
  });
  it("becomes the <title> the save route reads, replacing the first one", () => {
    const html = '<!doctype html><html><head><title data-x="1">CRM pipeline</title></head><body><title>not this</title></body></html>';
    const next = withTitle(html, "Renewals & <Q3>");
    expect(next).toBe('<!doctype html><html><head><title data-x="1">Renewals &amp; &lt;Q3></title></head><body><title>not this</title></body></html>');
    expect(titleOf(next!, "slug")).toBe("Renewals & <Q3>");
  });
  it("is put at the start of the head when the document has none", () => {
    expect(withTitle('<!doctype html><html lang="en"><head><meta charset="utf-8"></head><h1>x</h1>', "Board")).toBe(
      '<!doctype html><html lang="en"><head><title>Board</title><meta charset="utf-8"></head><h1>x</h1>',
    );
    expect(withTitle("<!doctype html><header>h</header>", "Board")).toBe("<!doctype html><title>Board</title><header>h</header>");
    expect(withTitle("<h1>bare</h1>", "Board")).toBe("<title>Board</title><h1>bare</h1>");
  });
  it("leaves a document whose title already reads so untouched, folding spaces as pages do", () => {
    const html = "<title>CRM  pipeline</title><p>x</p>";
    expect(withTitle(html, " CRM pipeline ")).toBe(html);
  });
  it("skips a title the route could not read and puts its own before it", () => {
    const next = withTitle("<html><head><title>a<b</title></head></html>", "Board");
    expect(next).not.toBeNull();
    expect(htmlTitle(next!)).toBe("Board");
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
