import { describe, expect, it } from "vitest";
import { dashboardExamples } from "@/demo/examples";
import { formatHtml, linesInsideTemplates } from "./format-html";

describe("formatHtml", () => {
  it("indents elements by their nesting, two spaces a level", () => {
    const src = "<ul>\n<li>one</li>\n        <li><b>two</b></li>\n</ul>\n<p>after</p>";
    expect(formatHtml(src)).toBe("<ul>\n  <li>one</li>\n  <li><b>two</b></li>\n</ul>\n<p>after</p>");
  });

  it("puts a line that starts by closing elements where they opened", () => {
    const src = "<table>\n<tr><td>\nx\n</td></tr>\n</table>";
    expect(formatHtml(src)).toBe("<table>\n  <tr><td>\n      x\n  </td></tr>\n</table>");
  });

  it("does not count void elements, self-closing tags, doctype or comments as nesting", () => {
    const src = "<!doctype html>\n<div>\n<meta charset=utf-8>\n<br/>\n<!-- <div> -->\n<img src=x alt=\"\">\n</div>";
    expect(formatHtml(src)).toBe("<!doctype html>\n<div>\n  <meta charset=utf-8>\n  <br/>\n  <!-- <div> -->\n  <img src=x alt=\"\">\n</div>");
  });

  it("moves a script as a block, keeping its own relative indentation", () => {
    const src = "<body>\n<script>\n      function f() {\n        return 1\n          + 2;\n      }\n</script>\n</body>";
    expect(formatHtml(src)).toBe("<body>\n  <script>\n    function f() {\n      return 1\n        + 2;\n    }\n  </script>\n</body>");
  });

  it("leaves lines inside a multi-line template literal, pre and comments exactly as written", () => {
    const src = "<div>\n<script>\nconst t = `\n   <b>${x}</b>\n`;\n</script>\n<pre>\n   kept\n</pre>\n<!--\n   note\n-->\n</div>";
    expect(formatHtml(src)).toBe("<div>\n  <script>\n    const t = `\n   <b>${x}</b>\n`;\n  </script>\n  <pre>\n   kept\n</pre>\n  <!--\n   note\n-->\n</div>");
  });

  it("indents the attributes of a tag that spans lines one level in", () => {
    const src = "<div>\n<a\nhref=\"/x\"\nclass=\"y\">link</a>\n<section\nid=s>\n<p>in</p>\n</section>\n</div>";
    expect(formatHtml(src)).toBe("<div>\n  <a\n    href=\"/x\"\n    class=\"y\">link</a>\n  <section\n    id=s>\n    <p>in</p>\n  </section>\n</div>");
  });

  it("is idempotent and changes only leading whitespace of every example dashboard", () => {
    for (const e of dashboardExamples) {
      const once = formatHtml(e.html);
      expect(formatHtml(once)).toBe(once);
      const strip = (s: string) => s.split("\n").map((l) => l.trim());
      expect(strip(once)).toEqual(strip(e.html));
    }
  });
});

describe("linesInsideTemplates", () => {
  it("follows template literals through substitutions, strings and comments", () => {
    const lines = ["a = `x", "${ { b: '`' } }", "y`; // `", "c = 1; /* ` */", "d"];
    expect(linesInsideTemplates(lines)).toEqual([false, true, true, false, false]);
  });
});
