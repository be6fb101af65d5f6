import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// public/ is served as it is: the icon must be a real ICO, and robots.txt must keep crawlers off
// capability URLs, people's spaces and the API.

const root = path.resolve(import.meta.dirname, "..");
const { faviconIco } = (await import(new URL("./favicon.mjs", import.meta.url).href)) as { faviconIco: () => Buffer };

describe("public/", () => {
  it("favicon.ico is one 32×32 PNG image in an ICO, as scripts/favicon.mjs draws it", () => {
    const ico = fs.readFileSync(path.join(root, "public", "favicon.ico"));
    expect(ico.equals(faviconIco())).toBe(true);
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7]]).toEqual([32, 32]);
    const offset = ico.readUInt32LE(18);
    expect(offset + ico.readUInt32LE(14)).toBe(ico.length);
    expect(ico.subarray(offset, offset + 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it("robots.txt keeps crawlers off drafts, spaces, the API and account pages, not off the docs", () => {
    const robots = fs.readFileSync(path.join(root, "public", "robots.txt"), "utf8");
    const rules = robots.split("\n").filter((l) => /^(Allow|Disallow):/.test(l));
    for (const p of ["/dashboards/playground/draft/", "/dashboards/playground/watch/", "/~/", "/api/", "/account/", "/connections"]) {
      expect(rules).toContain(`Disallow: ${p}`);
    }
    expect(rules).toContain("Allow: /docs");
    expect(rules).toContain("Allow: /$");
    expect(rules.some((r) => r === "Disallow: /" || r.startsWith("Disallow: /docs"))).toBe(false);
  });
});
