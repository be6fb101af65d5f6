import fc from "fast-check";
import { Parser } from "htmlparser2";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { compareDocuments, formatChecked } from "./format-check";

// Generated documents through Format. The judge of "nothing changed" here is a reading of its
// own: htmlparser2 for the markup (not the standard's parser the check uses) and TypeScript's
// error-tolerant parser for scripts (not the check's tokenizer), so a blind spot of the check is
// not shared by the test.

// ---- the generator ------------------------------------------------------------------------

const indent = fc.constantFrom("", "  ", "    ", "\t", "      ", " \t ");
const sep = fc.constantFrom("", "\n", "\n", "\n", " ", "\n\n");
const word = fc.constantFrom("Hi", "sales", "a&amp;b", "&lt;tag&gt;", "&nbsp;", "&copy", "&#x41;", "x\u00a0y", "\u00a0lead", "1 < 2", "price:", "»", "café");
const text = fc.array(fc.tuple(word, fc.constantFrom(" ", "  ", "\n", "\n   ", "")), { minLength: 1, maxLength: 6 }).map((ws) => ws.map(([w, s]) => w + s).join(""));
const longLine = fc.tuple(word, fc.integer({ min: 20, max: 120 })).map(([w, n]) => Array.from({ length: n }, () => w).join(" "));

const attrName = fc.constantFrom("class", "id", "title", "data-x", "style", "href", "hidden", "aria-label");
const attrValue = fc.constantFrom("a", "two words", "x\n   y", "  padded  ", "a&amp;b", "it's", 'say "hi"', "", "url(a b)");
const attr = fc.tuple(attrName, attrValue, fc.constantFrom("unquoted", '"', "'", "bare")).map(([n, v, q]) => {
  if (q === "bare") return n;
  if (q === "unquoted") return `${n}=${v.replace(/[\s"'=<>`]/g, "") || "v"}`;
  return q === '"' ? `${n}="${v.replace(/"/g, "&quot;")}"` : `${n}='${v.replace(/'/g, "&#39;")}'`;
});
// Duplicated attributes come from picking the same name twice; a tag may spread over lines.
const attrs = fc.tuple(fc.array(attr, { maxLength: 4 }), fc.constantFrom(" ", "\n", "\n    ")).map(([as, s]) => as.map((a) => s + a).join(""));

// Scripts are made of whole pieces (a template literal with its lines, a block comment), each line
// at an indentation of its own, and now and then of loose lines that make no sense together.
const scriptPiece = fc.constantFrom(
  ["const a = 1 +", "    2;"],
  ["let t = `", "   kept ${a}   ", "      <b>${", "  b }</b>", "`;"],
  ["const u = `one ${ { b: 1 }.b } two`;"],
  ['const s = "<\\/script>";'],
  ["const q = 'it\\'s';"],
  ['const c = "line \\', '   continued";'],
  ["// a comment   "],
  ["/* a", "   block */"],
  ["const r = /a\\/b[/]c/g.test(x);"],
  ["const d = a / b / c;"],
  ["if (a < b && b > c) { f(); }"],
  ["function f() {", "  return", "    x;", "}"],
  ['document.write("<script>" + \'<\\/script>\');'],
  ["<!-- html-like comment"],
  ["--> and its end"],
  [""],
);
const scriptLine = scriptPiece.chain((p) => fc.constantFrom(...p));
const piecesOrLoose = fc.oneof({ weight: 5, arbitrary: scriptPiece }, { weight: 1, arbitrary: fc.array(scriptLine, { maxLength: 3 }) });
const scriptBody = fc.array(fc.tuple(piecesOrLoose, fc.array(indent, { minLength: 5, maxLength: 5 })), { maxLength: 5 }).map((ps) => ps.flatMap(([lines, is]) => lines.map((l, i) => (is[i] ?? "") + l)).join("\n"));
const styleLine = fc.constantFrom(".a { color: red; }", "  .b > p {", "    content: \"a   b\";", "    background: url(x.png);", "  }", "/* note", "   more */", "@media (max-width: 600px) { .c { display: none } }", "");
const styleBody = fc.array(fc.tuple(indent, styleLine), { maxLength: 6 }).map((ls) => ls.map(([i, l]) => i + l).join("\n"));

type Doc = fc.Arbitrary<string>;

