import fs from "node:fs";
import { createRequire } from "node:module";
import { expect, type Frame, type Page } from "@playwright/test";

// axe-core injected into the page (the Playwright wrapper for it needs a newer Node than ours).
// The message of a failure lists each rule with the nodes it matched, so it says what to fix.

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

type AxeNode = { target: unknown[]; failureSummary?: string };
type AxeViolation = { id: string; impact: string | null; help: string; nodes: AxeNode[] };

/** The WCAG 2.2 AA rule set: levels A and AA of every version up to it (2.2 brings target size). */
export const WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const;

/** Every finding on the page of any impact, under the rules of `tags` (every rule without). */
export async function pageViolations(page: Page, tags?: readonly string[]): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: unknown[] }> } }).axe;
    // Dashboard HTML inside the sandboxed frame is the author's, not the page's: axe cannot
    // reach into an opaque-origin frame anyway, so it is left out rather than reported as a gap.
    const options = tags ? { resultTypes: ["violations"], runOnly: { type: "tag", values: tags } } : { resultTypes: ["violations"] };
    const result = await axe.run({ exclude: [["iframe"]] }, options);
    return result.violations;
  }, tags ? [...tags] : null);
  return violations as AxeViolation[];
}

const serious = (found: AxeViolation[]) => found.filter((v) => v.impact === "serious" || v.impact === "critical");

export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return serious(await pageViolations(page));
}

/**
 * The same rules inside a dashboard's own document. Its frame has an opaque origin and a policy
 * that allows no script from elsewhere, so axe is evaluated there through the browser's
 * debugging protocol, which neither the origin nor the policy governs.
 */
export async function seriousViolationsInFrame(frame: Frame): Promise<AxeViolation[]> {
  await frame.evaluate(fs.readFileSync(axePath, "utf8"));
  const violations = await frame.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations;
  });
  return serious(violations as AxeViolation[]);
}

function describe(found: AxeViolation[]): string {
  return found
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${JSON.stringify(n.target)} ${n.failureSummary ?? ""}`).join("\n")}`)
    .join("\n");
}

/** No serious or critical finding under any rule. */
export async function expectNoSeriousViolations(target: Page | Frame): Promise<void> {
  const found = "mainFrame" in target ? await seriousViolations(target) : await seriousViolationsInFrame(target);
  expect(found, describe(found)).toEqual([]);
}

/** No finding at all, of any impact, under the WCAG 2.2 AA rules (outside dashboard frames). */
export async function expectWcagAaClean(page: Page): Promise<void> {
  const found = await pageViolations(page, WCAG_22_AA);
  expect(found, describe(found)).toEqual([]);
}
