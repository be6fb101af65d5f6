import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The check runs in the editor page as well as on the server: its modules may import only
// each other, the shared contract, the snapshot convention, the address parameters' bounds and the two parsers, never Node built-ins or server code.

const dir = path.dirname(new URL(import.meta.url).pathname);
const sources = fs
  .readdirSync(dir, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
const allowed = [/^@\/lib\/contract\/(resources|endpoints|routes)$/, /^@\/lib\/frame\/(snapshot|params)$/, /^meriyah$/, /^htmlparser2$/];

describe("the check's imports", () => {
  it("are browser-safe", () => {
    expect(sources.length).toBeGreaterThan(5);
    for (const file of sources) {
      const text = fs.readFileSync(path.join(dir, file), "utf8");
      const specs = [...text.matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1] ?? "");
      for (const spec of specs) {
        // A relative import stays inside lib/check.
        const inside = /^\.\.?\//.test(spec) && path.resolve(dir, path.dirname(file), spec).startsWith(`${dir}${path.sep}`);
        expect(inside || allowed.some((re) => re.test(spec)), `${file} imports ${spec}`).toBe(true);
      }
      expect(text, file).not.toMatch(/\bprocess\.|\brequire\(|server-only/);
    }
  });
});
