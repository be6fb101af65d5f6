import type { ESTree } from "meriyah";

// A walk over an ESTree tree that visits every node after its children (so `ancestors` ends
// with the node itself) and tells a declared name (`const top = …`, a parameter) from a read or
// an assignment target (`top.location`, `location = …`). Property names (`a.b`, `{ b: 1 }`) and
// labels are not visited as identifiers. One typed switch instead of a generic key walk: this is
// the hot loop of the check.

export type AnyNode = ESTree.Node;

// The check parses with `ranges`, so every node has its offsets; meriyah's types leave them
// optional because they depend on that option.

/** Offset of a node's first character in its code. */
export function startOf(n: AnyNode): number {
  return n.start as number;
}

/** Offset just past a node's last character in its code. */
export function endOf(n: AnyNode): number {
  return n.end as number;
}

type Visit = (node: AnyNode, ancestors: AnyNode[], binding: boolean) => void;

// Only these reach `visit`; statements, properties and functions are context (in `ancestors`)
// but never findings of their own. The cases below come roughly by frequency in real code.
export function walk(root: AnyNode, visit: Visit): void {
  new Walker(visit).go(root, false);
}

// The node types `go` takes itself, most of them in real code; the rest go to `statement` and
// then `declaration`, each of which answers whether `visit` sees the node.
type Hot = "Identifier" | "Literal" | "TemplateElement" | "Property" | "MemberExpression" | "ObjectExpression" | "CallExpression" | "NewExpression" | "ExpressionStatement" | "ChainExpression" | "ParenthesizedExpression" | "VariableDeclaration" | "VariableDeclarator" | "BinaryExpression" | "AssignmentExpression" | "LogicalExpression" | "Program" | "BlockStatement" | "StaticBlock" | "ClassBody" | "ArrayExpression" | "ReturnStatement" | "ThrowStatement" | "UnaryExpression" | "UpdateExpression" | "AwaitExpression" | "SpreadElement" | "YieldExpression" | "FunctionDeclaration" | "FunctionExpression" | "ArrowFunctionExpression" | "IfStatement" | "ConditionalExpression" | "TemplateLiteral";
type Cold = Exclude<AnyNode, { type: Hot }>;
type Colder = Exclude<Cold, { type: "ObjectPattern" | "ArrayPattern" | "RestElement" | "AssignmentPattern" | "ForStatement" | "ForInStatement" | "ForOfStatement" | "WhileStatement" | "DoWhileStatement" | "SwitchStatement" | "SwitchCase" | "TryStatement" | "CatchClause" | "SequenceExpression" | "TaggedTemplateExpression" | "WithStatement" | "LabeledStatement" }>;

class Walker {
  private readonly anc: AnyNode[] = [];

  constructor(private readonly visit: Visit) {}

