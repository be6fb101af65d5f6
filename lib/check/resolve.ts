import type { ESTree } from "meriyah";
import { READS_MAX, resolveShape, type DraftReads } from "./reads";
import { HOLE } from "./urls";
import { unwrap, type AnyNode } from "./walk";
import { Scopes } from "./resolve-scopes";
import {
  CALLBACK_METHODS,
  FALSY,
  MAX_DEPTH,
  MAX_STEPS,
  PASS_THROUGH_METHODS,
  SEG,
  UNKNOWN,
  cap,
  children,
  frameOf,
  isFunctionNode,
  keyOf,
  product,
  propKey,
  str,
  stringsOf,
  type Arg,
  type Binding,
  type Env,
  type Frame,
  type FunctionNode,
  type Step,
  type Val,
} from "./resolve-values";

// What a request's URL can be, read off the code before it runs: the values an expression may
// take, as alternatives. `base + "/conversations" + (cursor ? "?cursor=" + cursor : "")` is two
// strings, not one with a hole that could be anything; a helper's parameter is what its callers
// pass; a loop variable is each element of what it loops over. A value the reading cannot follow
// stays unknown, and a URL built on one is reported rather than guessed: the manifest lists only
// paths the code is seen to fetch.
//
// Deliberately small: a few thousand steps per document at most, a bounded number of
// alternatives per expression, and no flow order beyond "every assignment of a name". The
// values, bindings and bounds are in resolve-values.ts, the scopes in resolve-scopes.ts.

class Resolver extends Scopes {
  private readonly active = new Set<unknown>();
  private steps = 0;
  private depth = 0;

  /** The strings a request's URL argument can be; null among them for one that cannot be read. */
  urlsOf(node: AnyNode): (string | null)[] {
    this.indexAll();
    const out: (string | null)[] = [];
    for (const v of this.ev(node, null)) {
      if (v.k === "str") out.push(v.s);
      else if (v.k === "url" || v.k === "request") {
        for (const h of v.k === "url" ? v.href : v.url) out.push(h.k === "str" ? h.s : null);
      } else out.push(null);
    }
    return out;
  }

  // ── Values ──────────────────────────────────────────────────────────────────────────
  private ev(node: AnyNode, env: Env): Val[] {
    if (++this.steps > MAX_STEPS || this.depth > MAX_DEPTH) return [UNKNOWN];
    this.depth++;
    try {
      return cap(this.evaluate(node, env));
    } finally {
      this.depth--;
    }
  }

  private evaluate(n: AnyNode, env: Env): Val[] {
    switch (n.type) {
      case "Literal":
        if (typeof n.value === "string") return [str(n.value)];
        if (typeof n.value === "number" || typeof n.value === "boolean") return [str(String(n.value))];
        return n.value === null ? [FALSY] : [UNKNOWN];
      case "TemplateLiteral": {
        let acc = [""];
        n.quasis.forEach((q, i) => {
          acc = acc.map((s) => s + (q.value.cooked ?? q.value.raw));
          const e = n.expressions[i];
          if (e) acc = product(acc, this.strings(e, env));
        });
        return acc.map(str);
      }
      case "BinaryExpression":
        if (n.operator === "+" && n.left.type !== "PrivateIdentifier") return product(this.strings(n.left, env), this.strings(n.right, env)).map(str);
        return [str(SEG)];
      case "ConditionalExpression":
        return [...this.ev(n.consequent, env), ...this.ev(n.alternate, env)];
      case "LogicalExpression": {
        const right = this.ev(n.right, env);
        if (n.operator === "&&") return [FALSY, ...right];
        return [...this.ev(n.left, env).filter((v) => v.k !== "falsy"), ...right];
      }
      case "ChainExpression":
      case "ParenthesizedExpression":
        return this.ev(n.expression, env);
      case "AwaitExpression":
        return this.ev(n.argument, env);
      case "SequenceExpression": {
        const last = n.expressions[n.expressions.length - 1];
        return last ? this.ev(last, env) : [UNKNOWN];
      }
      case "AssignmentExpression":
        return this.ev(n.right, env);
      case "Identifier":
        return this.identifier(n, env);
      case "ArrayExpression":
        return [{ k: "arr", items: n.elements.map((e) => (e === null ? [FALSY] : e.type === "SpreadElement" ? [UNKNOWN] : this.ev(e, env))) }];
      case "ObjectExpression":
        return [{ k: "obj", node: n, env }];
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        return [{ k: "fn", node: n, env }];
      case "MemberExpression":
        return this.member(n, env);
      case "CallExpression":
        return this.call(n, env);
      case "NewExpression":
        return this.construct(n, env);
      case "UnaryExpression":
        return n.operator === "!" ? [str("true"), FALSY] : [str(SEG)];
      case "UpdateExpression":
        return [str(SEG)];
      default:
        return [UNKNOWN];
    }
  }

