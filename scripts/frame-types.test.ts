import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The frame's types are part of the consent guarantee: a frame on live data needs a LiveGrant,
// which no page can write by hand. These compile small pages against the real components and
// read what the compiler says.

const root = path.resolve(import.meta.dirname, "..");

function compilerOptions(): ts.CompilerOptions {
  const file = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(file.config, ts.sys, root);
  return { ...parsed.options, noEmit: true, incremental: false, tsBuildInfoFile: undefined };
}

/** The compiler's errors for one module placed at `rel` (it does not exist on disk), with their lines from 1. */
function typeErrors(rel: string, text: string): { line: number; message: string }[] {
  const fixture = path.join(root, rel);
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const getSource = host.getSourceFile.bind(host);
  host.readFile = (f) => (path.resolve(f) === fixture ? text : read(f));
  host.fileExists = (f) => path.resolve(f) === fixture || exists(f);
  host.getSourceFile = (f, lang, onError, create) =>
    path.resolve(f) === fixture ? ts.createSourceFile(f, text, lang, true, ts.ScriptKind.TSX) : getSource(f, lang, onError, create);
  const program = ts.createProgram({ rootNames: [fixture], options, host });
  const source = program.getSourceFile(fixture);
  return ts.getPreEmitDiagnostics(program, source).map((d) => ({
    line: source && d.start !== undefined ? source.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
    message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
  }));
}

const refused = [
  `<DashboardFrame html={html} title="t" data={{ mode: "live" }} />`,
  `<DashboardFrame html={html} title="t" data={{ mode: "live", grant: {} }} />`,
  `<DashboardFrame html={html} title="t" data={{ mode: "live", grant: { paths: null, allows: () => true } }} />`,
  `<DashboardFrame html={html} title="t" data={{ mode: "live", allowedPaths: ["/me"] }} />`,
  `<DashboardFrame html={html} title="t" apiBase="/api" mode="live" data={{ mode: "demo" }} />`,
];
const accepted = [`<DashboardFrame html={html} title="t" data={{ mode: "demo", scenario: "outage" }} />`, `<DashboardFrame html={html} title="t" data={{ mode: "live", grant }} />`];
const HEAD = 3;
// One page per line after the imports, so each error is known by its line.
const fixture = [
  `import { DashboardFrame } from "@/components/dashboard-frame/DashboardFrame";`,
  `import { LiveGrant } from "@/lib/consent/live";`,
  `type P = { html: string; grant: LiveGrant };`,
  ...[...refused, ...accepted].map((frame, i) => `export const Page${i} = ({ html, grant }: P) => { void grant; return ${frame}; };`),
  `export const made = new LiveGrant(null);`,
].join("\n");

describe("a frame on live data cannot be written without a grant", () => {
  // One program for every case: building it takes a few seconds on two cores.
  it("refuses live data without a grant and a grant made outside lib/consent; compiles demo data, and live data through a grant", () => {
    const errors = typeErrors("components/editor/__fixture__.tsx", fixture);
    refused.forEach((frame, i) => expect(errors.filter((e) => e.line === HEAD + 1 + i).length, frame).toBeGreaterThan(0));
    accepted.forEach((frame, i) => expect(errors.filter((e) => e.line === HEAD + 1 + refused.length + i), frame).toEqual([]));
    const constructed = errors.filter((e) => e.line === HEAD + refused.length + accepted.length + 1);
    expect(constructed.map((e) => e.message).join("\n")).toMatch(/private/);
    expect(errors.every((e) => e.line > HEAD), JSON.stringify(errors)).toBe(true);
  }, 60_000);
});
