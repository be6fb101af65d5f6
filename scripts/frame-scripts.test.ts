import fs from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ES module script, without types
import { GENERATED, frameScript, generatedModule } from "./frame-scripts.mjs";

// The frame receives lib/frame/scripts.generated.ts's text, compiled from lib/frame/scripts/:
// the committed file must be what the sources make now.

describe("the frame's compiled script", () => {
  it("is what lib/frame/scripts/ compiles to (npm run frame:scripts writes it)", () => {
    expect(fs.readFileSync(GENERATED, "utf8") === generatedModule(), "lib/frame/scripts.generated.ts is stale: run npm run frame:scripts").toBe(true);
  });

  it("is one strict function of its settings, with nothing of a module left in it", () => {
    const text: string = frameScript();
    expect(text.startsWith('(function (frameConfig) {\n"use strict";\n')).toBe(true);
    expect(text.trimEnd().endsWith("})")).toBe(true);
    expect(text).not.toMatch(/^\s*(?:import|export)\b|\brequire\(/m);
    // It parses as the expression bootstrap.ts calls.
    expect(typeof new Function(`return ${text}`)()).toBe("function");
  });
});
