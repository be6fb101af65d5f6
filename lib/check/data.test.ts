import { describe, expect, it } from "vitest";
import { Context } from "./context";
import { leadingDataDeclaration, scanJsonValue } from "./data";
import { analyseScript } from "./js";

// The JSON fast path for `const DATA = {…};` must find exactly what parsing the literal as
// JavaScript finds: same findings at the same positions, same document facts.

function analyse(code: string, fast: boolean) {
  const html = `<script>${code}</script>`;
  const ctx = new Context(html);
  analyseScript(ctx, code, 8, "classic", true, fast);
  const f = ctx.facts;
  return {
    warnings: ctx.warnings(),
    facts: { ...f, names: [...f.names].sort() },
  };
}

const rows = Array.from({ length: 6 }, (_, i) => ({
  schoolName: `School "${i}" \\ \u00e9`,
  districtName: "North",
  arr: 1000 * i,
  nested: [[{ x: i }], { y: [i, i + 1] }],
}));

const samples: Record<string, string> = {
  records: `const ROWS = ${JSON.stringify(rows, null, 2)};\nrender(ROWS);`,
  "strings that trigger rules": `// snapshot\nconst DATA = ${JSON.stringify({
    url: "/api/me",
    base: "/api",
    cx: "/cx/book?owner=o",
    page: "/crm/customers/companies",
    label: "Priority score",
    html: '<img src="https://example.com/a.png">',
    css: "url(https://example.com/bg.png)",
    data: "data",
    init: { method: "POST", body: "x" },
    query: { basis: "activity" },
    nextCursor: null,
  })};\nconst x = DATA.data;`,
  "two declarations and code": `const A = {"a": [1, 2, {"b": "c\\"d"}]};\nlet B = [{"p": 1}, {"p": 2}, {"p": 3}, {"p": 4}, {"p": 5}]; fetch("/api/me").then((r) => r.json());`,
  "declaration only, no semicolon": `var ONLY = {"waitingOn": "x", "reasons": ["a"]}`,
  "not JSON: falls back": `const S = { owner: null, rows: [] }; localStorage.x = 1;`,
  "continued expression: falls back": `const T = [{"a": 1}].map((x) => x.a); document.cookie;`,
  "a local top": `const top = {"y": 1}; top.y;`,
};

describe("the data fast path", () => {
  for (const [name, code] of Object.entries(samples)) {
    it(`finds what the parser finds: ${name}`, () => {
      expect(analyse(code, true)).toEqual(analyse(code, false));
    });
  }

  it("is taken for leading data declarations and not otherwise", () => {
    expect(leadingDataDeclaration(samples.records ?? "")?.name).toBe("ROWS");
    expect(leadingDataDeclaration(samples["strings that trigger rules"] ?? "")?.name).toBe("DATA");
    expect(leadingDataDeclaration(samples["not JSON: falls back"] ?? "")).toBeNull();
    expect(leadingDataDeclaration(samples["continued expression: falls back"] ?? "")).toBeNull();
    expect(leadingDataDeclaration("const X = [1, 2,];")).toBeNull();
    expect(leadingDataDeclaration('const X = {"a": 01};')).toBeNull();
    expect(leadingDataDeclaration("fetch(x); const X = [1];")).toBeNull();
  });

  it("accepts exactly what JSON.parse accepts", () => {
    const inputs = [
      '{"a": [1, -2.5e+3, 0, true, false, null, "x", {"b": {}}, []]}',
      "[]",
      "{}",
      ' [ 1 , 2 ] ',
      '["\\u00e9\\n\\"", "tab\\t"]',
      "[1, 2,]",
      '{"a": 1,}',
      "[01]",
      "[1.]",
      "[.5]",
      "[-]",
      "[+1]",
      "[NaN]",
      "[0x10]",
      "['a']",
      "{a: 1}",
      '{"a" 1}',
      '{"a": 1 "b": 2}',
      '{"a"}',
      "[1 2]",
      "[truex]",
      "[nul]",
      '["a\tb"]',
      '["\\x41"]',
      '["\\u12"]',
      "[1] // c",
      "[/* c */ 1]",
      "[1]]",
      "[[1]",
      '{"a": [}',
      "[\u00a01]",
    ];
    for (const text of inputs) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      const scanned = scanJsonValue(text, text.search(/\S/));
      const scannedValid = scanned !== null && text.slice(scanned.end).trim() === "";
      expect(scannedValid, text).toBe(valid);
    }
  });

  it("scans strings, keys and record arrays with their offsets", () => {
    const text = '{"k": ["a\\"b", {"method": "POST", "n": 1}], "r": [{}, {}, {}, {}, {}]}';
    const scanned = scanJsonValue(text, 0);
    expect(scanned?.end).toBe(text.length);
    expect(scanned?.events.strings.map((s) => [s.value, text.slice(s.start, s.start + 1)])).toEqual([
      ['a"b', '"'],
      ["POST", '"'],
    ]);
    expect([...(scanned?.events.keys ?? [])]).toEqual(["k", "method", "n", "r"]);
    expect(scanned?.events.recordArrays).toEqual([text.indexOf('[{}')]);
    expect(scanned?.events.objects.map((o) => o.pairs)).toEqual([
      [
        { key: "method", keyStart: text.indexOf('"method"'), value: "POST" },
        { key: "n", keyStart: text.indexOf('"n"'), value: null },
      ],
    ]);
    expect(scanJsonValue('{"a": "unterminated}', 0)).toBeNull();
    // The scanner finds the end; JSON.parse, run after it, is what validates.
    expect(leadingDataDeclaration('const X = {"a" "b"};')).toBeNull();
  });
});
