import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { fmtArgs, fmtTable } from "./console-format";

// Each case's values are made from source text, as a dashboard's code makes them.
const made = (code: string) => vm.runInThisContext(code) as unknown;

describe("the console's formatting", () => {
  it("prints values as a browser's console does", () => {
    const cases: [string, string][] = [
      [`["text", 1, -0, 10n, true, null, undefined, Symbol("s")]`, "text 1 -0 10n true null undefined Symbol(s)"],
      [`[{ a: 1, "b-c": "x", nested: { deep: { deeper: 1 } } }]`, '{a: 1, "b-c": "x", nested: {deep: {…}}}'],
      [`[[1, , "two", [3, [4]]]]`, '[1, empty, "two", [3, Array(1)]]'],
      [`[new Map([["k", 1]]), new Set([1, 2])]`, 'Map(1) {"k" => 1} Set(2) {1, 2}'],
      [`[function load() {}, () => 1, new RangeError("out")]`, "ƒ load() ƒ anonymous() RangeError: out"],
      [`[new Date(Date.UTC(2026, 10, 27)), /a+/g, new Date(NaN)]`, "2026-11-27T00:00:00.000Z /a+/g Invalid Date"],
      [`(() => { class Row { constructor() { this.id = 7; } } return [new Row()]; })()`, "Row {id: 7}"],
      [`(() => { const o = { name: "loop" }; o.self = o; return [o]; })()`, '{name: "loop", self: [Circular]}'],
      [`[Array.from({ length: 25 }, (_, i) => i)]`, "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, … 5 more]"],
      [`[{ get boom() { throw new Error("no"); } }]`, "{boom: [threw]}"],
      [`["%s has %d rows (%i%%), %f avg %o %c", "book", "25.9", 7.5, "3.25", { a: [1] }, "color: red", "extra"]`, 'book has 25 rows (7%), 3.25 avg {a: [1]}  extra'],
      [`["%s and %s", "only one"]`, "only one and %s"],
      [`[new Map(Array.from({ length: 22 }, (_, i) => [i, i])), [[[1]]], { m: new Map(), s: new Set([1]) }]`, "Map(22) {0 => 0, 1 => 1, 2 => 2, 3 => 3, 4 => 4, 5 => 5, 6 => 6, 7 => 7, 8 => 8, 9 => 9, 10 => 10, 11 => 11, 12 => 12, 13 => 13, 14 => 14, 15 => 15, 16 => 16, 17 => 17, 18 => 18, 19 => 19, … 2 more} [[Array(1)]] {m: Map(0) {}, s: Set(1) {1}}"],
      [`["%d of %f", Symbol("a"), Symbol("b")]`, "NaN of NaN"],
    ];
    for (const [args, printed] of cases) expect(fmtArgs(made(args) as unknown[]), args).toBe(printed);
  });

  it("never throws, whatever a value does when it is read", () => {
    const hostile = made(`new Proxy({}, { ownKeys() { throw new Error("no"); }, getPrototypeOf() { throw new Error("no"); } })`);
    expect(fmtArgs([hostile])).toBe("(object)");
    expect(fmtTable(hostile)).toBe("(object)");
  });

  it("prints a table as text, bounded in rows and columns", () => {
    expect(fmtTable(made(`({ alice: { score: 3 }, bob: 4 })`))).toBe("(index) | score | Value\nalice | 3 | \nbob |  | 4");
    expect(fmtTable(made(`[{ a: 1, b: 2 }]`), ["b"])).toBe("(index) | b\n0 | 2");
    const big = fmtTable(made(`Array.from({ length: 80 }, (_, i) => ({ i }))`)).split("\n");
    expect(big).toHaveLength(1 + 50 + 1);
    expect(big.at(-1)).toBe("… 30 more rows");
    const wide = fmtTable(made(`[Object.fromEntries(Array.from({ length: 30 }, (_, i) => ["c" + i, i]))]`)).split("\n");
    expect(wide[0]?.split(" | ")).toHaveLength(1 + 20);
    expect(fmtTable(made(`"plain"`))).toBe("plain");
  });
});
