import { describe, expect, it } from "vitest";
import { dashboardExamples } from "@/demo/examples";
import { compareDocuments, formatChecked } from "./format-check";

const LEAVES = "Format leaves the document as it is.";

describe("formatChecked", () => {
  it("refuses a document whose <script> is never closed, naming the line, and changes nothing", () => {
    const doc = ["<!doctype html>", "<html><body>", "<h1>Hi</h1><script>const a = 1 +", "<p>after</p></body></html>"].join("\n");
    expect(formatChecked(doc)).toEqual({ kind: "refused", line: 3, message: `Line 3: this <script> is never closed; ${LEAVES}` });
  });

  it("names what else is left open: a style, a comment, a textarea, a tag", () => {
    expect(formatChecked("<div>\n<style>\n.a { color: red }\n</div>")).toMatchObject({ line: 2, message: `Line 2: this <style> is never closed; ${LEAVES}` });
    expect(formatChecked("<div>\n<p>x</p>\n<!-- later\n<p>y</p>\n</div>")).toMatchObject({ line: 3, message: `Line 3: this comment (<!--) is never closed; ${LEAVES}` });
    expect(formatChecked("<form>\n<textarea>\ndraft")).toMatchObject({ line: 2, message: `Line 2: this <textarea> is never closed; ${LEAVES}` });
    expect(formatChecked("<div>\n<p>x</p>\n<a href=\"/x\"\nclass=y")).toMatchObject({ line: 3, message: `Line 3: this tag never ends (it has no >); ${LEAVES}` });
  });

  it("sees a script that `<!--` then `<script>` keep open past its </script>", () => {
    const doc = "<div>\n<script>\n// <!-- <script>\n</script>\n<p>after</p>\n</div>";
    expect(formatChecked(doc)).toMatchObject({ kind: "refused", line: 2 });
  });

  it("writes a script that starts on the <script> line once", () => {
    const doc = "<div>\n<script>const a = 1 +\n  2;\n</script>\n</div>";
    expect(formatChecked(doc)).toEqual({ kind: "formatted", text: "<div>\n  <script>const a = 1 +\n    2;\n  </script>\n</div>" });
  });

  it("keeps what whitespace belongs to: a no-break space, a quoted value over lines, a template literal's trailing spaces", () => {
    const doc = "<div>\n\u00a0 lead\n<a title=\"one\n   two\">x</a>\n<script>\nconst t = `a   \n  b`;\n</script>\n</div>";
    const outcome = formatChecked(doc);
    expect(outcome).toEqual({ kind: "formatted", text: "<div>\n  \u00a0 lead\n  <a title=\"one\n   two\">x</a>\n  <script>\n    const t = `a   \n  b`;\n  </script>\n</div>" });
  });

  it("says when there is nothing to do", () => {
    expect(formatChecked("<ul>\n  <li>one</li>\n</ul>")).toEqual({ kind: "unchanged" });
  });

  it("formats every example dashboard", () => {
    for (const e of dashboardExamples) expect(formatChecked(e.html).kind, e.id).not.toBe("refused");
  });
});

describe("compareDocuments", () => {
  const same = "<div>\n<pre>\n  kept</pre>\n<p class=a class=b>x</p>\n<script>\nconst t = `\n  in`;\nreturn\nx\n</script>\n<style>.a { content: \"a  b\" }</style>\n</div>";
  it("reads indentation and line-end spaces where they do not count as the same", () => {
    expect(compareDocuments(same, same.replace(/\n/g, "\n    ").replace("\n      kept", "\n  kept").replace("\n      in`", "\n  in`"))).toBeNull();
  });

  it.each([
    ["space inside <pre>", same.replace("  kept", " kept"), 2],
    ["the second of two duplicated attributes", same.replace("class=b", "class=c"), 4],
    ["a template literal's text (the line it starts on)", same.replace("\n  in`", "\n in`"), 6],
    ["a line break the semicolon rule reads", same.replace("return\nx", "return x"), 8],
    ["a CSS string", same.replace('"a  b"', '"a b"'), 11],
    ["a line", same.replace("<p class=a class=b>x</p>\n", ""), 4],
  ])("finds a change of %s", (_what, changed, line) => {
    expect(compareDocuments(same, changed)).toMatchObject({ line });
  });
});
