import { isParseError, parseModule, parseScript, type ESTree, type Options, type ParseError } from "meriyah";
import { clip, TRACKED_NAMES, type Context } from "./context";
import { checkCss, reportBlockedResource, reportDeadLink, reportScenario, scanHtml, type ScriptKind } from "./html";
import { checkText } from "./text";
import { checkWebRtc } from "./webrtc";
import { collectParamReads } from "./params";
import { SNAPSHOT_HELPER } from "@/lib/frame/snapshot";
import { leadingDataDeclaration, type DataDeclaration } from "./data";
import { endOf, startOf, walk, type AnyNode, unwrap } from "./walk";
import {
  ACTIVITY_BASIS,
  HOLE,
  SCENARIO_PARAM,
  classifyApiUrl,
  isAbsoluteUrl,
  isBlockedResource,
  isForeignLink,
  pagedEndpoint,
  readsCx,
  type ApiUrlKind,
} from "./urls";

// The JavaScript pass: meriyah parses each inline script (and event-handler attribute) and one
// walk over the tree records what the rules need. Positions are offsets into the script, moved
// to the document by `at`.

type CallExpression = ESTree.CallExpression;
type MemberExpression = ESTree.MemberExpression;
type NewExpression = ESTree.NewExpression;
type Program = ESTree.Program;
type FunctionNode = Extract<AnyNode, { type: "FunctionDeclaration" | "FunctionExpression" | "ArrowFunctionExpression" }>;
type Scope = FunctionNode | Program;

