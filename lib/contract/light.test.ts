import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { endpoints } from "./endpoints";
import { matchPath } from "./match";
import { routes } from "./routes";

// The editor and the frame read the contract's addresses and limits as the page loads; these
// modules hold them apart from the schemas so that no schema library loads with the page.
const light = ["routes.ts", "playground-limits.ts", "report-limits.ts"];

describe("the contract's browser-light modules", () => {
  it("import nothing", () => {
    for (const file of light) {
      const text = fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), file), "utf8");
      expect(text, file).not.toMatch(/^\s*(?:import|export)\b[^;]*\bfrom\s+"/m);
    }
  });

  it("name every endpoint of the registry once, with the registry's path and summary", () => {
    expect(routes.map((r) => r.id)).toEqual(endpoints.map((e) => e.id));
    for (const e of endpoints) {
      const template = e.path.replace(/:(\w+)/g, "x-$1");
      expect(matchPath(template)?.endpoint.id, e.path).toBe(e.id);
    }
  });
});
