import type { ESTree } from "meriyah";
import type { Context } from "./context";
import { walk, type AnyNode } from "./walk";
import { DASHBOARD_PARAM_NAME, DASHBOARD_PARAMS_MAX } from "@/lib/frame/params";

// The page parameters a dashboard reads: `window.DASHBOARD_PARAMS.days`,
// `DASHBOARD_PARAMS["from"]`, `(window.DASHBOARD_PARAMS || {}).team`, and the documented
// `const params = window.DASHBOARD_PARAMS || {}; params.days` with `const { days } = params`.
// The saved and watch pages offer an input for each, so a person can change a window without
// writing the address by hand. Aliases are followed by name, not scope: a name offered that the
// dashboard ignores costs an empty input, a name missed only means typing it into the address.

const PARAMS_GLOBAL = "DASHBOARD_PARAMS";
const GLOBAL_OBJECTS = new Set(["window", "self", "globalThis"]);
/** Aliases of aliases, followed this deep: `const p = params` is as far as real code goes. */
const ALIAS_ROUNDS = 4;

interface Binding {
  name: string;
  value: AnyNode;
}

function unwrap(n: AnyNode): AnyNode {
  let x = n;
  while (x.type === "ChainExpression" || x.type === "ParenthesizedExpression") x = x.expression;
  return x;
}

function propName(m: ESTree.MemberExpression): string | null {
  if (!m.computed && m.property.type === "Identifier") return m.property.name;
  if (m.computed && m.property.type === "Literal" && typeof m.property.value === "string") return m.property.value;
  if (m.computed && m.property.type === "TemplateLiteral" && m.property.expressions.length === 0) return m.property.quasis[0]?.value.cooked ?? null;
  return null;
}

export function collectParamReads(ctx: Context, code: string, program: ESTree.Program): void {
  // Most scripts never name the global: they cost a substring search, not a walk.
  if (!code.includes(PARAMS_GLOBAL)) return;
  const bindings: Binding[] = [];
  const members: ESTree.MemberExpression[] = [];
  const patterns: { pattern: ESTree.ObjectPattern; value: AnyNode }[] = [];
  walk(program, (node, anc, binding) => {
    const parent = anc[anc.length - 2];
    if (node.type === "Identifier" && binding && parent?.type === "VariableDeclarator" && parent.id === node && parent.init) {
      bindings.push({ name: node.name, value: parent.init });
    } else if (node.type === "AssignmentExpression" && node.operator === "=" && node.left.type === "Identifier") {
      bindings.push({ name: node.left.name, value: node.right });
    } else if (node.type === "ObjectPattern" && parent?.type === "VariableDeclarator" && parent.id === node && parent.init) {
      patterns.push({ pattern: node, value: parent.init });
    } else if (node.type === "MemberExpression") {
      // A call (`params.get(…)`) or a write is not a read of a value: the values are strings and the object frozen.
      const callee = parent && (parent.type === "CallExpression" || parent.type === "NewExpression") && unwrap(parent.callee) === node;
      const written = parent?.type === "AssignmentExpression" && parent.left === node;
      if (!callee && !written) members.push(node);
    }
  });

  const aliases = new Set<string>();
  const isParams = (n: AnyNode): boolean => {
    const x = unwrap(n);
    if (x.type === "Identifier") return x.name === PARAMS_GLOBAL || aliases.has(x.name);
    if (x.type === "MemberExpression") return propName(x) === PARAMS_GLOBAL && unwrap(x.object).type === "Identifier" && GLOBAL_OBJECTS.has((unwrap(x.object) as ESTree.Identifier).name);
    // `window.DASHBOARD_PARAMS || {}`, `?? {}`: the fallback is the documented way in.
    if (x.type === "LogicalExpression") return (x.operator === "||" || x.operator === "??") && isParams(x.left);
    return false;
  };
  for (let round = 0; round < ALIAS_ROUNDS; round++) {
    const before = aliases.size;
    for (const b of bindings) if (b.name !== PARAMS_GLOBAL && isParams(b.value)) aliases.add(b.name);
    if (aliases.size === before) break;
  }

  const found = ctx.params;
  const add = (name: string | null) => {
    if (name !== null && found.size < DASHBOARD_PARAMS_MAX && DASHBOARD_PARAM_NAME.test(name)) found.add(name);
  };
  for (const m of members) if (isParams(m.object)) add(propName(m));
  for (const { pattern, value } of patterns) {
    if (!isParams(value)) continue;
    for (const p of pattern.properties) {
      if (p.type !== "Property") continue;
      if (!p.computed && p.key.type === "Identifier") add(p.key.name);
      else if (p.key.type === "Literal" && typeof p.key.value === "string") add(p.key.value);
    }
  }
}
