// One walk over a parsed script: each node is handed to the rule family that judges it (the
// sandbox's, the requests', the responses', ARR sums), and the facts only the whole document can
// settle are recorded on the way. Which family a call or an assignment belongs to is decided
// here, in one chain, so that each is judged once.
import type { ESTree } from "meriyah";
import { TRACKED_NAMES, type Context } from "../context";
import { SNAPSHOT_HELPER } from "@/lib/frame/snapshot";
import { checkText } from "../text";
import { startOf, unwrap, walk, type AnyNode } from "../walk";
import { ArrRules } from "./arr";
import {
  Script,
  calleeName,
  calleeObject,
  isDocument,
  isFrameRef,
  isGlobalObject,
  isLocation,
  keyName,
  propName,
  rootName,
  type CallExpression,
  type MemberExpression,
} from "./nodes";
import { RequestRules } from "./requests";
import { ResponseRules } from "./responses";
import { SandboxRules } from "./sandbox";

const NAVIGATING_PROPS = new Set(["href", "pathname", "search", "host", "hostname", "protocol", "port", "origin"]);

export class ScriptPass {
  private readonly script: Script;
  private readonly sandbox: SandboxRules;
  private readonly requests: RequestRules;
  private readonly responses: ResponseRules;
  private readonly arr: ArrRules;

  constructor(
    private readonly ctx: Context,
    code: string,
    private readonly at: (pos: number) => number,
    declared: readonly string[],
  ) {
    this.script = new Script(ctx, code, at);
    this.sandbox = new SandboxRules(this.script, declared);
    this.requests = new RequestRules(this.script);
    this.responses = new ResponseRules(this.script);
    this.arr = new ArrRules(this.script);
  }

  run(program: ESTree.Program): void {
    walk(program, (node, ancestors, binding) => this.visit(node, ancestors, binding));
    this.sandbox.finish();
    this.requests.finish();
    this.responses.finish();
  }

  private visit(node: AnyNode, anc: AnyNode[], binding: boolean): void {
    switch (node.type) {
      case "Identifier":
        if (binding) {
          this.sandbox.declare(node.name);
          if (TRACKED_NAMES.has(node.name)) this.ctx.facts.names.add(node.name);
        } else this.identifier(node.name, node, anc);
        return;
      case "Literal":
        if (typeof node.value === "string") {
          if (TRACKED_NAMES.has(node.value)) this.ctx.facts.names.add(node.value);
          checkText(this.ctx, node.value, this.at(startOf(node) + 1));
          this.requests.stringExpression(node, anc);
        }
        return;
      case "TemplateElement":
        checkText(this.ctx, node.value.cooked ?? node.value.raw, this.at(startOf(node)));
        return;
      case "TemplateLiteral":
        this.requests.stringExpression(node, anc);
        return;
      case "BinaryExpression":
        if (node.operator === "+") {
          this.requests.stringExpression(node, anc);
          this.arr.arrSum(node, node.left, node.right, anc);
        }
        return;
      case "MemberExpression":
        this.member(node, anc);
        return;
      case "CallExpression":
        this.call(node, anc);
        return;
      case "NewExpression":
        this.requests.newExpression(node, calleeName(node));
        return;
      case "AssignmentExpression":
        this.assignment(node, anc);
        return;
      case "ObjectExpression":
        this.requests.objectExpression(node, anc);
        return;
      case "ObjectPattern":
        this.objectPattern(node, anc);
        return;
      case "ArrayExpression":
        if (this.ctx.facts.snapshotAt === null) {
          let objects = 0;
          for (const e of node.elements) if (e?.type === "ObjectExpression" && ++objects >= 5) break;
          if (objects >= 5) this.ctx.facts.snapshotAt = this.at(startOf(node));
        }
        return;
      case "ImportDeclaration":
        for (const s of node.specifiers) this.sandbox.declare(s.local.name);
        this.requests.moduleLoad(node.source);
        return;
      case "ExportNamedDeclaration":
      case "ExportAllDeclaration":
        if (node.source) this.requests.moduleLoad(node.source);
        return;
      case "ImportExpression":
        this.requests.moduleLoad(node.source);
        return;
      default:
        return;
    }
  }

  private snapshotHelper(node: AnyNode): void {
    if (this.ctx.facts.snapshotHelperAt === null) this.ctx.facts.snapshotHelperAt = this.at(startOf(node));
  }

  private identifier(name: string, node: AnyNode, anc: AnyNode[]): void {
    if (TRACKED_NAMES.has(name)) this.ctx.facts.names.add(name);
    if (name === SNAPSHOT_HELPER) this.snapshotHelper(node);
    if (name === "DASHBOARD_API_BASE") return;
    const parent = anc[anc.length - 2];
    if (parent?.type === "UnaryExpression" && parent.operator === "typeof") return;
    this.sandbox.identifier(name, node, parent);
  }

