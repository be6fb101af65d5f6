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
  const anc: AnyNode[] = [];

  function all(nodes: readonly (AnyNode | null | undefined)[], binding: boolean): void {
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (n) go(n, binding);
    }
  }

  function go(n: AnyNode, binding: boolean): void {
    anc.push(n);
    switch (n.type) {
      case "Identifier":
      case "Literal":
      case "TemplateElement":
        break;
      case "Property":
        if (n.computed) go(n.key, false);
        // In an object pattern the value is a binding (or an assignment target) like the pattern.
        go(n.value, binding);
        anc.pop();
        return;
      case "MemberExpression":
        go(n.object, false);
        if (n.computed) go(n.property, false);
        break;
      case "ObjectExpression":
        all(n.properties, false);
        break;
      case "CallExpression":
      case "NewExpression":
        go(n.callee, false);
        all(n.arguments, false);
        break;
      case "ExpressionStatement":
      case "ChainExpression":
      case "ParenthesizedExpression":
        go(n.expression, false);
        anc.pop();
        return;
      case "VariableDeclaration":
        all(n.declarations, false);
        anc.pop();
        return;
      case "VariableDeclarator":
        go(n.id, true);
        if (n.init) go(n.init, false);
        anc.pop();
        return;
      case "BinaryExpression":
      case "AssignmentExpression":
        go(n.left, false);
        go(n.right, false);
        break;
      case "LogicalExpression":
        go(n.left, false);
        go(n.right, false);
        anc.pop();
        return;
      case "Program":
      case "BlockStatement":
      case "StaticBlock":
      case "ClassBody":
        all(n.body, false);
        anc.pop();
        return;
      case "ArrayExpression":
        all(n.elements, false);
        break;
      case "ReturnStatement":
      case "ThrowStatement":
      case "UnaryExpression":
      case "UpdateExpression":
      case "AwaitExpression":
      case "SpreadElement":
      case "YieldExpression":
        if (n.argument) go(n.argument, false);
        anc.pop();
        return;
      case "FunctionDeclaration":
      case "FunctionExpression":
        if (n.id) go(n.id, true);
        all(n.params, true);
        if (n.body) go(n.body, false);
        anc.pop();
        return;
      case "ArrowFunctionExpression":
        all(n.params, true);
        go(n.body, false);
        anc.pop();
        return;
      case "IfStatement":
      case "ConditionalExpression":
        go(n.test, false);
        go(n.consequent, false);
        if (n.alternate) go(n.alternate, false);
        anc.pop();
        return;
      case "TemplateLiteral":
        all(n.quasis, false);
        all(n.expressions, false);
        break;
      case "ObjectPattern":
        all(n.properties, binding);
        break;
      case "ArrayPattern":
        all(n.elements, binding);
        anc.pop();
        return;
      case "RestElement":
        go(n.argument, binding);
        anc.pop();
        return;
      case "AssignmentPattern":
        go(n.left, binding);
        if (n.right) go(n.right, false);
        anc.pop();
        return;
      case "ForStatement":
        if (n.init) go(n.init, false);
        if (n.test) go(n.test, false);
        if (n.update) go(n.update, false);
        go(n.body, false);
        anc.pop();
        return;
      case "ForInStatement":
      case "ForOfStatement":
        go(n.left, false);
        go(n.right, false);
        go(n.body, false);
        anc.pop();
        return;
      case "WhileStatement":
      case "DoWhileStatement":
        go(n.test, false);
        go(n.body, false);
        anc.pop();
        return;
      case "SwitchStatement":
        go(n.discriminant, false);
        all(n.cases, false);
        anc.pop();
        return;
      case "SwitchCase":
        if (n.test) go(n.test, false);
        all(n.consequent, false);
        anc.pop();
        return;
      case "TryStatement":
        go(n.block, false);
        if (n.handler) go(n.handler, false);
        if (n.finalizer) go(n.finalizer, false);
        anc.pop();
        return;
      case "CatchClause":
        if (n.param) go(n.param, true);
        go(n.body, false);
        anc.pop();
        return;
      case "SequenceExpression":
        all(n.expressions, false);
        anc.pop();
        return;
      case "TaggedTemplateExpression":
        go(n.tag, false);
        go(n.quasi, false);
        anc.pop();
        return;
      case "WithStatement":
        go(n.object, false);
        go(n.body, false);
        anc.pop();
        return;
      case "LabeledStatement":
        go(n.body, false);
        anc.pop();
        return;
      case "ClassDeclaration":
      case "ClassExpression":
        if (n.id) go(n.id, true);
        if (n.superClass) go(n.superClass, false);
        go(n.body, false);
        anc.pop();
        return;
      case "MethodDefinition":
      case "PropertyDefinition":
      case "AccessorProperty":
        if (n.computed && n.key) go(n.key, false);
        if (n.value) go(n.value, false);
        anc.pop();
        return;
      case "ImportDeclaration":
        go(n.source, false);
        break;
      case "ExportNamedDeclaration":
        if (n.declaration) go(n.declaration, false);
        if (n.source) go(n.source, false);
        break;
      case "ExportDefaultDeclaration":
        go(n.declaration, false);
        anc.pop();
        return;
      case "ExportAllDeclaration":
        go(n.source, false);
        break;
      case "ImportExpression":
        go(n.source, false);
        if (n.options) go(n.options, false);
        break;
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
        anc.pop();
        return;
      default:
        n satisfies never;
    }
    visit(n, anc, binding);
    anc.pop();
  }

  go(root, false);
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
