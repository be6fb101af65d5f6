import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What a page loads before it is drawn: every module reached from its client entry by static
// value imports (type-only imports and import() are left out, as the bundler leaves them out of
// the page's first chunks). The schema library and CodeMirror load later, when needed, so a
// phone's main thread is free while the page hydrates: the editor and the pages that show a
// dashboard read their JSON with plain shape checks (lib/contract/json-shape.ts).

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[\s\S]*?\bfrom\s+)?"([^"]+)"/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*"([^"]+)"\s*\)/g;

function resolveLocal(spec: string, from: string): string | null {
  const base = spec.startsWith("@/") ? path.join(root, spec.slice(2)) : path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Packages (by name) and local files reached from `entries`; with `lazy`, through import() too. */
function reach(entries: string[], lazy = false): { packages: Set<string>; files: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = entries.map((e) => path.join(root, e));
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.(ts|tsx)$/.test(file)) continue;
    const text = fs.readFileSync(file, "utf8");
    for (const m of [...text.matchAll(STATIC_IMPORT), ...(lazy ? text.matchAll(DYNAMIC_IMPORT) : [])]) {
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

const late = (packages: Set<string>) => [...packages].filter((p) => p === "zod" || p.startsWith("@codemirror/") || p.startsWith("@lezer/") || p === "codemirror");

describe("the editor's first load", () => {
  const { packages, files } = reach(["components/editor/PlaygroundEditor.tsx"]);

  it("follows the editor's own modules", () => {
    expect(files.size).toBeGreaterThan(10);
    expect(packages).toContain("react");
  });

  it("leaves the schema library and CodeMirror for later", () => {
    expect(late(packages)).toEqual([]);
  });
});

describe("the first load of the pages that show a dashboard", () => {
  const pages = {
    watch: ["components/watch/WatchDraft.tsx"],
    saved: ["components/saved/SavedDashboardView.tsx"],
  };

  // Not later either: a render report is sent right after the dashboard paints, and a schema
  // library loaded then is a long task on a phone's main thread.
  it.each(Object.entries(pages))("%s: follows the page's modules and reaches neither the schema library nor CodeMirror, even by import()", (_page, entries) => {
    const { packages, files } = reach(entries, true);
    expect([...files].some((f) => f.endsWith("components/dashboard-frame/DashboardFrame.tsx"))).toBe(true);
    expect(late(packages)).toEqual([]);
  });
});