  private member(node: MemberExpression, anc: AnyNode[]): void {
    const p = propName(node);
    if (p === null) return;
    if (TRACKED_NAMES.has(p)) this.ctx.facts.names.add(p);
    if (p === SNAPSHOT_HELPER) this.snapshotHelper(node.property);
    const obj = node.object;
    if (obj.type === "Super") return;
    if (p === "cookie" && isDocument(obj)) {
      this.sandbox.cookie(obj, node);
    } else if (isGlobalObject(obj)) {
      const parent = anc[anc.length - 2];
      this.sandbox.globalMember(obj, p, node, parent?.type === "UnaryExpression" && parent.operator === "typeof");
    } else if ((p === "score" || p === "percentile") && this.isPriority(obj)) {
      this.ctx.facts.priorityNumberReads.push(this.at(startOf(node)));
    } else if ((p === "ok" || p === "status") && obj.type === "Identifier") {
      this.responses.checked(obj.name, anc);
    }
  }

  private isPriority(n: AnyNode): boolean {
    const x = unwrap(n);
    return (x.type === "MemberExpression" && propName(x) === "priority") || (x.type === "Identifier" && x.name === "priority");
  }

  private call(node: CallExpression, anc: AnyNode[]): void {
    const name = calleeName(node);
    if (name === null) return;
    const obj = calleeObject(node);
    const args = node.arguments;
    const arg0 = args[0];
    const lit0 = arg0?.type === "Literal" && typeof arg0.value === "string" ? arg0.value : null;

    if (name === "fetch" && (obj === null || isGlobalObject(obj))) {
      this.requests.fetch(args);
    } else if (name === "open" && obj === null) {
      this.sandbox.forbidPopup("open", "open()", startOf(node));
    } else if (name === "open" && obj && !isGlobalObject(obj) && !isDocument(obj) && args.length >= 2 && lit0 !== null) {
      this.requests.xhrOpen(node, lit0.toUpperCase());
    } else if ((name === "assign" || name === "replace") && obj && isLocation(obj)) {
      this.sandbox.forbidNavigation(rootName(obj), `${this.script.src(obj)}.${name}()`, startOf(node));
    } else if (name === "sendBeacon") {
      this.requests.sendBeacon(node);
    } else if (this.requests.isLibrary(obj)) {
      this.requests.libraryCall(node, obj.name, name);
    } else if ((name === "json" || name === "text") && args.length === 0 && obj) {
      this.responses.bodyRead(node, name, obj, anc);
    } else if ((name === "set" || name === "append" || name === "get" || name === "has") && lit0 !== null && obj) {
      this.requests.searchParam(node, name, lit0, obj);
    } else if (name === "setAttribute" && (lit0 === "href" || lit0 === "xlink:href") && args[1]) {
      this.requests.linkAssignment(args[1], `setAttribute("${lit0}", …)`);
    } else if (name === "setAttribute" && (lit0 === "src" || lit0 === "srcset") && args[1]) {
      this.requests.srcAssignment(args[1], `setAttribute("${lit0}", …)`);
    } else if (name === "reduce" || name === "reduceRight") {
      this.arr.reduceOverMappedArr(node, obj);
    } else if (name === "sum" || name === "sumBy" || name === "fsum") {
      this.arr.sumCall(node);
    }

    this.responses.call(name, args, anc);
  }

  private assignment(node: Extract<AnyNode, { type: "AssignmentExpression" }>, anc: AnyNode[]): void {
    const left = node.left;
    if (node.operator === "+=") {
      this.arr.arrSum(node, node.right, null, anc);
      return;
    }
    if (node.operator !== "=") return;
    if (left.type === "Identifier") {
      if (left.name === "location") this.sandbox.forbidNavigation("location", "location = …", startOf(node));
      if (left.name === "DASHBOARD_API_BASE") this.requests.apiBaseAssignment(node);
      return;
    }
    if (left.type !== "MemberExpression") return;
    const p = propName(left);
    const obj = left.object;
    if (obj.type === "Super" || p === null) return;
    if (p === "location" && (isGlobalObject(obj) || isDocument(obj) || isFrameRef(obj))) {
      this.sandbox.forbidNavigation(rootName(obj), `${this.script.src(left)} = …`, startOf(node));
    } else if (NAVIGATING_PROPS.has(p) && isLocation(obj)) {
      this.sandbox.forbidNavigation(rootName(obj), `${this.script.src(left)} = …`, startOf(node));
    } else if (p === "src" || p === "srcset") {
      this.requests.srcAssignment(node.right, `.${p} = `);
    } else if (p === "href") {
      this.requests.linkAssignment(node.right, ".href =");
    } else if (p === "DASHBOARD_API_BASE") {
      this.requests.apiBaseAssignment(node);
    }
  }

  private objectPattern(node: Extract<AnyNode, { type: "ObjectPattern" }>, anc: AnyNode[]): void {
    const keys: string[] = [];
    for (const p of node.properties) {
      if (p.type !== "Property") continue;
      const k = keyName(p.key, p.computed);
      if (k === null) continue;
      keys.push(k);
      if (TRACKED_NAMES.has(k)) this.ctx.facts.names.add(k);
    }
    const parent = anc[anc.length - 2];
    if (parent?.type !== "VariableDeclarator" || parent.id !== node || !parent.init) return;
    const init = unwrap(parent.init);
    if (init.type === "Identifier" && (keys.includes("ok") || keys.includes("status"))) this.responses.checked(init.name, anc);
    if (this.isPriority(init) && (keys.includes("score") || keys.includes("percentile"))) {
      this.ctx.facts.priorityNumberReads.push(this.at(startOf(node)));
    }
  }
}
