// The folder graph of app/, components/, lib/ and demo/, read off the import statements: which
// folder imports which, through `@/` or relative specifiers alike.
//
//   npx tsx scripts/layers.ts             lists two-way pairs and imports that climb the layer list
//   npx tsx scripts/layers.ts --picture   prints lib/'s layers, highest first, as the guide draws them
//
// A folder is app/, components/<folder>, demo/<folder> (demo/users.ts counts as `demo/users`)
// or lib/<folder> (lib/config.ts and lib/config.test.ts count as `lib/config`). The layer list
// itself is eslint.config.mjs's `libLayers`; scripts/layers.test.ts fails on what this finds.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface FolderImport {
  from: string;
  to: string;
  file: string;
  specifier: string;
}

export interface Layer {
  name: string;
  folders: string[];
}

const SOURCE = /\.(ts|tsx|mjs)$/;
const SKIP = new Set(["node_modules", ".next", ".data"]);
// import … from "x", export … from "x", import "x", import("x")
const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*["']([^"']+)["']|(?:^|[\s;])import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name)) out.push(...sourcesUnder(p));
    } else if (SOURCE.test(entry.name)) out.push(p);
  }
  return out;
}

/** The folder a repository path belongs to, or null outside app/, components/, lib/ and demo/. */
export function folderOf(rel: string): string | null {
  const parts = rel.split(/[\\/]/);
  const top = parts[0];
  if (top === "app") return "app";
  if (top !== "lib" && top !== "components" && top !== "demo") return null;
  if (parts.length < 2) return top;
  return `${top}/${(parts[1] ?? "").replace(/(\.test)?\.(ts|tsx|mjs)$/, "")}`;
}

/** Every cross-folder import: [{ from, to, file, specifier }]. */
export function folderImports(base = root): FolderImport[] {
  const edges: FolderImport[] = [];
  for (const top of ["app", "components", "lib", "demo"]) {
    for (const file of sourcesUnder(path.join(base, top))) {
      const rel = path.relative(base, file);
      const from = folderOf(rel) ?? top;
      const text = fs.readFileSync(file, "utf8");
      for (const m of text.matchAll(SPECIFIER)) {
        const specifier = m[1] ?? m[2] ?? m[3] ?? "";
        let target: string;
        if (specifier.startsWith("@/")) target = specifier.slice(2);
        else if (specifier.startsWith(".")) target = path.relative(base, path.resolve(path.dirname(file), specifier));
        else continue;
        const to = folderOf(target);
        if (to && to !== from) edges.push({ from, to, file: rel, specifier });
      }
    }
  }
  return edges;
}

/** The layer list and its exceptions, from eslint.config.mjs. */
export async function layerList(): Promise<{ libLayers: Layer[]; layerExceptions: Record<string, string[]> }> {
  const configUrl = new URL("../eslint.config.mjs", import.meta.url).href;
  return (await import(configUrl)) as { libLayers: Layer[]; layerExceptions: Record<string, string[]> };
}

/** The repository file a `@/` or relative specifier names, or null for a package. */
export function resolveModule(fromFile: string, specifier: string, base = root): string | null {
  let target: string;
  if (specifier.startsWith("@/")) target = path.join(base, specifier.slice(2));
  else if (specifier.startsWith(".")) target = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  for (const c of [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts"), path.join(target, "index.tsx")]) {
    if (fs.statSync(c, { throwIfNoEntry: false })?.isFile()) return c;
  }
  return null;
}

/**
 * Every module a module loads at run time, itself included (type-only imports are erased, so
 * they are not followed), with the packages each one imports.
 */
export function runtimeClosure(entries: string[], base = root): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const stack = entries.map((e) => path.resolve(base, e));
  while (stack.length) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    const packages: string[] = [];
    seen.set(file, packages);
    for (const m of fs.readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (/^\s*;?\s*(import|export)\s+type\s/.test(m[0])) continue;
      const specifier = m[1] ?? m[2] ?? m[3] ?? "";
      const resolved = resolveModule(file, specifier, base);
      if (resolved) stack.push(resolved);
      else if (!specifier.startsWith(".") && !specifier.startsWith("@/")) packages.push(specifier);
    }
  }
  return seen;
}

