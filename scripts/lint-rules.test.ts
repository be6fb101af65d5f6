import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The lint rules that keep the house in order are themselves tested: a rule that stopped
// matching would let the code drift without anyone noticing.

const eslint = new ESLint({ cwd: process.cwd() });

async function messagesFor(filePath: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath });
  return (result?.messages ?? []).map((m) => m.message);
}

// Loading the configuration takes seconds on the first file.
const SLOW = 60_000;

describe("route files go through the edge", () => {
  it("refuses a handler exported as a function, a constant or a renamed export", async () => {
    for (const text of [
      "export function GET(): Response {\n  return new Response(null);\n}\n",
      "export async function POST(): Promise<Response> {\n  return new Response(null);\n}\n",
      "export const DELETE = (): Response => new Response(null);\n",
      "const handle = (): Response => new Response(null);\nexport { handle as PUT };\n",
    ]) {
      expect(await messagesFor("app/probe/route.ts", text), text).toContain("Route handlers go through the edge: export const { GET, … } = defineRoute({...}).");
    }
  }, SLOW);

  it("takes the methods of one defineRoute", async () => {
    const text = [
      'import { defineRoute } from "@/lib/http/edge";',
      "",
      "export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({",
      '  refuse: "Use GET.",',
      "  methods: (on) => ({ GET: on({ handle: () => new Response(null) }) }),",
      "});",
      "",
    ].join("\n");
    expect(await messagesFor("app/probe/route.ts", text)).toEqual([]);
  }, SLOW);
});

describe("live data reaches a frame only through the consent components", () => {
  const consentOnly = "Only ConsentedFrame decides and only ConsentGate agrees: render someone's dashboard on live data with <ConsentedFrame>, which asks the viewer first.";
  const noCast = "A live-data grant comes only from lib/consent/live.ts, through ConsentedFrame: never cast something to one.";

  it("refuses a page or component that decides or agrees by itself", async () => {
    for (const [file, text] of [
      ["components/editor/Sneaky.tsx", 'import { decideLive } from "@/lib/consent/live";\nexport const d = decideLive;\n'],
      ["app/sneaky/page.tsx", 'import { agree } from "@/lib/consent/live";\nexport const a = agree;\n'],
      ["components/watch/Sneaky.tsx", 'import { startingAgreement as s } from "@/lib/consent/live";\nexport const x = s;\n'],
      ["components/saved/Sneaky.tsx", 'import * as consent from "@/lib/consent/live";\nexport const c = consent;\n'],
    ] as const) {
      expect((await messagesFor(file, text)).join("\n"), `${file}: ${text}`).toContain(consentOnly.slice(0, 60));
    }
  }, SLOW);

  it("refuses a cast to a grant or an agreement anywhere", async () => {
    for (const [file, text] of [
      ["components/editor/Sneaky.tsx", 'import type { LiveGrant } from "@/lib/consent/live";\nexport const g = {} as unknown as LiveGrant;\n'],
      ["lib/playground/sneaky.ts", 'import type { Agreement } from "@/lib/consent/live";\nexport const a = <Agreement>(<unknown>{ paths: [] });\n'],
    ] as const) {
      expect(await messagesFor(file, text), text).toContain(noCast);
    }
  }, SLOW);

  it("lets the consent components do their work, and anyone name the types", async () => {
    expect(await messagesFor("components/dashboard-frame/ConsentGate.tsx", 'import { agree } from "@/lib/consent/live";\nexport const a = agree;\n')).toEqual([]);
    expect(
      await messagesFor("components/dashboard-frame/ConsentedFrame.tsx", 'import { decideLive, startingAgreement } from "@/lib/consent/live";\nexport const d = [decideLive, startingAgreement];\n'),
    ).toEqual([]);
    expect(await messagesFor("components/editor/Fine.tsx", 'import type { CodeAuthor, LiveGrant } from "@/lib/consent/live";\nexport type T = [CodeAuthor, LiveGrant];\n')).toEqual([]);
  }, SLOW);
});

describe("the frame's script is compiled from its own files alone", () => {
  const ownOnly = "lib/frame/scripts/ imports only its own files (./name): the frame's script is compiled from them alone.";

  it("refuses an import from anywhere else, types included", async () => {
    for (const text of [
      'import { FRAME_HEIGHT_MAX } from "../protocol";\nexport const h = FRAME_HEIGHT_MAX;\n',
      'import type { InitMessage } from "@/lib/frame/protocol";\nexport type I = InitMessage;\n',
      'import { z } from "zod";\nexport const s = z.string();\n',
      'import { x } from "./nested/x";\nexport const y = x;\n',
    ]) {
      expect((await messagesFor("lib/frame/scripts/probe.ts", text)).join("\n"), text).toContain(ownOnly);
    }
  }, SLOW);

  it("takes its own files, and leaves its tests free", async () => {
    expect(await messagesFor("lib/frame/scripts/probe.ts", 'import { fmtArgs } from "./console-format";\nexport const f = fmtArgs;\n')).toEqual([]);
    expect(await messagesFor("lib/frame/scripts/probe.test.ts", 'import { isSnapshotTime } from "../snapshot";\nexport const t = isSnapshotTime;\n')).toEqual([]);
  }, SLOW);
});
