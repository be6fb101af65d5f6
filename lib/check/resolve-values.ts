import type { ESTree } from "meriyah";
import { HOLE } from "./urls";
import type { AnyNode } from "./walk";

// The values resolve.ts reads expressions to, the bindings it finds names in, its bounds, and
// the helpers over both that need no state.

/** A computed piece known to hold no "/", "?" or "#": a number, an encodeURIComponent result, a URLSearchParams. */
export const SEG = "\u0001";

export type FunctionNode = ESTree.FunctionDeclaration | ESTree.FunctionExpression | ESTree.ArrowFunctionExpression;

export interface Frame {
  fn: FunctionNode;
  args: Arg[];
  parent: Env;
}
export type Env = Frame | null;
export type Arg = { node: AnyNode; env: Env } | { vals: Val[] };

export type Val =
  | { k: "str"; s: string }
  | { k: "unknown" }
  /** What the left side of `a && b` gives when `a` is falsy. */
  | { k: "falsy" }
  | { k: "arr"; items: Val[][] }
  | { k: "obj"; node: ESTree.ObjectExpression; env: Env }
  | { k: "fn"; node: FunctionNode; env: Env }
  | { k: "url"; href: Val[] }
  | { k: "query" }
  | { k: "request"; url: Val[] };

export type Step = string | number | null;

export type Binding =
  | { k: "decl"; id: ESTree.Identifier; init: AnyNode | null; access: Step[]; dflt: AnyNode | null }
  | { k: "param"; fn: FunctionNode; index: number; access: Step[]; dflt: AnyNode | null }
  | { k: "loop"; stmt: ESTree.ForOfStatement | ESTree.ForInStatement; access: Step[] }
  | { k: "fn"; node: FunctionNode }
  | { k: "unknown" };

export const UNKNOWN: Val = { k: "unknown" };
export const FALSY: Val = { k: "falsy" };
export const str = (s: string): Val => ({ k: "str", s });

/** Alternatives of one expression past this are not worth telling apart. */
const MAX_ALTERNATIVES = 32;
/** Evaluation steps per document. */
export const MAX_STEPS = 20_000;
/** Nested evaluations (names, calls, returns) before a value is called unknown. */
export const MAX_DEPTH = 40;

export const CALLBACK_METHODS = new Set(["forEach", "map", "flatMap", "filter", "some", "every", "find"]);
export const PASS_THROUGH_METHODS = new Set(["filter", "slice", "reverse", "sort", "flat"]);

export function isFunctionNode(n: AnyNode): n is FunctionNode {
  return n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression";
}

export function children(n: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  for (const key in n) {
    if (key === "start" || key === "end" || key === "loc" || key === "range") continue;
    const v = (n as unknown as Record<string, unknown>)[key];
    if (Array.isArray(v)) {
      for (const x of v) if (x && typeof x === "object" && typeof (x as { type?: unknown }).type === "string") out.push(x as AnyNode);
    } else if (v && typeof v === "object" && typeof (v as { type?: unknown }).type === "string") out.push(v as AnyNode);
  }
  return out;
}

export function propKey(m: ESTree.MemberExpression): string | null {
  if (!m.computed && m.property.type === "Identifier") return m.property.name;
  if (m.computed && m.property.type === "Literal" && (typeof m.property.value === "string" || typeof m.property.value === "number")) return String(m.property.value);
  return null;
}

export function keyOf(p: ESTree.Property): string | null {
  if (!p.computed && p.key.type === "Identifier") return p.key.name;
  if (p.key.type === "Literal" && (typeof p.key.value === "string" || typeof p.key.value === "number")) return String(p.key.value);
  return null;
}

/** Every name a pattern binds, with the path from the bound value to it. */
export function bindPattern(p: AnyNode, access: Step[], dflt: AnyNode | null, out: (id: ESTree.Identifier, access: Step[], dflt: AnyNode | null) => void): void {
  switch (p.type) {
    case "Identifier":
      out(p, access, dflt);
      return;
    case "AssignmentPattern":
      bindPattern(p.left, access, access.length === 0 ? (p.right ?? null) : dflt, out);
      return;
    case "ObjectPattern":
      for (const prop of p.properties) {
        if (prop.type === "RestElement") bindPattern(prop.argument, [...access, null], null, out);
        else bindPattern(prop.value, [...access, keyOf(prop)], null, out);
      }
      return;
    case "ArrayPattern":
      p.elements.forEach((e, i) => {
        if (!e) return;
        if (e.type === "RestElement") bindPattern(e.argument, [...access, null], null, out);
        else bindPattern(e, [...access, i], null, out);
      });
      return;
    default:
      return;
  }
}

export function frameOf(env: Env, fn: FunctionNode): Frame | null {
  for (let f = env; f; f = f.parent) if (f.fn === fn) return f;
  return null;
}

export function stringsOf(vals: Val[]): string[] {
  return vals.map((v) => (v.k === "str" ? v.s : v.k === "query" ? SEG : HOLE));
}

export function product(a: string[], b: string[]): string[] {
  const out = new Set<string>();
  for (const x of a) for (const y of b) {
    out.add(x + y);
    if (out.size > MAX_ALTERNATIVES) return [HOLE];
  }
  return [...out];
}

export function cap(vals: Val[]): Val[] {
  if (vals.length <= MAX_ALTERNATIVES) return vals;
  const seen = new Set<string>();
  const out: Val[] = [];
  for (const v of vals) {
    const key = v.k === "str" ? `s${v.s}` : v.k === "unknown" || v.k === "falsy" || v.k === "query" ? v.k : null;
    if (key !== null) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(v);
  }
  return out.length <= MAX_ALTERNATIVES ? out : [UNKNOWN];
}

