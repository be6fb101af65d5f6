import { describe, expect, it } from "vitest";
import { sanitizeDeclarations, sanitizePropertyValue, sanitizeStylesheet } from "./css";
import { tokenize } from "./css-tokens";
import { cssProblems } from "./testing";

/** Milliseconds of this process's CPU time since `since` (process.cpuUsage()). */
function cpuMs(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

// The CSS the inert document keeps: read as a browser reads it, escapes and comments included,
// kept from an allow-list of rules, and written out so that the browser reads back exactly what
// was checked. cssProblems (./testing.ts) is a second, independent reading of the output.

const clean = (css: string) => {
  const out = sanitizeStylesheet(css);
  expect(cssProblems(out, "output")).toEqual([]);
  return out;
};

describe("the tokenizer", () => {
  it("reads escaped names the way a browser does, so u\\72 l( and \\75 rl( are url tokens", () => {
    expect(tokenize("u\\72 l(http://x)")).toEqual([{ t: "url", v: "http://x" }]);
    expect(tokenize("\\75 rl(http://x)")).toEqual([{ t: "url", v: "http://x" }]);
    expect(tokenize("\\000075\\000072\\00006c(x)")).toEqual([{ t: "url", v: "x" }]);
    expect(tokenize("URL( 'x' )")).toEqual([{ t: "function", v: "URL" }, { t: "ws" }, { t: "string", v: "x" }, { t: "ws" }, { t: ")" }]);
    expect(tokenize("@\\69mport")).toEqual([{ t: "at", v: "import" }]);
  });

  it("skips comments and keeps strings whole, bad ones marked", () => {
    expect(tokenize('/* url(x) */a"b\\"c"')).toEqual([{ t: "ident", v: "a" }, { t: "string", v: 'b"c' }]);
    expect(tokenize('"a\nb')[0]).toEqual({ t: "bad-string" });
    expect(tokenize("url(a b)")).toEqual([{ t: "bad-url" }]);
    expect(tokenize("url(a'b)")).toEqual([{ t: "bad-url" }]);
  });
});

describe("sanitizeStylesheet", () => {
  it("drops @import however it is written, and every rule that loads or declares something else", () => {
    const out = clean(
      [
        "@import url(http://x/a.css);",
        "/* @import 'http://x/b.css'; */ @import 'http://x/c.css';",
        "@\\69mport 'http://x/d.css';",
        "@IMPORT url(http://x/e.css) screen;",
        "@font-face { font-family: f; src: url(http://x/f.woff) }",
        "@namespace svg url(http://www.w3.org/2000/svg);",
        "@page { margin: 1cm }",
        "@property --p { syntax: '<length>'; inherits: false; initial-value: 0 }",
        "@counter-style c { system: cyclic; symbols: url(http://x/s.png) }",
        "@unknown foo { a { color: red } }",
        "@charset 'utf-8';",
        "p { color: red }",
      ].join("\n"),
    );
    expect(out).toBe("p { color: red; }");
  });

  it("keeps @media, @supports, @container, @layer and @keyframes with their rules", () => {
    const out = clean(
      [
        "@media (max-width: 600px) { .grid { display: block } }",
        "@media print { .no-print { display: none } }",
        "@supports (display: grid) { .g { display: grid } }",
        "@container card (min-width: 400px) { .c { font-size: 2em } }",
        "@layer base, components;",
        "@layer base { p { margin: 0 } }",
        "@keyframes spin { from { transform: rotate(0) } to { transform: rotate(360deg) } }",
      ].join("\n"),
    );
    expect(out).toContain("@media (max-width: 600px) {\n.grid { display: block; }\n}");
    expect(out).toContain("@media print {\n.no-print { display: none; }\n}");
    expect(out).toContain("@supports (display: grid) {\n.g { display: grid; }\n}");
    expect(out).toContain("@container card (min-width: 400px) {\n.c { font-size: 2em; }\n}");
    expect(out).toContain("@layer base, components;");
    expect(out).toContain("@layer base {\np { margin: 0; }\n}");
    expect(out).toContain("@keyframes spin {\nfrom { transform: rotate(0) }\nto { transform: rotate(360deg) }\n}");
  });

  it("drops a grouping rule whose condition holds an address", () => {
    expect(clean("@supports (background: url(http://x/p.png)) { p { color: red } } q { color: blue }")).toBe("q { color: blue; }");
  });

  it("keeps nested rules and !important", () => {
    const out = clean(".m { color: red; &:hover { color: blue !important } .n & { color: green } @media (width < 600px) { color: pink } }");
    expect(out).toContain("color: red;");
    expect(out).toContain("&:hover { color: blue !important; }");
    expect(out).toContain(".n & { color: green; }");
    expect(out).toContain("@media (width < 600px) {\ncolor: pink;\n}");
  });

  it("drops every declaration that would fetch: url() in any property, image-set, escapes, custom properties", () => {
    const css = [
      ".a { background: url(http://x/a.png); color: red }",
      ".b { background: u\\72 l(http://x/b.png); list-style-image: url(x.png); cursor: url(c.png), auto }",
      ".c { mask-image: url(m.png); -webkit-mask-image: url(m.png); content: url(c.png); border-image: url(b.png) 30 }",
      '.d { background-image: image-set("i.png" 1x); background-image: -webkit-image-set(url(w.png) 1x); background: image("i.png") }',
      ".e { background: element(#x); width: expression(alert(1)); content: attr(title); background: cross-fade(url(a.png), red) }",
      ".f { --x: url(http://x/v.png); --y: 4px; background: var(--x); padding: var(--y) }",
      ".g { behavior: url(x.htc); -moz-binding: url(x.xml#b); src: url(x) }",
      ".h { background: url(data:image/png;base64,AAAA); shape-outside: url(s.png); filter: url(#f) }",
      '.i { background: url("http://x/q.png") }',
      ".j { background: paint(worklet); background-image: -webkit-canvas(c); background: cross-fade(red 50%, blue) }",
    ].join("\n");
    const out = clean(css);
    expect(out).not.toMatch(/url|image|expression|attr|binding|behavior|element|cross-fade|paint|canvas/i);
    expect(out).toContain(".a { color: red; }");
    // What refers to a dropped custom property is harmless: it has nothing to refer to.
    expect(out).toContain(".f { --y: 4px; background: var(--x); padding: var(--y); }");
    expect(out).not.toContain(".b {");
  });

  it("drops a custom property holding half of a fetching call, so var() cannot put one together", () => {
    const out = clean(".a { --u: url; --s: image-set; --ok: 2px; background: var(--u)(http://x/v.png); margin: var(--ok) }");
    expect(out).not.toContain("--u:");
    expect(out).not.toContain("--s:");
    expect(out).not.toContain("http");
    expect(out).toContain("--ok: 2px;");
  });

  it("keeps url(#fragment) only where it names an element of the document: paint, clip paths, markers", () => {
    const out = clean('.s { fill: url(#grad); stroke: url("#g2"); clip-path: url(#clip); marker-end: url(#arrow); background: url(#bg); mask: url(#m); filter: url(#f) }');
    expect(out).toBe('.s { fill: url(#grad); stroke: url("#g2"); clip-path: url(#clip); marker-end: url(#arrow); }');
    expect(clean(".t { fill: url(#a%20b); stroke: url(#x/../y) }")).toBe("");
  });

  it("never lets </style end the style element early", () => {
    const out = clean('p::after { content: "</style><script>alert(1)</script>" } q::after { content: "\\3c /style>" } p { color: red } </style><img src=x>');
    expect(clean('p::after { content: "see https://example.com" } q { color: red }')).toBe("q { color: red; }");
    expect(out).not.toMatch(/<\/style/i);
    expect(out).toContain('content: "\\3c /style\\3e \\3c script\\3e alert(1)\\3c /script\\3e "');
    expect(out).toContain("p { color: red; }");
    expect(sanitizeStylesheet("@media (width </style>) { p { color: red } }")).not.toMatch(/<\/style/i);
  });

  it("writes tokens so they read back as themselves, whatever ran together in the input", () => {
    const css = [
      ".a { width: 1\\65 3px; margin: -\\31 0px; top: 10e3px }",
      ".b { grid-area: a/**/b; font: 12px/1.5 sans-serif; x: -/**/-y; y: #/**/a; z: 1/**/%; w: +/**/5; v: ./**/5; u: 1/**/./**/5 }",
      ".c\\:d, #\\31 23, .\\-\\33 x { color: red }",
      ".e { content: \"a\\\"b\\\\c\\a d\" }",
    ].join("\n");
    const once = sanitizeStylesheet(css);
    // A second pass changes nothing: the first one's output is read as exactly what it wrote.
    expect(sanitizeStylesheet(once)).toBe(once);
    expect(tokenize(once).filter((t) => t.t === "dimension" || t.t === "number").map((t) => ("unit" in t ? `${t.repr}|${t.unit}` : t.repr))).toEqual(
      expect.arrayContaining(["1|e3px", "10e3|px", "12|px", "1.5"]),
    );
    expect(tokenize(once)).toContainEqual({ t: "ident", v: "-10px" });
    expect(once).toContain("x: -/**/-y");
    expect(once).toContain("z: 1/**/%");
    expect(once).toContain(".c\\:d, #123, .-\\33 x { color: red; }");
  });

  it("writes a closing bracket only for a bracket it opened, so the browser finds the blocks that were checked", () => {
    const out = clean(".m { a: ( ] ) ; b: [ ) ] ; color: green } .n { --x: ( } ; color: red } .o { color: blue }");
    let depth = 0;
    for (const t of tokenize(out)) {
      if (t.t === "(" || t.t === "[" || t.t === "{" || t.t === "function") depth++;
      if (t.t === ")" || t.t === "]" || t.t === "}") depth--;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
    expect(out).toBe(".m { color: green; }");
  });

  it("drops declarations holding bad strings, bad urls or a stray backslash", () => {
    expect(clean('.a { content: "x\n; color: red }\n.b { color: blue }')).toContain(".b { color: blue; }");
    expect(clean(".a { background: url(a b); color: red }")).toBe(".a { color: red; }");
    expect(clean(".a { x: \\\n; color: red }")).toBe(".a { color: red; }");
  });

  it("reads a rule's block once, however its contents are arranged", () => {
    // CPU time, not the clock's: a busy machine stretches the clock, not the work.
    const started = process.cpuUsage();
    expect(clean(`.a { ${"x:y{}".repeat(200_000)} color: red }`)).toContain("color: red;");
    expect(cpuMs(started)).toBeLessThan(3_000);
  });

  it("writes no rule a browser would read as a custom property", () => {
    expect(clean("--x: y { color: red } .a { --y:z { color: red } ; color: blue }")).toBe(".a { color: blue; }");
  });

  it("survives nesting it will not keep, without recursing without bound", () => {
    const deep = `.a { width: ${"calc(".repeat(50_000)}1px${")".repeat(50_000)}; color: red }`;
    expect(clean(deep)).toBe(".a { color: red; }");
    const rules = `${"@media screen { ".repeat(5_000)}p { color: red }${" }".repeat(5_000)} q { color: blue }`;
    expect(clean(rules)).toBe("q { color: blue; }");
  });
});

describe("sanitizeDeclarations (style attributes)", () => {
  it("keeps ordinary declarations and drops the ones that fetch", () => {
    expect(sanitizeDeclarations("color: red; background-image: url(javascript:alert(1)); width: 10px; background: \\75 rl(http://x)")).toBe("color: red; width: 10px");
  });

  it("drops nested rules and at-rules, which a style attribute does not have", () => {
    expect(sanitizeDeclarations("color: red; a { color: blue } @import 'x'; width: 1px")).toBe("color: red; width: 1px");
  });
});

describe("sanitizePropertyValue (SVG presentation attributes)", () => {
  it("reads the value as CSS, escapes and all", () => {
    expect(sanitizePropertyValue("fill", "url(#g) #000")).toBe("url(#g) #000");
    expect(sanitizePropertyValue("fill", "u\\72 l(http://x/p.svg#g)")).toBeNull();
    expect(sanitizePropertyValue("fill", "url(http://x/p.svg#g)")).toBeNull();
    expect(sanitizePropertyValue("cursor", "url(#c)")).toBeNull();
    expect(sanitizePropertyValue("font-family", "'Segoe UI', Arial")).toBe('"Segoe UI", Arial');
  });
});
