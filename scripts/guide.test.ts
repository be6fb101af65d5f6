import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { layerList, layerRows, root } from "./layers";

// The guide is read by people new to the code; what it says of the tree is checked against the
// tree, so it cannot drift: its layer picture against eslint.config.mjs, its folder table against
// the folders, every path and local link it names against the files.

const guidePath = path.join(root, "docs/architecture.md");
const guide = fs.readFileSync(guidePath, "utf8");
const lines = guide.split("\n");
// Loaded at the top, as scripts/layers.test.ts does: the config pulls in the lint plugins, which
// takes seconds on a busy machine, outside any one test's time.
const { libLayers } = await layerList();

/** A heading's anchor as the Markdown renderers make it. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} -]/gu, "").replace(/ /g, "-");
const anchorsOf = (text: string) => new Set(text.split("\n").filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, ""))));

function pictureRows(): string[] {
  const start = lines.findIndex((l) => l.includes("lib/, highest first"));
  const rows: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^─+$/.test(line.trim())) break;
    const m = /^(\S+(?: \S+)*?)\s{2,}\S/.exec(line);
    rows.push(m?.[1] ?? line);
  }
  return rows;
}

function tableRows(): string[] {
  const start = lines.findIndex((l) => l === "## Folders");
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  return lines
    .slice(start, end)
    .filter((l) => l.startsWith("| `"))
    .flatMap((l) => [...(l.split("|")[1] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ""));
}

describe("docs/architecture.md", () => {
  it("is read in one sitting: at most 700 lines, none over 400 characters", () => {
    expect(lines.length).toBeLessThanOrEqual(700);
    expect(lines.filter((l) => l.length > 400)).toEqual([]);
  });

  it("draws lib/'s layers as eslint.config.mjs lists them", () => {
    expect(pictureRows()).toEqual(layerRows(libLayers));
  });

  it("has a row for every folder of lib/ and components/, and a folder for every row", () => {
    const rows = tableRows();
    const wanted = [
      ...fs.readdirSync(path.join(root, "lib"), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [`lib/${e.name}/`] : /^[^.]+\.ts$/.test(e.name) ? [`lib/${e.name}`] : [])),
      ...fs.readdirSync(path.join(root, "components"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `components/${e.name}/`),
    ];
    expect(wanted.filter((w) => !rows.includes(w))).toEqual([]);
    expect(rows.filter((r) => !fs.existsSync(path.join(root, r)))).toEqual([]);
  });

  it("names only paths that exist", () => {
    const named = [...guide.matchAll(/`((?:app|lib|components|demo|scripts|e2e|tests|bench|docs)\/[^`\s<>*…]+)`/g)].map((m) => m[1] ?? "");
    expect(named.length).toBeGreaterThan(30);
    expect([...new Set(named)].filter((p) => !fs.existsSync(path.join(root, p)))).toEqual([]);
  });

  it("links only to pages and headings that exist", () => {
    const docs = path.dirname(guidePath);
    const broken: string[] = [];
    const pages = [guidePath, ...["playground.md", "frame.md", "spaces.md"].map((p) => path.join(docs, p))];
    for (const page of pages) {
      const text = fs.readFileSync(page, "utf8");
      for (const [, target = ""] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [file = "", anchor] = target.split("#");
        const linked = file ? path.resolve(path.dirname(page), file) : page;
        if (!fs.existsSync(linked)) broken.push(`${path.basename(page)}: ${target}`);
        else if (anchor && linked.endsWith(".md") && !anchorsOf(fs.readFileSync(linked, "utf8")).has(anchor)) broken.push(`${path.basename(page)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