const GLOBAL_OBJECTS = new Set(["window", "self", "globalThis", "frames"]);
const STORAGE = new Set(["localStorage", "sessionStorage", "indexedDB"]);
const FRAME_REFS = new Set(["top", "parent", "opener"]);
const NAVIGATING_PROPS = new Set(["href", "pathname", "search", "host", "hostname", "protocol", "port", "origin"]);
const NON_GET = new Set(["POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "CONNECT", "TRACE"]);
const REQUEST_INIT_KEYS = new Set(["body", "headers", "credentials", "mode", "cache", "redirect", "keepalive", "signal", "referrerPolicy"]);
const LIBRARIES = new Set(["axios", "$", "jQuery", "ky", "superagent"]);
const LOOP_CALLBACKS = new Set(["forEach", "map", "flatMap", "each", "filter", "some", "every"]);
/** Helpers that take a response to check it: `ensureOk(res)`, `checkStatus(res)`, `assertOk(res)`. */
const CHECKER = /^ok|Ok|OK|[cC]heck|[aA]ssert|[eE]nsure|[gG]uard|[vV]alid|[eE]xpect|[tT]hrow|[hH]andle|[fF]ail/;
const URLISH = /[/=<(]/;
const DISTRICT = /district/i;

const API_HINT =
  'Build every URL on the API base: `const API = window.DASHBOARD_API_BASE || "/api";` then `fetch(API + "/cx/owners")`. The playground sets DASHBOARD_API_BASE to /dashboards/playground/api and the saved page serves the API at /api. To tell demo data from live, read `window.DASHBOARD_DATA_MODE` ("demo" or "live") rather than comparing URLs.';

const SYNTAX_HINT =
  "Fix the code at this line and column (check brackets, quotes and commas just before it). Until it parses, nothing in it runs and no other rule can look inside it.";

function isFunction(n: AnyNode): n is FunctionNode {
  return n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression";
}

function propName(m: MemberExpression): string | null {
  if (!m.computed && m.property.type === "Identifier") return m.property.name;
  if (m.computed && m.property.type === "Literal" && typeof m.property.value === "string") return m.property.value;
  return null;
}

function keyName(key: AnyNode, computed: boolean): string | null {
  if (!computed && key.type === "Identifier") return key.name;
  if (key.type === "Literal" && typeof key.value === "string") return key.value;
  return null;
}


function calleeName(call: CallExpression | NewExpression): string | null {
  const c = unwrap(call.callee);
  if (c.type === "Identifier") return c.name;
  if (c.type === "MemberExpression") return propName(c);
  return null;
}

function calleeObject(call: CallExpression | NewExpression): AnyNode | null {
  const c = unwrap(call.callee);
  return c.type === "MemberExpression" ? c.object : null;
}

function isGlobalObject(n: AnyNode): boolean {
  return n.type === "Identifier" && GLOBAL_OBJECTS.has(n.name);
}

/** `document` or `window.document`. */
function isDocument(n: AnyNode): boolean {
  if (n.type === "Identifier") return n.name === "document";
  return n.type === "MemberExpression" && propName(n) === "document" && isGlobalObject(n.object);
}

/** `top`, `parent`, `opener`, or the same on `window`. */
function isFrameRef(n: AnyNode): boolean {
  if (n.type === "Identifier") return FRAME_REFS.has(n.name);
  return n.type === "MemberExpression" && FRAME_REFS.has(propName(n) ?? "") && isGlobalObject(n.object);
}

/** `location`, `window.location`, `document.location`, `top.location`. */
function isLocation(n: AnyNode): boolean {
  if (n.type === "Identifier") return n.name === "location";
  return n.type === "MemberExpression" && propName(n) === "location" && (isGlobalObject(n.object) || isDocument(n.object) || isFrameRef(n.object));
}

/** The identifier an expression hangs from (`window` for `window.top.location`). */
function rootName(n: AnyNode): string {
  let x = n;
  while (x.type === "MemberExpression") x = x.object;
  return x.type === "Identifier" ? x.name : "";
}

/**
 * The string an expression evaluates to, with each unknown piece a HOLE, or null when it has no
 * string literal in it: `API + "/crm/" + id + "/companies"` → "\0/crm/\0/companies".
 */
function shapeOf(n: AnyNode): string | null {
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

function isPlus(n: AnyNode | undefined): boolean {
  return n !== undefined && n.type === "BinaryExpression" && n.operator === "+";
}

interface SyntaxProblem {
  pos: number;
  message: string;
}

/** A program, or why there is none: a syntax problem, or null for nesting too deep to check. */
type Attempt = { program: Program } | { program: null; problem: SyntaxProblem | null };

type Goal = "script" | "module" | "handler";

// `ranges` without the `range` array: start and end offsets are all the walk needs. `webcompat`
// for Annex B (HTML-like comments, legacy octals), which browsers apply to classic scripts, and
// `lexical` for the early errors of redeclared names and undeclared private names, which they
// report. No `next`: it enables decorators and import phases, which browsers don't run.
export const PARSE_OPTIONS: Options = { ranges: { start: true, end: true, range: false }, webcompat: true, lexical: true };
// An event-handler attribute is the body of a function: `return` is allowed.
const HANDLER_OPTIONS: Options = { ...PARSE_OPTIONS, globalReturn: true };

function parseAs(code: string, goal: Goal, extra?: Options): Program {
  const base = goal === "handler" ? HANDLER_OPTIONS : PARSE_OPTIONS;
  const options = extra ? { ...base, ...extra } : base;
  return goal === "module" ? parseModule(code, options) : parseScript(code, options);
}

function attempt(code: string, goal: Goal): Attempt {
  try {
    return { program: parseAs(code, goal) };
  } catch (e) {
    // meriyah runs out of stack on nesting some thousands of levels deep, where a browser's
    // parser may not: that script is not checked, and not called broken either.
    if (e instanceof RangeError) return { program: null, problem: null };
    if (!isParseError(e)) throw e;
    if (code[e.start] === "/") return regexFailure(code, goal, e);
    return { program: null, problem: located(code, goal, e) };
  }
}

function located(code: string, goal: Goal, e: ParseError): SyntaxProblem {
  return { pos: e.end === code.length && failsAtEnd(code, goal) ? code.length : e.start, message: e.description };
}

/**
 * Whether the parse fails on reaching the end of the code ("unexpected end of input"). meriyah
 * then reports where the last token or space began, not the end. With a line break (ending any
 * trailing line comment) and a character no token can start with appended, such a failure moves
 * past the end while any other stays where it was.
 */
function failsAtEnd(code: string, goal: Goal): boolean {
  try {
    parseAs(`${code}\n\u0000`, goal, { validateRegex: false });
    return false;
  } catch (e) {
    return isParseError(e) && e.start >= code.length;
  }
}

// meriyah validates a regular expression literal with the RegExp of the engine it runs in, and
// reports any refusal as "Unterminated regular expression" at the literal. A literal that is
// terminated gets the engine's own message, at its pattern. An engine older than the browsers
// (Node 20 on the server) refuses ES2025 syntax that they accept: a pattern using it is not
// called broken, and the rest of that script is parsed without checking its patterns.
const REGEX_MODIFIERS = /\(\?(?:[ims]+(?:-[ims]*)?|-[ims]+):/;
const NAMED_GROUP = /\(\?<([^=!>][^>]*)>/g;

function regexFailure(code: string, goal: Goal, e: ParseError): Attempt {
  const literal = regexLiteralAt(code, e.start);
  if (literal !== null) {
    let refusal: string | null = null;
    try {
      new RegExp(literal.pattern, literal.flags);
    } catch (err) {
      refusal = err instanceof Error ? err.message : String(err);
    }
    if (refusal !== null && !usesNewRegexSyntax(literal.pattern)) return { program: null, problem: { pos: e.start + 1, message: refusal } };
  }
  try {
    return { program: parseAs(code, goal, { validateRegex: false }) };
  } catch (err) {
    if (err instanceof RangeError) return { program: null, problem: null };
    if (!isParseError(err)) throw err;
    return { program: null, problem: located(code, goal, err) };
  }
}

/** The pattern and flags of the regular expression literal at `start`, or null when it is unterminated. */
function regexLiteralAt(code: string, start: number): { pattern: string; flags: string } | null {
  let inClass = false;
  let i = start + 1;
  for (; i < code.length; i++) {
    const c = code[i];
    if (c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029") return null;
    if (c === "\\") {
      const next = code[++i];
      if (next === undefined || next === "\n" || next === "\r" || next === "\u2028" || next === "\u2029") return null;
    } else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) break;
  }
  if (i >= code.length) return null;
  const flags = /^[\p{ID_Continue}$\u200c\u200d]*/u.exec(code.slice(i + 1, i + 33))?.[0] ?? "";
  return { pattern: code.slice(start + 1, i), flags };
}

function usesNewRegexSyntax(pattern: string): boolean {
  if (REGEX_MODIFIERS.test(pattern)) return true;
  const names = new Set<string>();
  for (const m of pattern.matchAll(NAMED_GROUP)) {
    const name = m[1] ?? "";
    if (names.has(name)) return true;
    names.add(name);
  }
  return false;
}

type Parsed = { program: Program; moduleSyntax: SyntaxProblem | null } | { program: null; problem: SyntaxProblem | null };

function parseCode(code: string, kind: ScriptKind): Parsed {
  const first = attempt(code, kind === "classic" ? "script" : kind);
  if (first.program) return { program: first.program, moduleSyntax: null };
  if (kind === "classic" && first.problem) {
    // What fails as a classic script but parses as a module is module syntax in a classic
    // <script>, which the browser refuses as a whole: say so rather than "unexpected token".
    const asModule = attempt(code, "module");
    if (asModule.program) return { program: asModule.program, moduleSyntax: { ...first.problem, pos: moduleSyntaxAt(asModule.program, first.problem.pos) } };
  }
  return { program: null, problem: first.problem };
}

/** The `import` or `export` statement a classic parse failed in, else where it failed. */
function moduleSyntaxAt(program: Program, pos: number): number {
  const s = program.body.find((n) => startOf(n) <= pos && pos < endOf(n));
  return s && (s.type === "ImportDeclaration" || s.type.startsWith("Export")) ? startOf(s) : pos;
}

// Generated markup repeats the same handler (`onclick="toggle(this)"`) on every row, and
// sometimes the same small script per widget. Each such text is parsed once per document; and
// once a pass over it has found nothing that depends on where it stands, its other copies are
// skipped: they would find the same nothing. Longer scripts are not kept: a copy of one is rare,
// and their trees would stay in memory for the whole check.
const MEMO_MAX_LENGTH = 16 * 1024;

interface Memo {
  parsed: Parsed | null;
  clean: boolean;
}
const memos = new WeakMap<Context, Map<string, Memo>>();

function memoOf(ctx: Context, kind: ScriptKind, code: string): Memo | null {
  if (code.length > MEMO_MAX_LENGTH) return null;
  let byText = memos.get(ctx);
  if (!byText) memos.set(ctx, (byText = new Map()));
  // The kind leads the key: the same text can be a handler, a classic script and a module.
  const key = kind[0] + code;
  let memo = byText.get(key);
  if (!memo) byText.set(key, (memo = { parsed: null, clean: false }));
  return memo;
}

function usableProgram(ctx: Context, parsed: Parsed, kind: ScriptKind, at: (pos: number) => number): Program | null {
  if (parsed.program === null) {
    if (parsed.problem === null) return null;
    const what = kind === "handler" ? "This event-handler attribute" : "This script";
    ctx.report("js-syntax", at(parsed.problem.pos), `${what} does not parse: ${parsed.problem.message}. None of it runs.`, SYNTAX_HINT);
    return null;
  }
  if (parsed.moduleSyntax) {
    ctx.report(
      "js-syntax",
      at(parsed.moduleSyntax.pos),
      `This <script> uses module syntax (import, export or top-level await) without type="module", so the browser refuses all of it (${parsed.moduleSyntax.message}).`,
      'Add type="module" to the <script> element, or remove the import/export and wrap top-level await in an async function.',
    );
  }
  return parsed.program;
}

/** What a string in code says as a URL, a query string, markup or CSS. */
function checkStringShape(ctx: Context, shape: string, offset: number, besideApiBase: () => boolean): void {
  const kind = classifyApiUrl(shape);
  if (kind !== null && kind !== "bare-path" && !(kind === "base-only" && besideApiBase())) {
    ctx.report("hardcoded-api-base", offset, apiUrlMessage(kind, `"${clip(shape)}"`), API_HINT);
  }
  if (SCENARIO_PARAM.test(shape)) reportScenario(ctx, offset, shape);
  if (ACTIVITY_BASIS.test(shape)) ctx.facts.activityUses.push(offset);
  if (readsCx(shape)) ctx.facts.cxReads.push(offset);
  const paged = pagedEndpoint(shape);
  if (paged) ctx.facts.pagedReads.push({ path: paged, offset });
  if (shape.includes("<") && /\b(?:src|srcset|href|poster|data)\s*=|url\(|@import/i.test(shape)) scanHtml(ctx, shape, null, offset, false);
  else if (/url\(|@import/i.test(shape)) checkCss(ctx, shape, offset, false);
}

function apiUrlMessage(kind: Exclude<ApiUrlKind, "bare-path">, quoted: string): string {
  switch (kind) {
    case "base-only":
      return `${quoted} hard-codes the API base without reading window.DASHBOARD_API_BASE; in the playground the API is at /dashboards/playground/api, so requests built on it fail there.`;
    case "api":
      return `${quoted} hard-codes the API base "/api"; in the playground the API is at /dashboards/playground/api, so this request fails there.`;
    case "playground":
      return `${quoted} hard-codes the playground's API base; once the dashboard is saved the API is at /api, so this request fails there.`;
    case "absolute":
      return `${quoted} is an absolute URL to the API; the frame reaches the API only through paths under the API base and refuses absolute URLs.`;
  }
}

function reportNonGet(ctx: Context, offset: number, what: string, method: string): void {
  ctx.report(
    "non-get-request",
    offset,
    `${what} sends a ${method} request; the data broker answers GET only, so it is refused.`,
    "Read data with GET only (fetch without a method, or method: \"GET\"); a dashboard cannot write anything.",
  );
}

/**
 * A data declaration read by the JSON scanner: the same findings, at the same offsets, that the
 * walk would produce for its literal.
 */
function checkData(ctx: Context, code: string, d: DataDeclaration, at: (pos: number) => number): void {
  const facts = ctx.facts;
  const ev = d.events;
  if (TRACKED_NAMES.has(d.name)) facts.names.add(d.name);
  ctx.reads.resolver.addDataDeclaration(d.name, code.slice(d.start, d.rest));
  for (const k of ev.keys) if (TRACKED_NAMES.has(k)) facts.names.add(k);
  let statement: string | null = null;
  const besideApiBase = () => (statement ??= code.slice(d.start, d.rest)).includes("DASHBOARD_API_BASE");
  for (const s of ev.strings) {
    if (TRACKED_NAMES.has(s.value)) facts.names.add(s.value);
    checkText(ctx, s.value, at(s.start + 1));
    if (URLISH.test(s.value)) checkStringShape(ctx, s.value, at(s.start), besideApiBase);
  }
  for (const o of ev.objects) {
    let method: { value: string; pos: number } | null = null;
    let requestInit = false;
    for (const p of o.pairs) {
      const lit = p.value;
      if ((p.key === "method" || p.key === "type") && lit !== null && NON_GET.has(lit.toUpperCase())) method = { value: lit.toUpperCase(), pos: p.keyStart };
      else if (p.key === "basis" && lit === "activity") facts.activityUses.push(at(p.keyStart));
      else if (REQUEST_INIT_KEYS.has(p.key)) requestInit = true;
    }
    if (method && requestInit) reportNonGet(ctx, at(method.pos), `{ method: "${method.value}" }`, method.value);
  }
  const records = ev.recordArrays[0];
  if (records !== undefined && facts.snapshotAt === null) facts.snapshotAt = at(records);
}

interface JsonRead {
  name: string | null;
  scopes: Scope[];
  offset: number;
  text: string;
}

interface GlobalUse {
  dep: string;
  offset: number;
  message: string;
  hint: string;
}

export function analyseScript(ctx: Context, code: string, base: number, kind: ScriptKind, exact: boolean, dataFastPath = true): void {
  // Without the fast path the same text is read differently: never from, or into, the memo.
  const memo = dataFastPath ? memoOf(ctx, kind, code) : null;
  if (memo?.clean) return;
  const before = ctx.footprint();
  const at = exact ? (pos: number) => base + pos : () => base;
  let from = 0;
  const declared: string[] = [];
  if (dataFastPath && kind !== "handler") {
    for (let d = leadingDataDeclaration(code, from); d; d = leadingDataDeclaration(code, from)) {
      checkData(ctx, code, d, at);
      declared.push(d.name);
      from = d.rest;
    }
  }
  if (from === 0 || code.slice(from).trim() !== "") {
    const rest = from === 0 ? code : code.slice(from);
    const restAt = exact ? (pos: number) => base + from + pos : () => base;
    const parsed = memo?.parsed ?? parseCode(rest, kind);
    if (memo) memo.parsed = parsed;
    runPass(ctx, rest, parsed, kind, restAt, declared);
  }
  if (memo) memo.clean = ctx.footprint() === before;
}

function runPass(ctx: Context, code: string, parsed: Parsed, kind: ScriptKind, at: (pos: number) => number, declared: readonly string[]): void {
  const program = usableProgram(ctx, parsed, kind, at);
  if (!program) return;
  try {
    ctx.reads.resolver.addProgram(program, kind === "classic");
    new ScriptPass(ctx, code, at, declared).run(program);
    checkWebRtc(ctx, program, at);
    collectParamReads(ctx, code, program);
  } catch (e) {
    // The same depth limit, met by the walk instead of the parser.
    if (!(e instanceof RangeError)) throw e;
  }
}

class ScriptPass {
  private readonly declared = new Set<string>();
  private readonly globalUses: GlobalUse[] = [];
  private readonly jsonReads: JsonRead[] = [];
  private readonly checks = new Map<string, Set<Scope>>();
  private readonly methodVars = new Map<string, { offset: number; method: string }>();
  private readonly initVars: { name: string; what: string }[] = [];
  private readonly arrContexts = new Set<AnyNode>();

  constructor(
    private readonly ctx: Context,
    private readonly code: string,
    private readonly at: (pos: number) => number,
    declared: readonly string[],
  ) {
    for (const name of declared) this.declared.add(name);
  }

  run(program: Program): void {
    walk(program, (node, ancestors, binding) => this.visit(node, ancestors, binding));
    this.finish();
  }

  private src(n: AnyNode): string {
    return this.code.slice(startOf(n), endOf(n));
  }

  private visit(node: AnyNode, anc: AnyNode[], binding: boolean): void {
    switch (node.type) {
      case "Identifier":
        if (binding) {
          this.declared.add(node.name);
          if (TRACKED_NAMES.has(node.name)) this.ctx.facts.names.add(node.name);
        } else this.identifier(node.name, node, anc);
        return;
      case "Literal":
        if (typeof node.value === "string") {
          if (TRACKED_NAMES.has(node.value)) this.ctx.facts.names.add(node.value);
          checkText(this.ctx, node.value, this.at(startOf(node) + 1));
          this.stringExpression(node, anc);
        }
        return;
      case "TemplateElement":
        checkText(this.ctx, node.value.cooked ?? node.value.raw, this.at(startOf(node)));
        return;
      case "TemplateLiteral":
        this.stringExpression(node, anc);
        return;
      case "BinaryExpression":
        if (node.operator === "+") {
          this.stringExpression(node, anc);
          this.arrSum(node, node.left, node.right, anc);
        }
        return;
      case "MemberExpression":
        this.member(node, anc);
        return;
      case "CallExpression":
        this.call(node, anc);
        return;
      case "NewExpression":
        this.newExpression(node);
        return;
      case "AssignmentExpression":
        this.assignment(node, anc);
        return;
      case "ObjectExpression":
        this.objectExpression(node, anc);
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
        for (const s of node.specifiers) this.declared.add(s.local.name);
        this.moduleLoad(node.source);
        return;
      case "ExportNamedDeclaration":
      case "ExportAllDeclaration":
        if (node.source) this.moduleLoad(node.source);
        return;
      case "ImportExpression":
        this.moduleLoad(node.source);
        return;
      default:
        return;
    }
  }

  private snapshotHelper(node: AnyNode): void {
    if (this.ctx.facts.snapshotHelperAt === null) this.ctx.facts.snapshotHelperAt = this.at(startOf(node));
  }

  // ── Names and globals ──────────────────────────────────────────────────────────────────
  private identifier(name: string, node: AnyNode, anc: AnyNode[]): void {
    if (TRACKED_NAMES.has(name)) this.ctx.facts.names.add(name);
    if (name === SNAPSHOT_HELPER) this.snapshotHelper(node);
    if (name === "DASHBOARD_API_BASE") return;
    const parent = anc[anc.length - 2];
    if (parent?.type === "UnaryExpression" && parent.operator === "typeof") return;
    if (STORAGE.has(name)) this.forbidStorage(name, name, startOf(node));
    else if (name === "top" || name === "opener" || (name === "parent" && parent?.type === "MemberExpression" && parent.object === node)) {
      this.forbidFrame(name, name, startOf(node));
    }
  }

  private forbid(dep: string, pos: number, message: string, hint: string): void {
    // Settled at the end of the script, when every declaration is known: a local `top` or
    // `parent` (a layout offset, a tree node) is not the frame's.
    this.globalUses.push({ dep, offset: this.at(pos), message, hint });
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

  private forbidPopup(dep: string, what: string, pos: number): void {
    this.forbid(
      dep,
      pos,
      `\`${what}\` opens a window; the sandboxed dashboard frame blocks popups, and the page around it opens nothing a script asks for.`,
      "Write a link instead: <a href=\"…\" target=\"_blank\"> whose href is a URL from the data (`a.href = issue.url`) or a page of this site; the page opens it in a new tab when the viewer clicks it.",
    );
  }

  private forbidNavigation(dep: string, what: string, pos: number): void {
    this.forbid(
      dep,
      pos,
      `\`${what}\` navigates the dashboard frame away; the sandbox blocks navigation.`,
      "Use plain <a href> links for the viewer to follow, and location.hash or in-page state to switch views inside the dashboard.",
    );
  }

  private member(node: MemberExpression, anc: AnyNode[]): void {
    const p = propName(node);
    if (p === null) return;
    if (TRACKED_NAMES.has(p)) this.ctx.facts.names.add(p);
    if (p === SNAPSHOT_HELPER) this.snapshotHelper(node.property);
    const obj = node.object;
    if (obj.type === "Super") return;
    if (p === "cookie" && isDocument(obj)) {
      this.forbid(
        rootName(obj),
        startOf(node),
        "`document.cookie` is unavailable: the dashboard runs in a sandboxed frame with an opaque origin, where it throws a SecurityError.",
        "Remove it: the frame has no cookies, and requests through the API base already act as the signed-in viewer.",
      );
    } else if (isGlobalObject(obj)) {
      const g = rootName(obj);
      const parent = anc[anc.length - 2];
      const typeofCheck = parent?.type === "UnaryExpression" && parent.operator === "typeof";
      if (STORAGE.has(p) && !typeofCheck) this.forbidStorage(g, `${g}.${p}`, startOf(node));
      else if (FRAME_REFS.has(p)) this.forbidFrame(g, `${g}.${p}`, startOf(node));
      else if (p === "open") this.forbidPopup(g, `${g}.open`, startOf(node));
    } else if ((p === "score" || p === "percentile") && this.isPriority(obj)) {
      this.ctx.facts.priorityNumberReads.push(this.at(startOf(node)));
    } else if ((p === "ok" || p === "status") && obj.type === "Identifier") {
      this.checked(obj.name, anc);
    }
  }

  private isPriority(n: AnyNode): boolean {
    const x = unwrap(n);
    return (x.type === "MemberExpression" && propName(x) === "priority") || (x.type === "Identifier" && x.name === "priority");
  }

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
  private checked(name: string, anc: AnyNode[]): void {
    const scope = this.innermostScope(anc);
    if (!scope) return;
    let set = this.checks.get(name);
    if (!set) this.checks.set(name, (set = new Set()));
    set.add(scope);
  }

  // ── Strings: URLs, query parameters, markup ───────────────────────────────────────────
  private stringExpression(node: AnyNode, anc: AnyNode[]): void {
    const parent = anc[anc.length - 2];
    // Pieces of a larger string are judged as part of it.
    if (isPlus(parent) || parent?.type === "TemplateLiteral") return;
    const shape = shapeOf(node);
    if (shape === null || !URLISH.test(shape)) return;
    checkStringShape(this.ctx, shape, this.at(startOf(node)), () => this.besideApiBase(anc));
  }

  /** The "/api" fallback is right where the same function (or top-level statement) reads DASHBOARD_API_BASE. */
  private besideApiBase(anc: AnyNode[]): boolean {
    for (let i = anc.length - 2; i >= 1; i--) {
      const a = anc[i];
      if (!a) break;
      if (isFunction(a) || i === 1) return this.src(a).includes("DASHBOARD_API_BASE");
    }
    return false;
  }

  /** The URL handed to fetch, XMLHttpRequest.open, Request, EventSource or WebSocket. */
  private requestUrl(arg: AnyNode | undefined, what: string): void {
    if (!arg || arg.type === "SpreadElement") return;
    // Only fetch reaches the broker: XMLHttpRequest, EventSource and WebSocket are the frame
    // policy's to stop, and a Request object is a read once it is fetched.
    if (what === "fetch") this.ctx.reads.request(arg, this.at(startOf(arg)), this.src(arg));
    const shape = shapeOf(arg);
    if (shape === null) return;
    const offset = this.at(startOf(arg));
    const kind = classifyApiUrl(shape);
    if (kind === "bare-path") {
      this.ctx.report(
        "hardcoded-api-base",
        offset,
        `${what}("${clip(shape)}") requests an API path without the API base, so it goes to the frame's own origin instead of the API.`,
        API_HINT,
      );
    } else if (kind === null && isAbsoluteUrl(shape)) {
      this.ctx.report(
        "external-resource",
        offset,
        `${what}("${clip(shape)}") cannot reach another server: the frame's Content-Security-Policy has connect-src 'none', and data comes only through the API base.`,
        "Fetch data from the API base only (`window.DASHBOARD_API_BASE || \"/api\"`); embed anything else the dashboard needs in the document.",
      );
    }
  }

  private moduleLoad(source: AnyNode): void {
    const shape = shapeOf(source);
    reportBlockedResource(this.ctx, this.at(startOf(source)), "import", shape ?? this.src(source), "script");
  }

  // ── Calls ──────────────────────────────────────────────────────────────────────────────
  private call(node: CallExpression, anc: AnyNode[]): void {
    const name = calleeName(node);
    if (name === null) return;
    const obj = calleeObject(node);
    const args = node.arguments;
    const facts = this.ctx.facts;
    const arg0 = args[0];
    const lit0 = arg0?.type === "Literal" && typeof arg0.value === "string" ? arg0.value : null;

    if (name === "fetch" && (obj === null || isGlobalObject(obj))) {
      facts.requests = true;
      this.requestUrl(arg0, "fetch");
      const init = args[1];
      if (init?.type === "Identifier") this.initVars.push({ name: init.name, what: "fetch" });
    } else if (name === "open" && obj === null) {
      this.forbidPopup("open", "open()", startOf(node));
    } else if (name === "open" && obj && !isGlobalObject(obj) && !isDocument(obj) && args.length >= 2 && lit0 !== null) {
      facts.requests = true;
      const method = lit0.toUpperCase();
      if (NON_GET.has(method)) this.nonGet(startOf(node), `XMLHttpRequest.open("${method}", …)`, method);
      this.requestUrl(args[1], "XMLHttpRequest.open");
    } else if ((name === "assign" || name === "replace") && obj && isLocation(obj)) {
      this.forbidNavigation(rootName(obj), `${this.src(obj)}.${name}()`, startOf(node));
    } else if (name === "sendBeacon") {
      facts.requests = true;
      this.nonGet(startOf(node), "navigator.sendBeacon()", "POST");
    } else if (obj?.type === "Identifier" && LIBRARIES.has(obj.name)) {
      facts.requests = true;
      const method = name.toUpperCase();
      if (NON_GET.has(method)) this.nonGet(startOf(node), `${obj.name}.${name}()`, method);
      else if (name === "get" || name === "getJSON") this.requestUrl(arg0, `${obj.name}.${name}`);
    } else if ((name === "json" || name === "text") && args.length === 0 && obj) {
      this.responseRead(node, name, obj, anc);
    } else if ((name === "set" || name === "append" || name === "get" || name === "has") && lit0 !== null && obj) {
      const params = /search|param|query|url|qs/i.test(this.src(obj));
      if (lit0 === "scenario" && params) reportScenario(this.ctx, this.at(startOf(node)), `${this.src(obj)}.${name}("scenario", …)`);
      const arg1 = args[1];
      if (lit0 === "basis" && arg1?.type === "Literal" && arg1.value === "activity") facts.activityUses.push(this.at(startOf(node)));
    } else if (name === "setAttribute" && (lit0 === "href" || lit0 === "xlink:href") && args[1]) {
      this.linkAssignment(args[1], `setAttribute("${lit0}", …)`);
    } else if (name === "setAttribute" && (lit0 === "src" || lit0 === "srcset") && args[1]) {
      this.srcAssignment(args[1], `setAttribute("${lit0}", …)`);
    } else if (name === "reduce" || name === "reduceRight") {
      this.reduceOverMappedArr(node, obj);
    } else if (name === "sum" || name === "sumBy" || name === "fsum") {
      this.sumCall(node);
    }

    for (const a of args) {
      if (a.type === "Identifier" && CHECKER.test(name)) this.checked(a.name, anc);
    }
  }

  private newExpression(node: NewExpression): void {
    const name = calleeName(node);
    const arg0 = node.arguments[0];
    const facts = this.ctx.facts;
    if (name === "Request") {
      facts.requests = true;
      this.requestUrl(arg0, "new Request");
    } else if (name === "XMLHttpRequest") {
      facts.requests = true;
    } else if (name === "EventSource" || name === "WebSocket") {
      facts.requests = true;
      this.requestUrl(arg0, `new ${name}`);
    } else if ((name === "Worker" || name === "SharedWorker") && arg0 && arg0.type !== "SpreadElement") {
      const shape = shapeOf(arg0);
      if (shape !== null && isBlockedResource(shape, true)) reportBlockedResource(this.ctx, this.at(startOf(arg0)), `new ${name}`, shape, "script");
    } else if (name === "URLSearchParams" && arg0?.type === "ObjectExpression") {
      for (const p of arg0.properties) {
        if (p.type === "Property" && keyName(p.key, p.computed) === "scenario") {
          reportScenario(this.ctx, this.at(startOf(p)), "new URLSearchParams({ scenario: … })");
        }
      }
    }
  }

  private nonGet(pos: number, what: string, method: string): void {
    reportNonGet(this.ctx, this.at(pos), what, method);
  }

  private responseRead(node: CallExpression, name: string, obj: AnyNode, anc: AnyNode[]): void {
    const recv = unwrap(obj);
    let receiver: string | null;
    if (recv.type === "Identifier") {
      // `$el.text()` is a jQuery element, not a response.
      if (recv.name.startsWith("$")) return;
      receiver = recv.name;
    } else if (recv.type === "CallExpression" && calleeName(recv) === "fetch") {
      receiver = null;
    } else return;
    this.jsonReads.push({ name: receiver, scopes: this.scopes(anc), offset: this.at(startOf(node)), text: `${receiver ?? "fetch(…)"}.${name}()` });
  }

  private srcAssignment(value: AnyNode, what: string): void {
    if (value.type === "SpreadElement") return;
    const shape = shapeOf(value);
    if (shape !== null && isBlockedResource(shape, true) && !shape.startsWith(HOLE)) {
      reportBlockedResource(this.ctx, this.at(startOf(value)), what, shape, "resource");
    }
  }

  private linkAssignment(value: AnyNode, what: string): void {
    if (value.type === "SpreadElement") return;
    const shape = shapeOf(value);
    if (shape !== null && isForeignLink(shape)) reportDeadLink(this.ctx, this.at(startOf(value)), what, shape);
  }

  // ── Assignments and objects ───────────────────────────────────────────────────────────
  private assignment(node: Extract<AnyNode, { type: "AssignmentExpression" }>, anc: AnyNode[]): void {
    const left = node.left;
    if (node.operator === "+=") {
      this.arrSum(node, node.right, null, anc);
      return;
    }
    if (node.operator !== "=") return;
    if (left.type === "Identifier") {
      if (left.name === "location") this.forbidNavigation("location", "location = …", startOf(node));
      if (left.name === "DASHBOARD_API_BASE") this.apiBaseAssignment(node);
      return;
    }
    if (left.type !== "MemberExpression") return;
    const p = propName(left);
    const obj = left.object;
    if (obj.type === "Super" || p === null) return;
    if (p === "location" && (isGlobalObject(obj) || isDocument(obj) || isFrameRef(obj))) {
      this.forbidNavigation(rootName(obj), `${this.src(left)} = …`, startOf(node));
    } else if (NAVIGATING_PROPS.has(p) && isLocation(obj)) {
      this.forbidNavigation(rootName(obj), `${this.src(left)} = …`, startOf(node));
    } else if (p === "src" || p === "srcset") {
      this.srcAssignment(node.right, `.${p} = `);
    } else if (p === "href") {
      this.linkAssignment(node.right, ".href =");
    } else if (p === "DASHBOARD_API_BASE") {
      this.apiBaseAssignment(node);
    }
  }

  private apiBaseAssignment(node: Extract<AnyNode, { type: "AssignmentExpression" }>): void {
    // `window.DASHBOARD_API_BASE = window.DASHBOARD_API_BASE || "/api"` only fills in a default.
    if (this.src(node.right).includes("DASHBOARD_API_BASE")) return;
    this.ctx.report(
      "hardcoded-api-base",
      this.at(startOf(node)),
      "Assigning window.DASHBOARD_API_BASE replaces the API base that the playground and the saved page provide.",
      'Read it, never assign it: `const API = window.DASHBOARD_API_BASE || "/api";`.',
    );
  }

  private objectExpression(node: Extract<AnyNode, { type: "ObjectExpression" }>, anc: AnyNode[]): void {
    let method: { value: string; pos: number } | null = null;
    let requestInit = false;
    for (const p of node.properties) {
      if (p.type !== "Property") continue;
      const k = keyName(p.key, p.computed);
      if (k === null) continue;
      if (TRACKED_NAMES.has(k)) this.ctx.facts.names.add(k);
      const v = p.value;
      const lit = v.type === "Literal" && typeof v.value === "string" ? v.value : null;
      if ((k === "method" || k === "type") && lit !== null && NON_GET.has(lit.toUpperCase())) method = { value: lit.toUpperCase(), pos: startOf(p) };
      else if (k === "basis" && lit === "activity") this.ctx.facts.activityUses.push(this.at(startOf(p)));
      else if (REQUEST_INIT_KEYS.has(k)) requestInit = true;
    }
    if (!method) return;
    const parent = anc[anc.length - 2];
    const isArgument =
      (parent?.type === "CallExpression" || parent?.type === "NewExpression") && parent.arguments.some((a) => a === node);
    if (isArgument || requestInit) this.nonGet(method.pos, `{ method: "${method.value}" }`, method.value);
    else if (parent?.type === "VariableDeclarator" && parent.id.type === "Identifier") {
      this.methodVars.set(parent.id.name, { offset: method.pos, method: method.value });
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
    if (init.type === "Identifier" && (keys.includes("ok") || keys.includes("status"))) this.checked(init.name, anc);
    if (this.isPriority(init) && (keys.includes("score") || keys.includes("percentile"))) {
      this.ctx.facts.priorityNumberReads.push(this.at(startOf(node)));
    }
  }

  // ── ARR sums ──────────────────────────────────────────────────────────────────────────
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
  private arrSum(node: AnyNode, a: AnyNode, b: AnyNode | null, anc: AnyNode[]): void {
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
    if (target?.type === "MemberExpression" && target.computed && DISTRICT.test(this.src(target.property))) keyed = true;
    if (holder?.type === "CallExpression" && calleeName(holder) === "set" && holder.arguments[1] === topNode) {
      const key = holder.arguments[0];
      if (key && DISTRICT.test(this.src(key))) keyed = true;
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
    if (!keyed && DISTRICT.test(this.src(context))) return;
    this.arrContexts.add(context);
    this.ctx.report(
      "arr-summed",
      this.at(startOf(at)),
      `\`${clip(this.src(at), 60)}\` adds up \`arr\` across rows${keyed ? " of each district" : ""}; ARR is district grain: every school row of a district carries the same figure, so this counts it once per school.`,
      "Group rows by `districtName` and take one `arr` per district, e.g. `const perDistrict = new Map(rows.map(r => [r.districtName, r.arr ?? 0]));` then sum `perDistrict.values()`.",
    );
  }

  /** `rows.map(r => r.arr).reduce((a, b) => a + b, 0)` */
  private reduceOverMappedArr(node: CallExpression, obj: AnyNode | null): void {
    if (!obj || obj.type !== "CallExpression" || calleeName(obj) !== "map") return;
    const fn = obj.arguments[0];
    if (!fn || (fn.type !== "ArrowFunctionExpression" && fn.type !== "FunctionExpression")) return;
    const body = fn.type === "ArrowFunctionExpression" && fn.body.type !== "BlockStatement" ? fn.body : null;
    if (!body || !this.isArrRead(body, [fn])) return;
    this.arrFinding(node, node, false);
  }

  /** `d3.sum(rows, d => d.arr)`, `_.sumBy(rows, "arr")` */
  private sumCall(node: CallExpression): void {
    const sums = node.arguments.some(
      (a) =>
        (a.type === "Literal" && a.value === "arr") ||
        (a.type === "ArrowFunctionExpression" && a.body.type !== "BlockStatement" && this.isArrRead(a.body, [a])),
    );
    if (sums) this.arrFinding(node, node, false);
  }

  // ── End of script ─────────────────────────────────────────────────────────────────────
  private finish(): void {
    for (const use of this.globalUses) {
      if (!this.declared.has(use.dep)) this.ctx.report("forbidden-api", use.offset, use.message, use.hint);
    }
    for (const v of this.initVars) {
      const m = this.methodVars.get(v.name);
      if (m) {
        this.ctx.report(
          "non-get-request",
          m.offset,
          `${v.what}(…, ${v.name}) sends a ${m.method} request; the data broker answers GET only, so it is refused.`,
          "Read data with GET only (fetch without a method, or method: \"GET\"); a dashboard cannot write anything.",
        );
      }
    }
    for (const r of this.jsonReads) {
      if (r.name !== null) {
        const checkedIn = this.checks.get(r.name);
        if (checkedIn && r.scopes.some((s) => checkedIn.has(s))) continue;
      }
      const who = r.name ?? "res";
      this.ctx.facts.uncheckedReads.push({
        offset: r.offset,
        message: `\`${r.text}\` reads the response body without checking \`${who}.ok\` or \`${who}.status\` in the same function, so an error answer (401, 403, 500, 503) is treated as data.`,
      });
    }
  }
}
