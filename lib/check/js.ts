import { isParseError, parseModule, parseScript, type ESTree, type Options, type ParseError } from "meriyah";
import { TRACKED_NAMES, type Context } from "./context";
import type { ScriptKind } from "./html";
import { checkText } from "./text";
import { checkWebRtc } from "./webrtc";
import { collectParamReads } from "./params";
import { leadingDataDeclaration, type DataDeclaration } from "./data";
import { endOf, startOf } from "./walk";
import { ScriptPass } from "./script/pass";
import { NON_GET, REQUEST_INIT_KEYS, URLISH, checkStringShape, reportNonGet } from "./script/requests";

// The JavaScript pass: meriyah parses each inline script (and event-handler attribute) and one
// walk over the tree records what the rules need (script/pass.ts hands each node to its rule
// family). Positions are offsets into the script, moved to the document by `at`.

type Program = ESTree.Program;

const SYNTAX_HINT =
  "Fix the code at this line and column (check brackets, quotes and commas just before it). Until it parses, nothing in it runs and no other rule can look inside it.";

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
