// How much a reader of lib/ and components/ must hold at once: no file over FILE_MAX lines and no
// function over FUNCTION_MAX lines, outside the allow-lists below.
//
// A file's size is its line count. A function's size (declaration, expression, arrow, method,
// accessor or constructor) is the span of lines from its first token to its last, nested
// functions included: an inner closure reads the outer one's variables, so a reader holds the two
// together. Only the outermost function over the limit is listed; those inside it are counted in
// it. A function is named by the named functions around it and its own name, or for an anonymous
// one by where it stands (`useEffect callback`, `default`), so an entry survives lines moving.
//
// Each allow-list entry is a present offender at the size it had when listed. The test fails when
// an offender is not listed, when it grows past its entry, and when an entry is no longer needed:
// the lists only shrink.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root } from "./layers";

const FILE_MAX = 600;
const FUNCTION_MAX = 120;

/** Left out of the count, each with its reason. Test files (`*.test.ts`, `*.test.tsx`) are left out too. */
const EXCLUDED: Record<string, string> = {
  // A migration is the record of what ran against databases already in use: it is never split or
  // rewritten, only followed by the next one.
  "lib/db/migrations/": "migrations are frozen history",
};

// Present offenders, with their size when listed. Split one and take its entry off.
const ALLOWED_FILES: Record<string, number> = {
};

const ALLOWED_FUNCTIONS: Record<string, number> = {
};

interface Measured {
  key: string;
  lines: number;
}

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    const rel = path.relative(root, p).split(path.sep).join("/");
    if (Object.keys(EXCLUDED).some((e) => rel === e || rel.startsWith(e))) continue;
    if (entry.isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

function textOf(name: ts.PropertyName | ts.BindingName | undefined, sf: ts.SourceFile): string | null {
  if (!name) return null;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText(sf);
}

/** The function's own name, or where an anonymous one stands. */
function ownName(fn: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(fn)) return "constructor";
  const named = textOf(fn.name, sf);
  const parent = fn.parent;
  const holder =
    ts.isClassLike(parent) ? (parent.name?.text ?? "class") : ts.isObjectLiteralExpression(parent) ? holderOf(parent, sf) : null;
  if (named) return holder ? `${holder}.${named}` : named;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return textOf(parent.name, sf) ?? "anonymous";
  }
  if (ts.isExportAssignment(parent)) return "default";
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    // `useCallback(() => …)` inside `const save = useCallback(…)` is `save`.
    if (ts.isVariableDeclaration(parent.parent)) return textOf(parent.parent.name, sf) ?? "anonymous";
    const callee = parent.expression.getText(sf).replace(/\s+/g, "");
    return `${callee} callback`;
  }
  if (fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) return "default";
  return "anonymous";
}

function holderOf(object: ts.ObjectLiteralExpression, sf: ts.SourceFile): string | null {
  const p = object.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p)) return textOf(p.name, sf);
  return null;
}

function measure(rel: string): { file: Measured; functions: Measured[] } {
  const text = fs.readFileSync(path.join(root, rel), "utf8");
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, rel.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const functions: Measured[] = [];
  const seen = new Map<string, number>();
  const visit = (node: ts.Node, names: string[]): void => {
    let inner = names;
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      inner = [...names, ownName(fn, sf)];
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart(sf)) + 1;
      let key = `${rel} › ${inner.join(" › ")}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (n > 1) key += ` #${n}`;
      functions.push({ key, lines });
      if (lines > FUNCTION_MAX) return; // what is inside is counted in it
    }
    ts.forEachChild(node, (c) => visit(c, inner));
  };
  visit(sf, []);
  const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
  return { file: { key: rel, lines }, functions };
}

/** Every measured file, and every function but those inside one over the limit. */
function measureAll(): { files: Measured[]; functions: Measured[] } {
  const files: Measured[] = [];
  const functions: Measured[] = [];
  for (const rel of [...sources(path.join(root, "lib")), ...sources(path.join(root, "components"))]) {
    const m = measure(rel);
    files.push(m.file);
    functions.push(...m.functions);
  }
  return { files, functions };
}

/** What breaks the rule: unlisted offenders, entries outgrown, entries no longer needed. */
function problems(measured: Measured[], allowed: Record<string, number>, max: number, what: string): string[] {
  const out: string[] = [];
  const over = new Map(measured.filter((m) => m.lines > max).map((m) => [m.key, m.lines]));
  for (const [key, lines] of over) {
    const limit = allowed[key];
    if (limit === undefined) out.push(`${what} ${key} has ${lines} lines, over ${max}: split it`);
    else if (lines > limit) out.push(`${what} ${key} grew to ${lines} lines, past its allowed ${limit}: split it`);
  }
  for (const key of Object.keys(allowed)) {
    if (!over.has(key)) out.push(`${what} ${key} is no longer over ${max} lines: take it off the allow-list`);
  }
  return out;
}

function largest(measured: Measured[]): string {
  return [...measured]
    .sort((a, b) => b.lines - a.lines)
    .slice(0, 10)
    .map((m) => `  ${String(m.lines).padStart(5)}  ${m.key}`)
    .join("\n");
}

describe("sizes of files and functions in lib/ and components/", () => {
  const { files, functions } = measureAll();

  it("measures the sources", () => {
    // A walk that found nothing, or no function at all, would pass every check below.
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.key === "lib/config.ts")).toBe(true);
    expect(files.some((f) => f.key.startsWith("lib/db/migrations/"))).toBe(false);
    expect(files.some((f) => f.key.endsWith(".test.ts"))).toBe(false);
    expect(functions.some((f) => f.key === "lib/config.ts › parseConfig")).toBe(true);
  });

  it(`no file is over ${FILE_MAX} lines but those allowed, and none of those grows`, () => {
    console.log(`The ten largest files:\n${largest(files)}`);
    expect(problems(files, ALLOWED_FILES, FILE_MAX, "file")).toEqual([]);
  });

  it(`no function is over ${FUNCTION_MAX} lines but those allowed, and none of those grows`, () => {
    console.log(`The ten largest functions:\n${largest(functions)}`);
    expect(problems(functions, ALLOWED_FUNCTIONS, FUNCTION_MAX, "function")).toEqual([]);
  });
});