/** Files under a folder whose source matches a pattern (say, a "use client" directive). */
export function filesMatching(dir: string, pattern: RegExp, base = root): string[] {
  return sourcesUnder(path.join(base, dir)).filter((f) => pattern.test(fs.readFileSync(f, "utf8")));
}

/** lib/'s layers highest first, each as its folders separated by spaces: the rows of the guide's picture. */
export function layerRows(layers: readonly Layer[]): string[] {
  return [...layers].reverse().map((l) => l.folders.join(" "));
}

/** Pairs of folders that import each other, each with the imports both ways. */
export function twoWayPairs(edges: FolderImport[]): { pair: [string, string]; imports: string[] }[] {
  const by = new Map<string, string[]>();
  for (const e of edges) {
    const key = `${e.from} -> ${e.to}`;
    if (!by.has(key)) by.set(key, []);
    by.get(key)?.push(`${e.file}: ${e.specifier}`);
  }
  const pairs: { pair: [string, string]; imports: string[] }[] = [];
  for (const [key, imports] of by) {
    const [a = "", b = ""] = key.split(" -> ");
    const back = by.get(`${b} -> ${a}`);
    if (a < b && back) pairs.push({ pair: [a, b], imports: [...imports, ...back] });
  }
  return pairs;
}

/** lib → lib imports that climb the layer list (exceptions allowed), and lib folders it does not list. */
export function layerViolations(edges: FolderImport[], layers: readonly Layer[], exceptions: Record<string, string[]> = {}, base = root) {
  const levelOf = new Map<string, number>(layers.flatMap((l, i) => l.folders.map((f): [string, number] => [`lib/${f}`, i])));
  const unlisted = [...new Set(sourcesUnder(path.join(base, "lib")).map((f) => folderOf(path.relative(base, f)) ?? "lib"))].filter((f) => !levelOf.has(f));
  const upward = edges.filter((e) => {
    if (!e.from.startsWith("lib/") || !e.to.startsWith("lib/")) return false;
    if ((exceptions[e.from.slice(4)] ?? []).includes(e.to.slice(4))) return false;
    return (levelOf.get(e.to) ?? -1) > (levelOf.get(e.from) ?? Infinity);
  });
  const demoOut = edges.filter((e) => e.from.startsWith("demo/") && !e.to.startsWith("demo/"));
  return { unlisted, upward, demoOut };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { libLayers, layerExceptions } = await layerList();
  if (process.argv.includes("--picture")) {
    const rows = layerRows(libLayers);
    const width = Math.max(...rows.map((r) => r.length)) + 2;
    for (const [i, row] of rows.entries()) console.log(`${row.padEnd(width)}${[...libLayers].reverse()[i]?.name ?? ""}`);
    process.exit(0);
  }
  const edges = folderImports();
  const pairs = twoWayPairs(edges);
  const { unlisted, upward, demoOut } = layerViolations(edges, libLayers, layerExceptions);
  for (const p of pairs) console.log(`two-way: ${p.pair.join(" <-> ")}\n  ${p.imports.join("\n  ")}`);
  for (const e of upward) console.log(`up the layers: ${e.from} -> ${e.to} (${e.file}: ${e.specifier})`);
  for (const e of demoOut) console.log(`demo/ imports outside demo/: ${e.file}: ${e.specifier}`);
  for (const f of unlisted) console.log(`not in eslint.config.mjs libLayers: ${f}`);
  const problems = pairs.length + upward.length + demoOut.length + unlisted.length;
  console.log(problems ? `${problems} problem(s)` : `${new Set(edges.map((e) => e.from)).size} folders, no two-way pairs, every import points down the layers`);
  process.exitCode = problems ? 1 : 0;
}
