// The sandbox's rule family (forbidden-api): storage, cookies, the frames around the dashboard,
// popups and navigation, each of which the sandboxed frame refuses. A use is settled at the end
// of the script, when every declaration is known: a local `top` or `parent` (a layout offset, a
// tree node) is not the frame's.
import { startOf, type AnyNode } from "../walk";
import { FRAME_REFS, rootName, type MemberExpression, type Script } from "./nodes";

const STORAGE = new Set(["localStorage", "sessionStorage", "indexedDB"]);

interface GlobalUse {
  dep: string;
  offset: number;
  message: string;
  hint: string;
}

export class SandboxRules {
  private readonly declared = new Set<string>();
  private readonly globalUses: GlobalUse[] = [];

  constructor(
    private readonly script: Script,
    declared: readonly string[],
  ) {
    for (const name of declared) this.declared.add(name);
  }

  /** A name the script binds: a use of it is the script's own, not the global one. */
  declare(name: string): void {
    this.declared.add(name);
  }

  /** A free identifier, not under `typeof`. */
  identifier(name: string, node: AnyNode, parent: AnyNode | undefined): void {
    if (STORAGE.has(name)) this.forbidStorage(name, name, startOf(node));
    else if (name === "top" || name === "opener" || (name === "parent" && parent?.type === "MemberExpression" && parent.object === node)) {
      this.forbidFrame(name, name, startOf(node));
    }
  }

  /** `document.cookie` */
  cookie(obj: AnyNode, node: MemberExpression): void {
    this.forbid(
      rootName(obj),
      startOf(node),
      "`document.cookie` is unavailable: the dashboard runs in a sandboxed frame with an opaque origin, where it throws a SecurityError.",
      "Remove it: the frame has no cookies, and requests through the API base already act as the signed-in viewer.",
    );
  }

  /** `window.<p>`, `self.<p>`, `globalThis.<p>`; `typeofCheck` when it is the operand of `typeof`. */
  globalMember(obj: AnyNode, p: string, node: MemberExpression, typeofCheck: boolean): void {
    const g = rootName(obj);
    if (STORAGE.has(p) && !typeofCheck) this.forbidStorage(g, `${g}.${p}`, startOf(node));
    else if (FRAME_REFS.has(p)) this.forbidFrame(g, `${g}.${p}`, startOf(node));
    else if (p === "open") this.forbidPopup(g, `${g}.open`, startOf(node));
  }

  private forbid(dep: string, pos: number, message: string, hint: string): void {
    this.globalUses.push({ dep, offset: this.script.at(pos), message, hint });
  }

  private forbidStorage(dep: string, what: string, pos: number): void {
    this.forbid(
      dep,
      pos,
      `\`${what}\` is unavailable: the dashboard runs in a sandboxed frame with an opaque origin, where storage access throws a SecurityError and stops the script.`,
      "Keep state in memory (a variable) or in location.hash; nothing persists between views of a dashboard.",
    );
  }

  private forbidFrame(dep: string, what: string, pos: number): void {
    this.forbid(
      dep,
      pos,
      `\`${what}\` reaches outside the dashboard frame; the sandbox isolates the dashboard from the page around it.`,
      "Remove it: a dashboard cannot read or drive the page around it. Data comes only through the API base, and links are plain <a href> elements.",
    );
  }

  forbidPopup(dep: string, what: string, pos: number): void {
    this.forbid(
      dep,
      pos,
      `\`${what}\` opens a window; the sandboxed dashboard frame blocks popups, and the page around it opens nothing a script asks for.`,
      "Write a link instead: <a href=\"…\" target=\"_blank\"> whose href is a URL from the data (`a.href = issue.url`) or a page of this site; the page opens it in a new tab when the viewer clicks it.",
    );
  }

  forbidNavigation(dep: string, what: string, pos: number): void {
    this.forbid(
      dep,
      pos,
      `\`${what}\` navigates the dashboard frame away; the sandbox blocks navigation.`,
      "Use plain <a href> links for the viewer to follow, and location.hash or in-page state to switch views inside the dashboard.",
    );
  }

  finish(): void {
    for (const use of this.globalUses) {
      if (!this.declared.has(use.dep)) this.script.ctx.report("forbidden-api", use.offset, use.message, use.hint);
    }
  }
}