  private all(nodes: readonly (AnyNode | null | undefined)[], binding: boolean): void {
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (n) this.go(n, binding);
    }
  }

  go(n: AnyNode, binding: boolean): void {
    const anc = this.anc;
    anc.push(n);
    switch (n.type) {
      case "Identifier":
      case "Literal":
      case "TemplateElement":
        break;
      case "Property":
        if (n.computed) this.go(n.key, false);
        // In an object pattern the value is a binding (or an assignment target) like the pattern.
        this.go(n.value, binding);
        anc.pop();
        return;
      case "MemberExpression":
        this.go(n.object, false);
        if (n.computed) this.go(n.property, false);
        break;
      case "ObjectExpression":
        this.all(n.properties, false);
        break;
      case "CallExpression":
      case "NewExpression":
        this.go(n.callee, false);
        this.all(n.arguments, false);
        break;
      case "ExpressionStatement":
      case "ChainExpression":
      case "ParenthesizedExpression":
        this.go(n.expression, false);
        anc.pop();
        return;
      case "VariableDeclaration":
        this.all(n.declarations, false);
        anc.pop();
        return;
      case "VariableDeclarator":
        this.go(n.id, true);
        if (n.init) this.go(n.init, false);
        anc.pop();
        return;
      case "BinaryExpression":
      case "AssignmentExpression":
        this.go(n.left, false);
        this.go(n.right, false);
        break;
      case "LogicalExpression":
        this.go(n.left, false);
        this.go(n.right, false);
        anc.pop();
        return;
      case "Program":
      case "BlockStatement":
      case "StaticBlock":
      case "ClassBody":
        this.all(n.body, false);
        anc.pop();
        return;
      case "ArrayExpression":
        this.all(n.elements, false);
        break;
      case "ReturnStatement":
      case "ThrowStatement":
      case "UnaryExpression":
      case "UpdateExpression":
      case "AwaitExpression":
      case "SpreadElement":
      case "YieldExpression":
        if (n.argument) this.go(n.argument, false);
        anc.pop();
        return;
      case "FunctionDeclaration":
      case "FunctionExpression":
        if (n.id) this.go(n.id, true);
        this.all(n.params, true);
        if (n.body) this.go(n.body, false);
        anc.pop();
        return;
      case "ArrowFunctionExpression":
        this.all(n.params, true);
        this.go(n.body, false);
        anc.pop();
        return;
      case "IfStatement":
      case "ConditionalExpression":
        this.go(n.test, false);
        this.go(n.consequent, false);
        if (n.alternate) this.go(n.alternate, false);
        anc.pop();
        return;
      case "TemplateLiteral":
        this.all(n.quasis, false);
        this.all(n.expressions, false);
        break;
      default:
        if (!this.statement(n, binding)) {
          anc.pop();
          return;
        }
    }
    this.visit(n, anc, binding);
    anc.pop();
  }

  /** Patterns and statements; whether the node is visited. */
  private statement(n: Cold, binding: boolean): boolean {
    switch (n.type) {
      case "ObjectPattern":
        this.all(n.properties, binding);
        return true;
      case "ArrayPattern":
        this.all(n.elements, binding);
        return false;
      case "RestElement":
        this.go(n.argument, binding);
        return false;
      case "AssignmentPattern":
        this.go(n.left, binding);
        if (n.right) this.go(n.right, false);
        return false;
      case "ForStatement":
        if (n.init) this.go(n.init, false);
        if (n.test) this.go(n.test, false);
        if (n.update) this.go(n.update, false);
        this.go(n.body, false);
        return false;
      case "ForInStatement":
      case "ForOfStatement":
        this.go(n.left, false);
        this.go(n.right, false);
        this.go(n.body, false);
        return false;
      case "WhileStatement":
      case "DoWhileStatement":
        this.go(n.test, false);
        this.go(n.body, false);
        return false;
      case "SwitchStatement":
        this.go(n.discriminant, false);
        this.all(n.cases, false);
        return false;
      case "SwitchCase":
        if (n.test) this.go(n.test, false);
        this.all(n.consequent, false);
        return false;
      case "TryStatement":
        this.go(n.block, false);
        if (n.handler) this.go(n.handler, false);
        if (n.finalizer) this.go(n.finalizer, false);
        return false;
      case "CatchClause":
        if (n.param) this.go(n.param, true);
        this.go(n.body, false);
        return false;
      case "SequenceExpression":
        this.all(n.expressions, false);
        return false;
      case "TaggedTemplateExpression":
        this.go(n.tag, false);
        this.go(n.quasi, false);
        return false;
      case "WithStatement":
        this.go(n.object, false);
        this.go(n.body, false);
        return false;
      case "LabeledStatement":
        this.go(n.body, false);
        return false;
      default:
        return this.declaration(n);
    }
  }

  /** Classes, modules and the leaves; whether the node is visited. */
  private declaration(n: Colder): boolean {
    switch (n.type) {
      case "ClassDeclaration":
      case "ClassExpression":
        if (n.id) this.go(n.id, true);
        if (n.superClass) this.go(n.superClass, false);
        this.go(n.body, false);
        return false;
      case "MethodDefinition":
      case "PropertyDefinition":
      case "AccessorProperty":
        if (n.computed && n.key) this.go(n.key, false);
        if (n.value) this.go(n.value, false);
        return false;
      case "ImportDeclaration":
        this.go(n.source, false);
        return true;
      case "ExportNamedDeclaration":
        if (n.declaration) this.go(n.declaration, false);
        if (n.source) this.go(n.source, false);
        return true;
      case "ExportDefaultDeclaration":
        this.go(n.declaration, false);
        return false;
      case "ExportAllDeclaration":
        this.go(n.source, false);
        return true;
      case "ImportExpression":
        this.go(n.source, false);
        if (n.options) this.go(n.options, false);
        return true;
      case "ThisExpression":
      case "Super":
      case "EmptyStatement":
      case "DebuggerStatement":
      case "BreakStatement":
      case "ContinueStatement":
      case "PrivateIdentifier":
      case "MetaProperty":
      case "ImportSpecifier":
      case "ImportDefaultSpecifier":
      case "ImportNamespaceSpecifier":
      case "ImportAttribute":
      case "ExportSpecifier":
      // Never produced with the check's options (no `jsx`, no `next`): nothing to visit.
      case "Decorator":
      case "JSXNamespacedName":
      case "JSXAttribute":
      case "JSXClosingElement":
      case "JSXClosingFragment":
      case "JSXElement":
      case "JSXEmptyExpression":
      case "JSXExpressionContainer":
      case "JSXFragment":
      case "JSXIdentifier":
      case "JSXOpeningElement":
      case "JSXOpeningFragment":
      case "JSXSpreadAttribute":
      case "JSXSpreadChild":
      case "JSXMemberExpression":
      case "JSXText":
        return false;
      default:
        n satisfies never;
        return true;
    }
  }
}

/** The expression under optional chaining, parentheses and `await`: what a call or a URL really is. */
export function unwrap(n: AnyNode): AnyNode {
  let x = n;
  for (;;) {
    if (x.type === "ChainExpression" || x.type === "ParenthesizedExpression") x = x.expression;
    else if (x.type === "AwaitExpression") x = x.argument;
    else return x;
  }
}