  /** An expression's values as the strings concatenation makes of them. */
  private strings(n: AnyNode, env: Env): string[] {
    const out: string[] = [];
    for (const v of this.ev(n, env)) {
      if (v.k === "str") out.push(v.s);
      else if (v.k === "url") for (const h of v.href) out.push(h.k === "str" ? h.s : HOLE);
      else if (v.k === "query") out.push(SEG);
      else out.push(HOLE);
    }
    return out;
  }

  private identifier(n: ESTree.Identifier, env: Env): Val[] {
    if (n.name === "undefined") return [FALSY];
    const bindings = this.lookup(n.name, n);
    if (!bindings) return [UNKNOWN];
    const out: Val[] = [];
    for (const b of bindings) out.push(...this.binding(b, env));
    return out.length > 0 ? out : [UNKNOWN];
  }

  private binding(b: Binding, env: Env): Val[] {
    if (this.active.has(b)) return [UNKNOWN];
    this.active.add(b);
    try {
      switch (b.k) {
        case "fn":
          return [{ k: "fn", node: b.node, env }];
        case "unknown":
          return [UNKNOWN];
        case "decl": {
          const plain: Val[] = b.init ? this.access(this.ev(b.init, env), b.access, b.dflt, env) : [];
          const later = (this.assignments.get(b.id.name) ?? []).filter((a) => this.lookup(b.id.name, a.left)?.includes(b));
          for (const a of later) if (a.operator === "=" || a.operator === "||=" || a.operator === "??=" || a.operator === "&&=") plain.push(...this.ev(a.right, env));
          let vals = plain.length > 0 ? plain : [FALSY];
          for (const a of later) {
            if (a.operator !== "+=") continue;
            vals = cap([...vals, ...product(stringsOf(vals), this.strings(a.right, env)).map(str)]);
          }
          return vals;
        }
        case "param": {
          const frame = frameOf(env, b.fn);
          if (frame) return this.access(this.argValues(frame.args[b.index], b.dflt, frame.parent), b.access, null, frame.parent);
          const sites = this.callSites(b.fn);
          if (sites === null) return [UNKNOWN];
          const out: Val[] = [];
          for (const args of sites) out.push(...this.access(this.argValues(args[b.index], b.dflt, null), b.access, null, null));
          return out.length > 0 ? out : [UNKNOWN];
        }
        case "loop": {
          const over = this.ev(b.stmt.right, env);
          const items: Val[] = [];
          for (const v of over) {
            if (b.stmt.type === "ForOfStatement" && v.k === "arr") for (const i of v.items) items.push(...i);
            else if (b.stmt.type === "ForInStatement" && v.k === "obj") items.push(...this.keys(v).map(str));
            else items.push(UNKNOWN);
          }
          return this.access(items, b.access, null, env);
        }
      }
    } finally {
      this.active.delete(b);
    }
  }

  private argValues(arg: Arg | undefined, dflt: AnyNode | null, env: Env): Val[] {
    if (arg === undefined) return dflt ? this.ev(dflt, env) : [FALSY];
    const vals = "vals" in arg ? arg.vals : this.ev(arg.node, arg.env);
    if (!dflt) return vals;
    // A default stands in for undefined only; an argument that may be missing takes it.
    return vals.some((v) => v.k === "falsy") ? [...vals.filter((v) => v.k !== "falsy"), ...this.ev(dflt, env)] : vals;
  }

  /** Follows a destructuring path into values. */
  private access(vals: Val[], path: Step[], dflt: AnyNode | null, env: Env): Val[] {
    let cur = vals;
    for (const step of path) cur = cap(cur.flatMap((v) => this.prop(v, step)));
    if (dflt && path.length > 0) return cur.some((v) => v.k === "falsy") ? [...cur.filter((v) => v.k !== "falsy"), ...this.ev(dflt, env)] : cur;
    return cur;
  }

  private keys(v: Extract<Val, { k: "obj" }>): string[] {
    const out: string[] = [];
    for (const p of v.node.properties) {
      const k = p.type === "Property" ? keyOf(p) : null;
      out.push(k ?? HOLE);
    }
    return out;
  }

