import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { folderImports, folderOf, layerList, layerViolations, twoWayPairs } from "./layers";

// ESLint forbids an import up the layer list, but folders in one layer may import each other,
// and ESLint sees only `@/` specifiers: this reads every import, relative ones too.

const { libLayers, layerExceptions } = await layerList();
const edges = folderImports();
const { unlisted, upward, demoOut } = layerViolations(edges, libLayers, layerExceptions);
const show = (es: { file: string; specifier: string }[]) => es.map((e) => `${e.file}: ${e.specifier}`);

describe("folder dependencies", () => {
  it("are read off the code", () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(folderOf("lib/config.test.ts")).toBe("lib/config");
    expect(folderOf("lib/connectors/crmportal/map.ts")).toBe("lib/connectors");
    expect(folderOf("demo/users.ts")).toBe("demo/users");
    expect(folderOf("app/api/[[...path]]/route.ts")).toBe("app");
  });

  it("never go both ways between two folders", () => {
    expect(twoWayPairs(edges).map((p) => `${p.pair.join(" <-> ")}: ${p.imports.join(", ")}`)).toEqual([]);
  });

  it("point down the layer list of eslint.config.mjs, relative imports included", () => {
    expect(show(upward)).toEqual([]);
  });

  it("leave demo/ only for demo/", () => {
    expect(show(demoOut)).toEqual([]);
  });

  it("name every folder of lib/ in the layer list, once", () => {
    expect(unlisted).toEqual([]);
    const listed = libLayers.flatMap((l) => l.folders);
    expect(new Set(listed).size).toBe(listed.length);
  });
});

describe("the integration tests' folders", () => {
  // A reader who knows lib/ finds a part's tests under the same name: each folder of
  // tests/integration is a folder of lib/, but for the helpers they share.
  const testsDir = path.join(process.cwd(), "tests", "integration");
  const libFolders = new Set(libLayers.flatMap((l) => l.folders));

  it("mirror lib/", () => {
    const folders = fs.readdirSync(testsDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((f) => f !== "support" && !libFolders.has(f))).toEqual([]);
  });
});