const leaf: Doc = fc.oneof(
  text,
  longLine,
  fc.tuple(sep, scriptBody, sep).map(([a, b, c]) => `<script>${a}${b}${c}</script>`),
  fc.tuple(sep, scriptBody).map(([a, b]) => `<script type="module">${a}${b}\n</script>`),
  // A string that closes the script for HTML, whatever JavaScript thinks.
  fc.tuple(indent, scriptLine).map(([i, l]) => `<script>\n${i}${l}\n${i}const e = "</script>";`),
  fc.tuple(sep, styleBody, sep).map(([a, b, c]) => `<style>${a}${b}${c}</style>`),
  fc.constantFrom("<!-- note -->", "<!--\n   kept  as is\n-->", "<!-- <div> -->", "<br>", "<img src=x alt=\"\">", "<hr/>"),
  fc.tuple(indent, text).map(([i, t]) => `<pre>\n${i}${t}\n${i}  </pre>`),
  fc.tuple(indent, text).map(([i, t]) => `<textarea name=t>\n${i}${t}</textarea>`),
  fc.tuple(indent, scriptLine).map(([i, l]) => `<svg viewBox="0 0 10 10">\n${i}<style><![CDATA[\n${i}  .x { fill: red }\n${i}]]></style>\n${i}<script><![CDATA[\n${i}${l}\n${i}]]></script>\n<text>a  b</text>\n</svg>`),
);

const nodes: Doc = fc.letrec<{ node: string; nodes: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.tuple(fc.constantFrom("div", "section", "ul", "li", "p", "span", "main", "b", "a"), attrs, tie("nodes"), fc.boolean()).map(([t, a, kids, close]) => `<${t}${a}>${kids}${close ? `</${t}>` : ""}`),
    fc.tuple(tie("nodes")).map(([kids]) => `<template>${kids}</template>`),
  ),
  nodes: fc.array(fc.tuple(indent, tie("node"), sep), { maxLength: 4 }).map((ns) => ns.map(([i, n, s]) => i + n + s).join("")),
})).nodes;

/** What a document may end with that leaves the rest unread: its line is where the refusal points. */
const hazard = fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom("<script>const a = 1 +", "<style>\n.a {", "<!-- never closed", "<textarea>\n  draft", "<title>Draft", "<script>\n// <!-- <script>\n</script>\nconst after = 1;") });

// After an open one, only text and plain elements, so nothing later closes it.
const plainTail = fc.array(fc.tuple(indent, text, fc.constantFrom("<p>", "</div>", "<li>", "")), { maxLength: 4 }).map((ls) => ls.map(([i, t, e]) => `${i}${e}${t}`).join("\n"));

const documents = fc.tuple(fc.boolean(), nodes, hazard, nodes, plainTail).map(([doctype, body, open, tail, plain]) => {
  const head = (doctype ? "<!doctype html>\n" : "") + "<html><body>\n" + body + "\n";
  if (open === null) return { html: head + tail + "\n</body></html>", hazardLine: null };
  return { html: head + open + "\n" + plain + "\n<p>after</p></body></html>", hazardLine: head.split("\n").length };
});

// ---- the judge -------------------------------------------------------------------------------

const KEPT = new Set(["pre", "textarea", "listing", "xmp"]);

/** The document as htmlparser2 reads it, with whitespace only where it may not change left in. */
function reading(html: string): string[] {
  const out: string[] = [];
  const open: string[] = [];
  let text = "";
  let dropNewline = false;
  const flush = () => {
    if (text === "") return;
    const where = open.at(-1);
    // Whitespace outside <body> is not the document's: the parser drops it or moves it.
    if ((where === undefined || where === "html" || where === "head") && !/[^\t\n\f\r ]/.test(text)) {
      text = "";
      return;
    }
    if (where === "script") out.push(`script ${scriptReading(text).join("\u0001")}`);
    else if (where === "style") out.push(`style ${styleReading(text).join("\u0001")}`);
    else if (open.some((t) => KEPT.has(t))) out.push(`text ${text}`);
    else out.push(`text ${text.replace(/[\t\n\f\r ]+/g, " ")}`);
    text = "";
  };
  const parser = new Parser(
    {
      onopentagname: (name) => {
        flush();
        out.push(`<${name}`);
      },
      onattribute: (name, value) => out.push(`@${name}=${value}`),
      onopentag: (name) => {
        open.push(name);
        dropNewline = name === "pre" || name === "textarea" || name === "listing";
      },
      ontext: (t) => {
        // As the standard's parser does, a line break just after <pre> is not the text's.
        text += dropNewline && text === "" ? t.replace(/^\n/, "") : t;
        dropNewline = false;
      },
      onclosetag: (name) => {
        flush();
        out.push(`</${name}`);
        open.pop();
      },
      oncomment: (c) => {
        flush();
        out.push(`<!--${c}`);
      },
      oncdatastart: () => flush(),
      onprocessinginstruction: (_name, data) => {
        flush();
        out.push(`<!${data.replace(/[\t\n\f\r ]+/g, " ")}`);
      },
    },
    { decodeEntities: true, recognizeCDATA: true },
  );
  parser.write(html);
  parser.end();
  flush();
  // The line breaks the parser itself drops (after <html>, <body>) and whitespace before them.
  return out.filter((e) => e !== "text " && e !== "text");
}

