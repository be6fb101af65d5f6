// What the script rules ask of a node: names, callees, the globals an expression hangs from and
// the string it evaluates to; and the script under check, which every rule family reads.
import type { ESTree } from "meriyah";
import type { Context } from "../context";
import { HOLE } from "../urls";
import { endOf, startOf, unwrap, type AnyNode } from "../walk";

export type CallExpression = ESTree.CallExpression;
export type MemberExpression = ESTree.MemberExpression;
export type NewExpression = ESTree.NewExpression;
export type FunctionNode = Extract<AnyNode, { type: "FunctionDeclaration" | "FunctionExpression" | "ArrowFunctionExpression" }>;
export type Scope = FunctionNode | ESTree.Program;

/** The script a pass walks: its text, where its offsets land in the document, the findings. */
export class Script {
  constructor(
    readonly ctx: Context,
    readonly code: string,
    readonly at: (pos: number) => number,
  ) {}

  src(n: AnyNode): string {
    return this.code.slice(startOf(n), endOf(n));
  }
}

const GLOBAL_OBJECTS = new Set(["window", "self", "globalThis", "frames"]);
export const FRAME_REFS = new Set(["top", "parent", "opener"]);

export function isFunction(n: AnyNode): n is FunctionNode {
  return n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression";
}

export function propName(m: MemberExpression): string | null {
  if (!m.computed && m.property.type === "Identifier") return m.property.name;
  if (m.computed && m.property.type === "Literal" && typeof m.property.value === "string") return m.property.value;
  return null;
}

export function keyName(key: AnyNode, computed: boolean): string | null {
  if (!computed && key.type === "Identifier") return key.name;
  if (key.type === "Literal" && typeof key.value === "string") return key.value;
  return null;
}

export function calleeName(call: CallExpression | NewExpression): string | null {
  const c = unwrap(call.callee);
  if (c.type === "Identifier") return c.name;
  if (c.type === "MemberExpression") return propName(c);
  return null;
}

export function calleeObject(call: CallExpression | NewExpression): AnyNode | null {
  const c = unwrap(call.callee);
  return c.type === "MemberExpression" ? c.object : null;
}

export function isGlobalObject(n: AnyNode): boolean {
  return n.type === "Identifier" && GLOBAL_OBJECTS.has(n.name);
}

/** `document` or `window.document`. */
export function isDocument(n: AnyNode): boolean {
  if (n.type === "Identifier") return n.name === "document";
  return n.type === "MemberExpression" && propName(n) === "document" && isGlobalObject(n.object);
}

/** `top`, `parent`, `opener`, or the same on `window`. */
export function isFrameRef(n: AnyNode): boolean {
  if (n.type === "Identifier") return FRAME_REFS.has(n.name);
  return n.type === "MemberExpression" && FRAME_REFS.has(propName(n) ?? "") && isGlobalObject(n.object);
}

/** `location`, `window.location`, `document.location`, `top.location`. */
export function isLocation(n: AnyNode): boolean {
  if (n.type === "Identifier") return n.name === "location";
  return n.type === "MemberExpression" && propName(n) === "location" && (isGlobalObject(n.object) || isDocument(n.object) || isFrameRef(n.object));
}

/** The identifier an expression hangs from (`window` for `window.top.location`). */
export function rootName(n: AnyNode): string {
  let x = n;
  while (x.type === "MemberExpression") x = x.object;
  return x.type === "Identifier" ? x.name : "";
}

/**
 * The string an expression evaluates to, with each unknown piece a HOLE, or null when it has no
 * string literal in it: `API + "/crm/" + id + "/companies"` → "\0/crm/\0/companies".
 */
export function shapeOf(n: AnyNode): string | null {
  switch (n.type) {
    case "Literal":
      return typeof n.value === "string" ? n.value : null;
    case "TemplateLiteral": {
      let s = "";
      n.quasis.forEach((q, i) => {
        s += q.value.cooked ?? q.value.raw;
        const e = n.expressions[i];
        if (e) s += shapeOf(e) ?? HOLE;
      });
      return s;
    }
    case "BinaryExpression": {
      if (n.operator !== "+" || n.left.type === "PrivateIdentifier") return null;
      const l = shapeOf(n.left);
      const r = shapeOf(n.right);
      return l === null && r === null ? null : (l ?? HOLE) + (r ?? HOLE);
    }
    case "ChainExpression":
    case "ParenthesizedExpression":
      return shapeOf(n.expression);
    default:
      return null;
  }
}

export function isPlus(n: AnyNode | undefined): boolean {
  return n !== undefined && n.type === "BinaryExpression" && n.operator === "+";
}
