import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dashboardExamples } from "../demo/examples";
import { exampleHash } from "../demo/examples/thumbnail-hash";
import thumbnails from "../demo/examples/thumbnails.json";

// The gallery's pictures are made by `npm run thumbnails` and kept in the repository: an example
// whose HTML changed without a new picture would show a dashboard it no longer is.

const manifest: Record<string, { file: string; hash: string; width: number; height: number }> = thumbnails;

describe("gallery pictures", () => {
  it.each(dashboardExamples.map((e) => [e.id, e] as const))("%s has a picture made from its current HTML", (id, example) => {
    const entry = manifest[id];
    if (!entry) throw new Error(`no picture for ${id}: run npm run thumbnails`);
    expect(entry.hash, `the picture of ${id} is stale: run npm run thumbnails`).toBe(exampleHash(example.html));
    const png = fs.readFileSync(path.join(__dirname, "..", "public", "examples", entry.file));
    // The PNG signature, then IHDR's width and height: the file is the picture the manifest says.
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([entry.width, entry.height]);
  });

  it("keeps no picture of an example that is gone", () => {
    expect(Object.keys(manifest).sort()).toEqual(dashboardExamples.map((e) => e.id).sort());
  });
});
