import { parseScript, type ESTree } from "meriyah";
import type { AnyNode } from "./walk";
import { bindPattern, children, isFunctionNode, type Binding } from "./resolve-values";

// Where resolve.ts finds what a name is bound to: the documents' programs indexed once (each
// node's parent, every call, every assignment of a name), and each scope's declarations, read
// as the language declares them (hoisted `var` and functions, block-scoped `let`, parameters,
// loop variables).

interface ProgramEntry {
  program: ESTree.Program;
  /** Top-level names of a classic script or handler are the document's globals. */
  global: boolean;
}

export class Scopes {
  protected readonly parents = new WeakMap<AnyNode, AnyNode>();
  protected readonly programs: ProgramEntry[] = [];
  private readonly indexed = new WeakSet<ESTree.Program>();
  private readonly dataDeclarations = new Map<string, string>();
  private readonly scopeCache = new WeakMap<AnyNode, Map<string, Binding[]>>();
  protected readonly calls: (ESTree.CallExpression | ESTree.NewExpression)[] = [];
  protected readonly assignments = new Map<string, ESTree.AssignmentExpression[]>();

  addProgram(program: ESTree.Program, global: boolean): void {
    this.programs.push({ program, global });
  }

  /** `const NAME = <JSON>;` read by the data fast path: parsed only if a request reaches it. */
  addDataDeclaration(name: string, statement: string): void {
    if (!this.dataDeclarations.has(name)) this.dataDeclarations.set(name, statement);
  }


  // ── Indexing ────────────────────────────────────────────────────────────────────────
  protected indexAll(): void {
    for (const { program } of this.programs) this.index(program);
  }

  private index(program: ESTree.Program): void {
    if (this.indexed.has(program)) return;
    this.indexed.add(program);
    const stack: AnyNode[] = [program];
    while (stack.length > 0) {
      const n = stack.pop() as AnyNode;
      if (n.type === "CallExpression" || n.type === "NewExpression") this.calls.push(n);
      else if (n.type === "AssignmentExpression" && n.left.type === "Identifier") {
        const list = this.assignments.get(n.left.name) ?? [];
        list.push(n);
        this.assignments.set(n.left.name, list);
      }
      for (const c of children(n)) {
        this.parents.set(c, n);
        stack.push(c);
      }
    }
  }

  // ── Scopes ──────────────────────────────────────────────────────────────────────────
  protected lookup(name: string, from: AnyNode): Binding[] | null {
    let child: AnyNode = from;
    for (let a = this.parents.get(from); a; child = a, a = this.parents.get(a)) {
      const found = this.declsOf(a, child).get(name);
      if (found) return found;
    }
    for (const { program, global } of this.programs) {
      if (!global) continue;
      const found = this.declsOf(program, program).get(name);
      if (found) return found;
    }
    const data = this.dataDeclarations.get(name);
    if (data !== undefined) {
      this.dataDeclarations.delete(name);
      try {
        const program = parseScript(data, { ranges: { start: true, end: true, range: false }, webcompat: true });
        this.programs.push({ program, global: true });
        this.index(program);
        return this.declsOf(program, program).get(name) ?? null;
      } catch {
        return null;
      }
    }
    return null;
  }

  /** The names a scope node declares, as seen from its child `via` (a function's parameters are not in scope of its own name). */
  private declsOf(scope: AnyNode, via: AnyNode): Map<string, Binding[]> {
    if ((scope.type === "FunctionDeclaration" || scope.type === "FunctionExpression") && via === scope.id) return new Map();
    let m = this.scopeCache.get(scope);
    if (m) return m;
    m = new Map();
    const add = (name: string, b: Binding) => {
      const list = m?.get(name) ?? [];
      list.push(b);
      m?.set(name, list);
    };
    const declare = (d: ESTree.VariableDeclaration) => {
      for (const v of d.declarations) bindPattern(v.id, [], null, (id, access, dflt) => add(id.name, { k: "decl", id, init: v.init ?? null, access, dflt }));
    };
    const statements = (body: readonly AnyNode[], hoistVars: boolean) => {
      for (const s of body) {
        if (s.type === "VariableDeclaration" && s.kind !== "var") declare(s);
        else if (s.type === "FunctionDeclaration" && s.id) add(s.id.name, { k: "fn", node: s });
        else if (s.type === "ClassDeclaration" && s.id) add(s.id.name, { k: "unknown" });
        else if (s.type === "ExportNamedDeclaration" && s.declaration) statements([s.declaration], false);
      }
      if (hoistVars) this.hoistedVars(body, declare);
    };
    switch (scope.type) {
      case "Program":
        statements(scope.body, true);
        break;
      case "BlockStatement":
      case "StaticBlock":
        statements(scope.body, false);
        break;
      case "SwitchStatement":
        for (const c of scope.cases) statements(c.consequent, false);
        break;
      case "ForStatement":
        if (scope.init?.type === "VariableDeclaration") declare(scope.init);
        break;
      case "ForInStatement":
      case "ForOfStatement":
        if (scope.left.type === "VariableDeclaration") {
          for (const v of scope.left.declarations) bindPattern(v.id, [], null, (id, access) => add(id.name, { k: "loop", stmt: scope, access }));
        }
        break;
      case "CatchClause":
        if (scope.param) bindPattern(scope.param, [], null, (id) => add(id.name, { k: "unknown" }));
        break;
      case "FunctionDeclaration":
      case "FunctionExpression":
      case "ArrowFunctionExpression": {
        scope.params.forEach((p, index) => bindPattern(p, [], null, (id, access, dflt) => add(id.name, { k: "param", fn: scope, index, access, dflt })));
        if (scope.type === "FunctionExpression" && scope.id) add(scope.id.name, { k: "fn", node: scope });
        if (scope.body?.type === "BlockStatement") {
          const body = scope.body;
          this.hoistedVars(body.body, declare);
          for (const s of body.body) if (s.type === "FunctionDeclaration" && s.id) add(s.id.name, { k: "fn", node: s });
        }
        break;
      }
      default:
        break;
    }
    this.scopeCache.set(scope, m);
    return m;
  }

  /** `var` declarations anywhere in a function or script body, not inside a nested function. */
  private hoistedVars(body: readonly AnyNode[], declare: (d: ESTree.VariableDeclaration) => void): void {
    const stack = [...body];
    while (stack.length > 0) {
      const n = stack.pop() as AnyNode;
      if (isFunctionNode(n) || n.type === "ClassDeclaration" || n.type === "ClassExpression") continue;
      if (n.type === "VariableDeclaration" && n.kind === "var") declare(n);
      // Only statements hold declarations; expressions are skipped but for the functions they hold, which stop here anyway.
      for (const c of children(n)) if (/Statement|Declaration|SwitchCase|CatchClause/.test(c.type)) stack.push(c);
    }
  }
}