/**
 * Scripts read so far: a reading depends on the text alone, and the generator's scripts are made
 * of a few pieces, so the same text comes back across documents (and between a document and its
 * formatting) often enough that reading it again was most of the judge's time.
 */
const scriptReadings = new Map<string, string[]>();

/** A script as TypeScript's scanner-in-a-parser reads it: tokens, and whether a line break is between them. */
function scriptReading(src: string): string[] {
  let read = scriptReadings.get(src);
  if (!read) scriptReadings.set(src, (read = readScript(src)));
  return read;
}

function readScript(src: string): string[] {
  // No parent pointers: the walk below goes down only, with the file passed to every call.
  const file = ts.createSourceFile("s.ts", src, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  let end = 0;
  const visit = (node: ts.Node) => {
    const kids = node.getChildren(file);
    if (kids.length === 0 && node.kind !== ts.SyntaxKind.EndOfFileToken) {
      const start = node.getStart(file);
      const gap = src.slice(end, start);
      // Comments in the gap with their whitespace runs reduced; a gap at the start does not count.
      if (out.length > 0 || gap.trim() !== "") out.push(gap.replace(/\s+/g, (run) => (/[\n\r\u2028\u2029]/.test(run) ? "\n" : " ")));
      out.push(src.slice(start, node.end));
      end = node.end;
      return;
    }
    kids.forEach(visit);
  };
  visit(file);
  const rest = src.slice(end).trim();
  if (rest) out.push(rest.replace(/\s+/g, (run) => (/\n/.test(run) ? "\n" : " ")));
  return out;
}

function styleReading(src: string): string[] {
  return (src.match(/"(?:\\[\s\S]|[^"\\\n])*"?|'(?:\\[\s\S]|[^'\\\n])*'?|\/\*[\s\S]*?(?:\*\/|$)|[^\s"'/]+|\//g) ?? []).map((t) => (t.startsWith("/*") ? t.replace(/\s+/g, " ") : t));
}

// ---- the properties --------------------------------------------------------------------------

const RUNS = 1_500;

describe("Format on generated documents", () => {
  it(`keeps the content of every document it formats, and refuses the rest with a line (${RUNS} documents)`, () => {
    const seen = { formatted: 0, unchanged: 0, refused: 0, hazards: 0 };
    fc.assert(
      fc.property(documents, ({ html, hazardLine }) => {
        const outcome = formatChecked(html);
        seen[outcome.kind]++;
        if (hazardLine !== null) {
          seen.hazards++;
          expect(outcome.kind).toBe("refused");
        }
        if (outcome.kind === "refused") {
          expect(outcome.message).toMatch(new RegExp(`^Line ${outcome.line}: .+; Format leaves the document as it is\\.$`));
          expect(outcome.line).toBeGreaterThanOrEqual(1);
          expect(outcome.line).toBeLessThanOrEqual(html.split("\n").length);
          // At the open one, or before it: a script earlier may never end either (`<!--` then `<script>` in it).
          if (hazardLine !== null) expect(outcome.line).toBeLessThanOrEqual(hazardLine);
        }
        if (outcome.kind === "formatted") expect(reading(outcome.text)).toEqual(reading(html));
      }),
      { numRuns: RUNS, seed: 42 },
    );
    // The documents were worth generating: most are formatted, the open ones all refused.
    expect(seen.formatted).toBeGreaterThan(RUNS / 2);
    expect(seen.refused - seen.hazards).toBeLessThan(RUNS / 20);
  }, 120_000);

  it("finds every change the judge above sees, when a character is added or removed", () => {
    const edit = fc.tuple(documents, fc.nat(), fc.constantFrom("", " ", "x", "\n", "\t", "`"));
    fc.assert(
      fc.property(edit, ([{ html }, at, insert]) => {
        const i = at % (html.length + 1);
        const changed = html.slice(0, i) + insert + html.slice(insert === "" ? i + 1 : i);
        fc.pre(changed !== html);
        let judged: boolean;
        try {
          judged = JSON.stringify(reading(changed)) !== JSON.stringify(reading(html));
        } catch {
          judged = true;
        }
        if (judged) expect(compareDocuments(html, changed)).not.toBeNull();
      }),
      { numRuns: 1_000, seed: 7 },
    );
  }, 120_000);
});
