import fs from "node:fs";
import { createRequire } from "node:module";
import { expect, type Frame, type Page } from "@playwright/test";

// axe-core injected into the page (the Playwright wrapper for it needs a newer Node than ours).
// The message of a failure lists each rule with the nodes it matched, so it says what to fix.

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

type AxeNode = { target: unknown[]; failureSummary?: string };
type AxeViolation = { id: string; impact: string | null; help: string; tags: string[]; nodes: AxeNode[] };

/** The WCAG 2.2 AA rule set: levels A and AA of every version up to it (2.2 brings target size). */
export const WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const;

/**
 * Every finding on the page of any impact: under the rules of `tags` alone, or, without, under
 * every rule axe runs by default together with every WCAG 2.2 AA rule (target size is one axe
 * leaves off by default).
 */
export async function pageViolations(page: Page, tags?: readonly string[]): Promise<AxeViolation[]> {
  // Once per document: a page checked again (another size, another state) keeps the copy it has.
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(
    async ({ tags, wcag }) => {
      const axe = (
        window as unknown as {
          axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: unknown[] }>; getRules: (tags: string[]) => { ruleId: string }[] };
        }
      ).axe;
      // Dashboard HTML inside the sandboxed frame is the author's, not the page's: axe cannot
      // reach into an opaque-origin frame anyway, so it is left out rather than reported as a gap.
      const options = tags
        ? { resultTypes: ["violations"], runOnly: { type: "tag", values: tags } }
        : { resultTypes: ["violations"], rules: Object.fromEntries(axe.getRules(wcag).map((r) => [r.ruleId, { enabled: true }])) };
      const result = await axe.run({ exclude: [["iframe"]] }, options);
      return result.violations;
    },
    { tags: tags ? [...tags] : null, wcag: [...WCAG_22_AA] },
  );
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

/**
 * Both bars in one run of axe, described ("" when the page meets them): no WCAG 2.2 AA finding of
 * any impact, and no serious or critical finding under any other rule (a dialog without a name, a
 * field labelled only by its title).
 */
export async function accessibilityFindings(page: Page): Promise<string> {
  const wcag = new Set<string>(WCAG_22_AA);
  return describe((await pageViolations(page)).filter((v) => v.tags.some((t) => wcag.has(t)) || v.impact === "serious" || v.impact === "critical"));
}
