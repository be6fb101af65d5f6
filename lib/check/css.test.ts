import { describe, expect, it } from "vitest";
import { scanCss } from "./css";

describe("scanCss", () => {
  it("finds @import rules and url() values with their offsets", () => {
    const css = '@import "a.css";\n@IMPORT url(b.css) screen;\n.x { background: URL( "c.png" ) } .y{src:url(d.woff2)format("woff2")}';
    expect(scanCss(css)).toEqual([
      { kind: "import", url: "a.css", offset: 0 },
      { kind: "import", url: "b.css", offset: 17 },
      { kind: "url", url: "c.png", offset: css.indexOf("URL(") },
      { kind: "url", url: "d.woff2", offset: css.indexOf("url(d") },
    ]);
  });

  it("skips comments, strings, escapes and look-alike names", () => {
    const css = '/* url(a.png) @import "x" */ .a::after { content: "url(b.png) @import"; } .b { --my-url(c): 1; background: image-url(d.png) }';
    expect(scanCss(css)).toEqual([]);
  });

  it("reads escaped quotes and unterminated input without running away", () => {
    expect(scanCss('.a { background: url("a\\"b.png") }')).toEqual([{ kind: "url", url: 'a"b.png', offset: 17 }]);
    expect(scanCss(".a { background: url(unclosed")).toEqual([{ kind: "url", url: "unclosed", offset: 17 }]);
    expect(scanCss('@import "unterminated')).toEqual([{ kind: "import", url: "unterminated", offset: 0 }]);
  });
});
