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