  /** One property of a value: `step` null for one the code computes. */
  private prop(v: Val, step: Step): Val[] {
    switch (v.k) {
      case "arr":
        if (step === "length") return [str(SEG)];
        if (typeof step === "number" || (typeof step === "string" && /^\d+$/.test(step))) return v.items[Number(step)] ?? [FALSY];
        if (step === null) return v.items.flat();
        return [UNKNOWN];
      case "obj": {
        let out: Val[] = [];
        for (const p of v.node.properties) {
          if (p.type !== "Property") {
            out.push(UNKNOWN);
            continue;
          }
          const k = keyOf(p);
          if (step !== null && k !== null && k !== String(step)) continue;
          const value: Val[] = p.method ? [{ k: "fn", node: p.value as FunctionNode, env: v.env }] : p.kind === "init" ? this.ev(p.value, v.env) : [UNKNOWN];
          // A later key of the same name replaces an earlier one.
          out = step !== null && k !== null ? value : [...out, ...value];
        }
        return out.length > 0 ? out : [FALSY];
      }
      case "url":
        if (step === "href") return v.href;
        if (step === "pathname") return v.href.map((h) => (h.k === "str" ? str(h.s.replace(/[?#].*$/s, "")) : h));
        if (step === "search") return [str(""), str(`?${SEG}`)];
        if (step === "searchParams") return [{ k: "query" }];
        return [UNKNOWN];
      case "str":
        return step === "length" ? [str(SEG)] : [UNKNOWN];
      default:
        return [UNKNOWN];
    }
  }

  private member(n: ESTree.MemberExpression, env: Env): Val[] {
    if (n.object.type === "Super") return [UNKNOWN];
    // A computed key other than a literal is taken as any key: an index that a loop moves on
    // reads every element, whatever its first value was.
    const step: Step = propKey(n);
    if (step === null && !n.computed) return [UNKNOWN];
    const out: Val[] = [];
    for (const v of this.ev(n.object, env)) out.push(...this.prop(v, step));
    return out;
  }

  private construct(n: ESTree.NewExpression, env: Env): Val[] {
    const callee = unwrap(n.callee);
    const name = callee.type === "Identifier" ? callee.name : null;
    const arg0 = n.arguments[0];
    if (name === "URL" && arg0 && arg0.type !== "SpreadElement") {
      // searchParams may add a query to any of them: the path stays what it was.
      const href = this.ev(arg0, env).flatMap((v): Val[] => (v.k === "str" ? [v, str(`${v.s}${v.s.includes("?") ? "&" : "?"}${SEG}`)] : v.k === "url" ? v.href : [UNKNOWN]));
      return [{ k: "url", href: cap(href) }];
    }
    if (name === "URLSearchParams") return [{ k: "query" }];
    if (name === "Request" && arg0 && arg0.type !== "SpreadElement") {
      const url = this.ev(arg0, env).flatMap((v): Val[] => (v.k === "url" ? v.href : v.k === "request" ? v.url : [v]));
      return [{ k: "request", url: cap(url) }];
    }
    return [UNKNOWN];
  }

  private call(n: ESTree.CallExpression, env: Env): Val[] {
    const callee = unwrap(n.callee);
    const args = n.arguments;
    const arg0 = args[0] && args[0].type !== "SpreadElement" ? args[0] : undefined;
    if (callee.type === "Identifier") {
      const name = callee.name;
      if ((name === "encodeURIComponent" || name === "encodeURI") && arg0) {
        return this.strings(arg0, env).map((s) => (/[\u0000\u0001]/.test(s) ? str(name === "encodeURI" ? s.replace(/\u0000/g, SEG) : SEG) : str(name === "encodeURI" ? encodeURI(s) : encodeURIComponent(s))));
      }
      if (name === "String" && arg0) return this.strings(arg0, env).map(str);
      if (name === "Number" || name === "parseInt" || name === "parseFloat") return [str(SEG)];
    }
    if (callee.type === "MemberExpression" && callee.object.type !== "Super") {
      const method = propKey(callee);
      const obj = callee.object;
      if (obj.type === "Identifier" && obj.name === "Object" && arg0 && (method === "keys" || method === "values" || method === "entries")) {
        return this.ev(arg0, env).map((v): Val => {
          if (v.k !== "obj") return UNKNOWN;
          const props = v.node.properties.map((p) => (p.type === "Property" ? { key: keyOf(p), value: p } : null));
          if (props.some((p) => p === null || p.key === null || p.value.kind !== "init")) return UNKNOWN;
          const items = props.map((p): Val[] => {
            const key = str(p?.key ?? HOLE);
            const value = p ? this.ev(p.value.value, v.env) : [UNKNOWN];
            return method === "keys" ? [key] : method === "values" ? value : [{ k: "arr", items: [[key], value] }];
          });
          return { k: "arr", items };
        });
      }
      if (obj.type === "Identifier" && (obj.name === "Math" || obj.name === "Date")) return [str(SEG)];
      if (method === "toString" || method === "trim" || method === "valueOf") return this.ev(obj, env).flatMap((v): Val[] => (v.k === "query" ? [str(SEG)] : v.k === "url" ? v.href : [v]));
      if (method === "toLowerCase" || method === "toUpperCase") {
        return this.ev(obj, env).map((v) => (v.k === "str" && !/[\u0000\u0001]/.test(v.s) ? str(method === "toLowerCase" ? v.s.toLowerCase() : v.s.toUpperCase()) : UNKNOWN));
      }
      if (method === "toFixed" || method === "getTime" || method === "toISOString" || method === "padStart") return [str(SEG)];
      if (method === "join") {
        const sep = arg0 ? this.ev(arg0, env) : [str(",")];
        const s = sep.length === 1 && sep[0]?.k === "str" ? sep[0].s : null;
        return this.ev(obj, env).flatMap((v): Val[] => {
          if (v.k !== "arr" || s === null) return [UNKNOWN];
          let acc: string[] | null = null;
          for (const item of v.items) {
            const parts = stringsOf(item);
            acc = acc === null ? parts : product(product(acc, [s]), parts);
          }
          return (acc ?? [""]).map(str);
        });
      }
      if (method === "map" || method === "flatMap") {
        const fn = arg0 ? this.ev(arg0, env) : [];
        return this.ev(obj, env).map((v): Val => {
          if (v.k !== "arr") return UNKNOWN;
          const each = v.items.flat();
          const results: Val[] = [];
          for (const f of fn) {
            if (f.k !== "fn") return UNKNOWN;
            results.push(...this.returns(f, [{ vals: each }, { vals: [str(SEG)] }]));
          }
          const flat = method === "flatMap" ? results.flatMap((r) => (r.k === "arr" ? r.items.flat() : [r])) : results;
          return { k: "arr", items: [cap(flat)] };
        });
      }
      if (method !== null && PASS_THROUGH_METHODS.has(method)) return this.ev(obj, env).map((v) => (v.k === "arr" ? { k: "arr", items: [v.items.flat()] } : UNKNOWN));
      if (method === "concat") {
        const parts = [obj, ...args];
        const items: Val[] = [];
        for (const p of parts) {
          if (p.type === "SpreadElement") return [UNKNOWN];
          for (const v of this.ev(p, env)) {
            if (v.k === "arr") items.push(...v.items.flat());
            else if (v.k === "str") return product(this.strings(obj, env), args.map((a) => (a.type === "SpreadElement" ? [HOLE] : this.strings(a, env))).reduce((acc, s) => product(acc, s), [""])).map(str);
            else items.push(UNKNOWN);
          }
        }
        return [{ k: "arr", items: [cap(items)] }];
      }
    }
    const out: Val[] = [];
    for (const f of this.ev(callee, env)) {
      if (f.k !== "fn") return [UNKNOWN];
      out.push(...this.returns(f, args.map((a): Arg => (a.type === "SpreadElement" ? { vals: [UNKNOWN] } : { node: a, env }))));
    }
    return out.length > 0 ? out : [UNKNOWN];
  }

  /** What a function returns when called with `args`. */
  private returns(f: Extract<Val, { k: "fn" }>, args: Arg[]): Val[] {
    const fn = f.node;
    if (this.active.has(fn)) return [UNKNOWN];
    this.active.add(fn);
    try {
      const frame: Frame = { fn, args, parent: f.env };
      if (!fn.body) return [UNKNOWN];
      if (fn.body.type !== "BlockStatement") return this.ev(fn.body, frame);
      const out: Val[] = [];
      const stack: AnyNode[] = [...fn.body.body];
      while (stack.length > 0) {
        const s = stack.pop() as AnyNode;
        if (isFunctionNode(s)) continue;
        if (s.type === "ReturnStatement") out.push(...(s.argument ? this.ev(s.argument, frame) : [FALSY]));
        for (const c of children(s)) if (!isFunctionNode(c) && /Statement|SwitchCase|CatchClause|Declaration/.test(c.type)) stack.push(c);
      }
      return out.length > 0 ? out : [FALSY];
    } finally {
      this.active.delete(fn);
    }
  }

  /**
   * The arguments of every call of a function the code makes, or null when it is handed to
   * something that calls it with arguments the check cannot see.
   */
  private callSites(fn: FunctionNode): Arg[][] | null {
    const parent = this.parents.get(fn);
    const names: string[] = [];
    if (fn.type === "FunctionDeclaration" && fn.id) names.push(fn.id.name);
    if (parent?.type === "VariableDeclarator" && parent.init === fn && parent.id.type === "Identifier") names.push(parent.id.name);
    if (parent?.type === "AssignmentExpression" && parent.right === fn && parent.left.type === "Identifier") names.push(parent.left.name);
    const method = parent?.type === "Property" && parent.value === fn ? keyOf(parent) : null;
    const sites: Arg[][] = [];
    let opaque = false;

    const refersToFn = (id: ESTree.Identifier): boolean => {
      const bs = this.lookup(id.name, id);
      return bs !== null && bs.some((b) => (b.k === "fn" && b.node === fn) || (b.k === "decl" && b.init === fn));
    };
    /** `fn` handed to a call as an argument: called by the array method it is given to, or by something unseen. */
    const handedTo = (call: ESTree.CallExpression | ESTree.NewExpression, index: number) => {
      const c = unwrap(call.callee);
      const name = c.type === "MemberExpression" ? propKey(c) : null;
      if (c.type === "MemberExpression" && c.object.type !== "Super" && index === 0 && name !== null && CALLBACK_METHODS.has(name)) {
        const items = this.ev(c.object, null).flatMap((v) => (v.k === "arr" ? v.items.flat() : [UNKNOWN]));
        sites.push([{ vals: items }, { vals: [str(SEG)] }]);
      } else opaque = true;
    };

    if (parent && (parent.type === "CallExpression" || parent.type === "NewExpression") && parent.callee !== fn) {
      const i = parent.arguments.indexOf(fn as ESTree.Expression);
      if (i >= 0) handedTo(parent, i);
    }
    for (const call of this.calls) {
      const c = unwrap(call.callee);
      if (c.type === "Identifier" && names.includes(c.name) && refersToFn(c)) {
        sites.push(call.arguments.map((a): Arg => (a.type === "SpreadElement" ? { vals: [UNKNOWN] } : { node: a, env: null })));
      } else if (method !== null && c.type === "MemberExpression" && propKey(c) === method && c.object.type !== "Super") {
        if (this.ev(c.object, null).some((v) => v.k === "obj" && v.node.properties.includes(parent as ESTree.Property))) {
          sites.push(call.arguments.map((a): Arg => (a.type === "SpreadElement" ? { vals: [UNKNOWN] } : { node: a, env: null })));
        }
      }
      call.arguments.forEach((a, i) => {
        if (a.type === "Identifier" && names.includes(a.name) && refersToFn(a)) handedTo(call, i);
      });
    }
    if (opaque) return null;
    return sites;
  }
}

/** A request whose URL the check could not read to one path: where it is and how it reads. */
interface UnresolvedRead {
  offset: number;
  text: string;
}

interface RequestSite {
  node: AnyNode;
  offset: number;
  text: string;
}

/**
 * Collects the requests of one document and, once every script has been read, the paths they
 * fetch. Only a URL that reaches a request counts: a path written anywhere else (a link, a label,
 * a table of views nobody fetches) is no read.
 */
export class ReadsCollector {
  readonly resolver = new Resolver();
  private readonly sites: RequestSite[] = [];

  /** The URL argument of a fetch, XMLHttpRequest.open, Request, EventSource or library read. */
  request(node: AnyNode, offset: number, text: string): void {
    this.sites.push({ node, offset, text });
  }

  /** The manifest, and the requests it could not account for. */
  result(): { reads: DraftReads; unresolved: UnresolvedRead[] } {
    const paths = new Set<string>();
    const unresolved: UnresolvedRead[] = [];
    for (const site of this.sites) {
      let unread = false;
      for (const shape of this.resolver.urlsOf(site.node)) {
        const r = shape === null ? ({ kind: "unresolved" } as const) : resolveShape(shape);
        if (r.kind === "path") {
          if (paths.size < READS_MAX) paths.add(r.path);
        } else if (r.kind === "unresolved") unread = true;
      }
      if (unread) unresolved.push({ offset: site.offset, text: site.text });
    }
    return { reads: { paths: [...paths].sort(), complete: unresolved.length === 0 }, unresolved };
  }
}

