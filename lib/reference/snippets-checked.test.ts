import { describe, expect, it } from "vitest";
import { checkDraft } from "@/lib/check";
import { llmsFullText, llmsText } from "./llms";
import { docsModel } from "./model";
import type { Block } from "./types";

// Every piece of dashboard code the documents show passes the static check: a snippet an agent
// copies must not be what the check then calls an error. Dashboard code is what is labelled html
// or js; a script of the agent's own (Playwright, shell) is labelled otherwise.

/** A snippet as the check reads a draft: html as it is, js inside a script of a page. */
const asDraft = (lang: string, code: string) => (lang === "html" ? code : `<!doctype html><title>snippet</title><script>\n${code}\n</script>`);

function findingsOf(lang: string, code: string): string[] {
  return checkDraft(asDraft(lang, code))
    .filter((w) => w.severity !== "info")
    .map((w) => `${w.rule}: ${w.message}`);
}

function codeBlocks(blocks: readonly Block[]): { lang: string; text: string }[] {
  return blocks.flatMap((b) => (b.kind === "code" ? [{ lang: b.lang, text: b.text }] : []));
}

describe("the documents' dashboard code", () => {
  it("in llms.txt and llms-full.txt passes the static check", () => {
    const text = `${llmsText("https://dash.example.test")}\n${llmsFullText("https://dash.example.test")}`;
    const blocks = [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1] ?? "", text: m[2] ?? "" }));
    const dashboardCode = blocks.filter((b) => b.lang === "html" || b.lang === "js");
    expect(dashboardCode.length).toBeGreaterThan(3);
    for (const b of dashboardCode) expect(findingsOf(b.lang, b.text), b.text.slice(0, 200)).toEqual([]);
  });

  it("in the reference passes the static check", () => {
    const model = docsModel();
    const blocks = model.sections.flatMap((s) => [...codeBlocks(s.intro), ...s.operations.flatMap((o) => codeBlocks(o.description))]);
    const dashboardCode = blocks.filter((b) => b.lang === "html" || b.lang === "js");
    expect(dashboardCode.length).toBeGreaterThan(0);
    for (const b of dashboardCode) expect(findingsOf(b.lang, b.text), b.text.slice(0, 200)).toEqual([]);
  });
});
