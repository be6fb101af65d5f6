import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { lineColumn, placeInSource, sha256Hex } from "./render-helpers";

describe("the render helpers", () => {
  it("hash as V8 names a script: SHA-256 of its UTF-8", () => {
    const inputs = [Buffer.alloc(0), Buffer.from("abc"), ...[55, 56, 63, 64, 65, 119, 120].map((n) => Buffer.alloc(n, 0x61)), Buffer.from("naïve — 𝔘 ✓"), randomBytes(300_000)];
    for (const bytes of inputs) {
      expect(sha256Hex(new Uint8Array(bytes)), `${bytes.length} bytes`).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
  });

  it("place a position in a script at its place in the document", () => {
    const source = ["<!doctype html>", "<p>hi</p>", "<script>", "var a = 1;", "boom();", "</script>", "<script>x()</SCRIPT>", "<script>x()</script>"].join("\n");
    const first = "\nvar a = 1;\nboom();\n";
    expect(placeInSource(source, first, 0, 3, 1)).toEqual({ line: 5, column: 1 });
    expect(placeInSource(source, first, 0, 1, 1)).toEqual({ line: 3, column: 9 });
    // The same text twice: the nth script of that text is the nth place it is written.
    expect(placeInSource(source, "x()", 0, 1, 2)).toEqual({ line: 7, column: 10 });
    expect(placeInSource(source, "x()", 1, 1, 2)).toEqual({ line: 8, column: 10 });
    expect(placeInSource(source, "x()", 2, 1, 2)).toBeNull();
    // Text that is only part of a script, or not in the document at all, is not placed.
    expect(placeInSource(source, "boom();", 0, 1, 1)).toBeNull();
    expect(placeInSource(source, "made by the dashboard", 0, 1, 1)).toBeNull();
    expect(placeInSource(source, "", 0, 1, 1)).toBeNull();
    expect(lineColumn("a\nbc\n", 3)).toEqual({ line: 2, column: 2 });
  });
});
