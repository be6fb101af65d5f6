// The ARR rule family (arr-summed): ARR is district grain, the same figure on every school row
// of a district, so a sum of `arr` across rows counts it once per school.
import { clip } from "../context";
import { startOf, type AnyNode } from "../walk";
import { calleeName, isFunction, isPlus, keyName, propName, shapeOf, type CallExpression, type Script } from "./nodes";

const LOOP_CALLBACKS = new Set(["forEach", "map", "flatMap", "each", "filter", "some", "every"]);
const DISTRICT = /district/i;

export class ArrRules {
  private readonly arrContexts = new Set<AnyNode>();

  constructor(private readonly script: Script) {}

  private isArrRead(n: AnyNode, anc: AnyNode[]): boolean {
    switch (n.type) {
      case "ChainExpression":
        return this.isArrRead(n.expression, anc);
      case "MemberExpression":
        return propName(n) === "arr";
      case "LogicalExpression":
        return this.isArrRead(n.left, anc);
      case "UnaryExpression":
        return n.operator === "+" && this.isArrRead(n.argument, anc);
      case "CallExpression": {
        const c = n.callee;
        const a = n.arguments[0];
        return c.type === "Identifier" && /^(?:Number|parseFloat|parseInt)$/.test(c.name) && a !== undefined && a.type !== "SpreadElement" && this.isArrRead(a, anc);
      }
      case "Identifier": {
        // `(sum, { arr }) => sum + arr`
        if (n.name !== "arr") return false;
        for (let i = anc.length - 1; i >= 0; i--) {
          const f = anc[i];
          if (f && isFunction(f)) return f.params.some((p) => p.type === "ObjectPattern" && p.properties.some((q) => q.type === "Property" && keyName(q.key, q.computed) === "arr"));
        }
        return false;
      }
      default:
        return false;
    }
  }

  /**
   * A `+` or `+=` with an `arr` operand, judged where it accumulates: in a reduce callback, a
   * loop, or a forEach/map callback. A district mentioned there (deduplicating by district,
   * iterating districts) makes it a per-district figure, unless the sum itself is keyed by
   * district, which adds a district's ARR once per school.
   */
  arrSum(node: AnyNode, a: AnyNode, b: AnyNode | null, anc: AnyNode[]): void {
    if (!this.isArrRead(a, anc) && !(b && this.isArrRead(b, anc))) return;
    let top = anc.length - 1;
    while (top > 0 && isPlus(anc[top - 1])) top--;
    const topNode = anc[top];
    if (!topNode) return;
    if (isPlus(topNode) && shapeOf(topNode) !== null) return; // string building, not a sum
    // `totals[r.districtName] += r.arr`, `m.set(r.districtName, (m.get(r.districtName) || 0) + r.arr)`
    let keyed = false;
    const holder = anc[top - 1];
    const target = node.type === "AssignmentExpression" ? node.left : holder?.type === "AssignmentExpression" && holder.right === topNode ? holder.left : null;
    if (target?.type === "MemberExpression" && target.computed && DISTRICT.test(this.script.src(target.property))) keyed = true;
    if (holder?.type === "CallExpression" && calleeName(holder) === "set" && holder.arguments[1] === topNode) {
      const key = holder.arguments[0];
      if (key && DISTRICT.test(this.script.src(key))) keyed = true;
    }
    for (let i = top - 1; i >= 0; i--) {
      const c = anc[i];
      if (!c) return;
      if (c.type === "ForStatement" || c.type === "ForOfStatement" || c.type === "ForInStatement" || c.type === "WhileStatement" || c.type === "DoWhileStatement") {
        return this.arrFinding(c, node, keyed);
      }
      if (isFunction(c)) {
        const call = anc[i - 1];
        if (call?.type !== "CallExpression" || !call.arguments.some((x) => x === c)) return;
        const name = calleeName(call);
        if (name === "reduce" || name === "reduceRight" || (name !== null && LOOP_CALLBACKS.has(name))) return this.arrFinding(call, node, keyed);
        return;
      }
    }
  }

  private arrFinding(context: AnyNode, at: AnyNode, keyed: boolean): void {
    if (this.arrContexts.has(context)) return;
    if (!keyed && DISTRICT.test(this.script.src(context))) return;
    this.arrContexts.add(context);
    this.script.ctx.report(
      "arr-summed",
      this.script.at(startOf(at)),
      `\`${clip(this.script.src(at), 60)}\` adds up \`arr\` across rows${keyed ? " of each district" : ""}; ARR is district grain: every school row of a district carries the same figure, so this counts it once per school.`,
      "Group rows by `districtName` and take one `arr` per district, e.g. `const perDistrict = new Map(rows.map(r => [r.districtName, r.arr ?? 0]));` then sum `perDistrict.values()`.",
    );
  }

  /** `rows.map(r => r.arr).reduce((a, b) => a + b, 0)` */
  reduceOverMappedArr(node: CallExpression, obj: AnyNode | null): void {
    if (!obj || obj.type !== "CallExpression" || calleeName(obj) !== "map") return;
    const fn = obj.arguments[0];
    if (!fn || (fn.type !== "ArrowFunctionExpression" && fn.type !== "FunctionExpression")) return;
    const body = fn.type === "ArrowFunctionExpression" && fn.body.type !== "BlockStatement" ? fn.body : null;
    if (!body || !this.isArrRead(body, [fn])) return;
    this.arrFinding(node, node, false);
  }

  /** `d3.sum(rows, d => d.arr)`, `_.sumBy(rows, "arr")` */
  sumCall(node: CallExpression): void {
    const sums = node.arguments.some(
      (a) =>
        (a.type === "Literal" && a.value === "arr") ||
        (a.type === "ArrowFunctionExpression" && a.body.type !== "BlockStatement" && this.isArrRead(a.body, [a])),
    );
    if (sums) this.arrFinding(node, node, false);
  }
}
