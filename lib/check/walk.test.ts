import { parseModule, parseScript } from "meriyah";
import { describe, expect, it } from "vitest";
import { walk } from "./walk";

function identifiers(code: string) {
  const out: string[] = [];
  walk(parseModule(code, { ranges: true }), (node, anc, binding) => {
    if (node.type === "Identifier") out.push(`${binding ? "decl" : "ref"}:${node.name}`);
    expect(anc[anc.length - 1]).toBe(node);
  });
  return out;
}

describe("walk", () => {
  it("tells declarations from reads and assignment targets, and skips property names", () => {
    expect(identifiers("const { a, b: [c = d], ...e } = f; function g(h, { i }) { return j.k; } try {} catch (l) {} class M {}")).toEqual([
      "decl:a",
      "decl:c",
      "ref:d",
      "decl:e",
      "ref:f",
      "decl:g",
      "decl:h",
      "decl:i",
      "ref:j",
      "decl:l",
      "decl:M",
    ]);
    expect(identifiers("location = x; ({ top } = y); o[p] = q.r; lbl: for (;;) break lbl;")).toEqual([
      "ref:location",
      "ref:x",
      "ref:top",
      "ref:y",
      "ref:o",
      "ref:p",
      "ref:q",
    ]);
  });

  it("visits children before their parent", () => {
    const order: string[] = [];
    walk(parseScript("f(a + 1)", { ranges: true }), (n) => order.push(n.type));
    expect(order).toEqual(["Identifier", "Identifier", "Literal", "BinaryExpression", "CallExpression"]);
  });
});
