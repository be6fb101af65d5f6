// The responses' rule family: a body read (`res.json()`, `res.text()`) with no `res.ok` or
// `res.status` read, nor `res` handed to a checking helper, in any function around it treats an
// error answer as data. Found in the walk, settled at the end of the script.
import { startOf, unwrap, type AnyNode } from "../walk";
import { calleeName, isFunction, type CallExpression, type Scope, type Script } from "./nodes";

/** Helpers that take a response to check it: `ensureOk(res)`, `checkStatus(res)`, `assertOk(res)`. */
const CHECKER = /^ok|Ok|OK|[cC]heck|[aA]ssert|[eE]nsure|[gG]uard|[vV]alid|[eE]xpect|[tT]hrow|[hH]andle|[fF]ail/;

interface JsonRead {
  name: string | null;
  scopes: Scope[];
  offset: number;
  text: string;
}

export class ResponseRules {
  private readonly jsonReads: JsonRead[] = [];
  private readonly checks = new Map<string, Set<Scope>>();

  constructor(private readonly script: Script) {}

  private scopes(anc: AnyNode[]): Scope[] {
    const out: Scope[] = [];
    for (const a of anc) if (a.type === "Program" || isFunction(a)) out.push(a);
    return out;
  }

  private innermostScope(anc: AnyNode[]): Scope | undefined {
    for (let i = anc.length - 1; i >= 0; i--) {
      const a = anc[i];
      if (a && (a.type === "Program" || isFunction(a))) return a;
    }
    return undefined;
  }

  /** `name.ok` or `name.status` was read (or `name` handed to a checking helper) in this scope. */
  checked(name: string, anc: AnyNode[]): void {
    const scope = this.innermostScope(anc);
    if (!scope) return;
    let set = this.checks.get(name);
    if (!set) this.checks.set(name, (set = new Set()));
    set.add(scope);
  }

  /** A call named `name` with these arguments: a checking helper checks the names handed to it. */
  call(name: string, args: CallExpression["arguments"], anc: AnyNode[]): void {
    for (const a of args) {
      if (a.type === "Identifier" && CHECKER.test(name)) this.checked(a.name, anc);
    }
  }

  /** `obj.json()` or `obj.text()` */
  bodyRead(node: CallExpression, name: string, obj: AnyNode, anc: AnyNode[]): void {
    const recv = unwrap(obj);
    let receiver: string | null;
    if (recv.type === "Identifier") {
      // `$el.text()` is a jQuery element, not a response.
      if (recv.name.startsWith("$")) return;
      receiver = recv.name;
    } else if (recv.type === "CallExpression" && calleeName(recv) === "fetch") {
      receiver = null;
    } else return;
    this.jsonReads.push({ name: receiver, scopes: this.scopes(anc), offset: this.script.at(startOf(node)), text: `${receiver ?? "fetch(…)"}.${name}()` });
  }

  finish(): void {
    for (const r of this.jsonReads) {
      if (r.name !== null) {
        const checkedIn = this.checks.get(r.name);
        if (checkedIn && r.scopes.some((s) => checkedIn.has(s))) continue;
      }
      const who = r.name ?? "res";
      this.script.ctx.facts.uncheckedReads.push({
        offset: r.offset,
        message: `\`${r.text}\` reads the response body without checking \`${who}.ok\` or \`${who}.status\` in the same function, so an error answer (401, 403, 500, 503) is treated as data.`,
      });
    }
  }
}
