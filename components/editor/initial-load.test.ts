import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What the editor's page loads before it is drawn: every module reached from its client entry by
// static value imports (type-only imports and import() are left out, as the bundler leaves them
// out of the page's first chunks). The schema library and CodeMirror load later, when needed, so
// a phone's main thread is free while the page hydrates.

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const entries = ["components/editor/PlaygroundEditor.tsx"];
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[\s\S]*?\bfrom\s+)?"([^"]+)"/gm;

function resolveLocal(spec: string, from: string): string | null {
  const base = spec.startsWith("@/") ? path.join(root, spec.slice(2)) : path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Packages (by name) and local files reached from `entries`. */
function reach(): { packages: Set<string>; files: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = entries.map((e) => path.join(root, e));
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.(ts|tsx)$/.test(file)) continue;
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(STATIC_IMPORT)) {
      const spec = m[1]!;
      if (spec.startsWith(".") || spec.startsWith("@/")) {
        const target = resolveLocal(spec, file);
        if (!target) throw new Error(`${path.relative(root, file)}: cannot resolve ${spec}`);
        queue.push(target);
      } else {
        packages.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
      }
    }
  }
  return { packages, files };
}

describe("the editor's first load", () => {
  const { packages, files } = reach();

  it("follows the editor's own modules", () => {
    expect(files.size).toBeGreaterThan(10);
    expect(packages).toContain("react");
  });

  it("leaves the schema library and CodeMirror for later", () => {
    const late = [...packages].filter((p) => p === "zod" || p.startsWith("@codemirror/") || p.startsWith("@lezer/") || p === "codemirror");
    expect(late).toEqual([]);
  });
});
