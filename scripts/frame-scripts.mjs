// The dashboard frame's script is TypeScript for the browser (lib/frame/scripts/, type-checked
// and linted with the rest); the frame receives it as text. This compiles it, with esbuild, into
// lib/frame/scripts.generated.ts, which is committed: scripts/frame-scripts.test.ts fails while
// that file is not what the sources make, and so do `npm run build` and the build npm start and
// npm test make.
//
//   node scripts/frame-scripts.mjs           (npm run frame:scripts) writes it
//   node scripts/frame-scripts.mjs --check   exits 1, saying so, when it is stale
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = "lib/frame/scripts/";
const ENTRY = `${SOURCES}frame.ts`;
export const GENERATED = path.join(root, "lib/frame/scripts.generated.ts");

/**
 * The frame's script: one function expression of `frameConfig` (lib/frame/scripts/config.ts),
 * which bootstrap.ts calls with its settings as JSON. Plain ES2017, strict, with no helper of the
 * compiler's own: a helper would call built-ins the dashboard can patch.
 */
export function frameScript() {
  const result = buildSync({
    absWorkingDir: root,
    entryPoints: [ENTRY],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2017",
    // The project's tsconfig does not change what the frame receives.
    tsconfigRaw: {},
    legalComments: "none",
    banner: { js: '(function (frameConfig) {\n"use strict";' },
    footer: { js: "})" },
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const outside = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith(SOURCES));
  if (outside.length) throw new Error(`The frame's script imports only from ${SOURCES}, not ${outside.join(", ")}.`);
  const text = result.outputFiles[0].text;
  const helper = /^\s*var (__\w+) =/m.exec(text);
  if (helper) throw new Error(`The frame's script needs esbuild's ${helper[1]}: write it without what ES2017 lacks (object spread, for one).`);
  return text;
}

/** The text of lib/frame/scripts.generated.ts. */
export function generatedModule() {
  return [
    "// Generated from lib/frame/scripts/ by scripts/frame-scripts.mjs (npm run frame:scripts): do not edit.",
    "",
    "/** The frame's script, a function of its FrameConfig (lib/frame/scripts/config.ts); bootstrap.ts calls it. */",
    `export const FRAME_SCRIPT = ${JSON.stringify(frameScript())};`,
    "",
  ].join("\n");
}

/** Whether the committed file is what the sources make. */
export function generatedIsFresh() {
  return fs.existsSync(GENERATED) && fs.readFileSync(GENERATED, "utf8") === generatedModule();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--check")) {
    if (!generatedIsFresh()) {
      console.error(`${path.relative(root, GENERATED)} is not what ${SOURCES} compiles to: run npm run frame:scripts.`);
      process.exit(1);
    }
  } else {
    fs.writeFileSync(GENERATED, generatedModule());
    console.log(`wrote ${path.relative(root, GENERATED)}`);
  }
}
