import { describe, expect, it } from "vitest";
import { endpoints, errorsOf } from "@/lib/contract/endpoints";
import { blocksMarkdown, referenceMarkdown, sectionMarkdown } from "./markdown";
import { allOperations, docsModel } from "./model";
import { describeShape } from "@/lib/contract/describe";
import { shorten } from "./examples";

const origin = "https://dash.example.test";
const model = docsModel();

/** Every Markdown table in a text, as rows of cells (escaped pipes kept inside cells). */
function tables(md: string): string[][][] {
  const out: string[][][] = [];
  let current: string[][] | null = null;
  for (const line of md.split("\n")) {
    if (line.startsWith("|")) {
      const cells = line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim());
      (current ??= []).push(cells);
    } else if (current) {
      out.push(current);
      current = null;
    }
  }
  if (current) out.push(current);
  return out;
}

describe("the Markdown sections", () => {
  it("explain the snapshot fallback and saving as the frame and the save route implement them", () => {
    const conventions = sectionMarkdown(model.sections.find((s) => s.slug === "conventions")!, origin);
    expect(conventions).toContain('id="dashboard-snapshot" data-taken-at=');
    expect(conventions).toContain("window.dashboardSnapshot(panel)");
    expect(conventions).toContain("never for a 503 `*_not_configured` or `crm_not_synced`");
    const saving = sectionMarkdown(model.sections.find((s) => s.slug === "saving")!, origin);
    expect(saving).toContain("restoring an earlier revision saves it again as a new revision");
    for (const code of ["invalid_slug", "empty_dashboard", "payload_too_large", "unsupported_media_type"]) expect(saving).toContain(code);
  });

  it("render each section with its title, intro and every operation", () => {
    for (const s of model.sections) {
      const md = sectionMarkdown(s, origin);
      expect(md.startsWith(`# ${s.title}\n`)).toBe(true);
      expect(md).toContain(`${origin}/docs/${s.slug}.`);
      for (const op of s.operations) {
        expect(md).toContain(`\n## ${op.method} ${op.path}\n`);
        expect(md).toContain(`${origin}/docs/${s.slug}#${op.anchor}`);
      }
    }
  });

  it("carry every field, error and example of every endpoint", () => {
    for (const e of endpoints) {
      const op = allOperations(model).find((o) => o.registryId === e.id)!;
      const md = sectionMarkdown(model.sections.find((s) => s.slug === op.section)!, origin);
      // The answer as its shape: every field named, with the meaning the HTML's table gives it.
      expect(md).toContain(describeShape(e.response));
      for (const f of op.responses[0]!.fields) expect(md).toMatch(new RegExp(`\\b${f.name.split(".").pop()!.replace(/\[\]$/, "")}\\??:`));
      for (const code of errorsOf(e)) expect(md).toContain(`| \`${code}\` |`);
      expect(md).toContain(JSON.stringify(shorten(op.example!.body, 1).value, null, 2));
    }
  });

  it("write well-formed tables: every row has the header's number of cells", () => {
    const md = referenceMarkdown(model, origin);
    const all = tables(md);
    expect(all.length).toBeGreaterThan(50);
    for (const t of all) for (const row of t) expect(row.length, row.join(" | ")).toBe(t[0]!.length);
    // A union type keeps its pipes inside one cell.
    expect(md).toContain('| `viewport` | query | "desktop" \\| "phone" |');
  });

  it("fill in the address and make in-page links absolute", () => {
    const md = blocksMarkdown([{ kind: "p", text: "See [paging](#cursor-paging) and [OpenAPI](/openapi.json) at {origin}." }], origin, 2);
    expect(md).toBe(`See [paging](${origin}/docs#cursor-paging) and [OpenAPI](${origin}/openapi.json) at ${origin}.`);
  });

  it("say where saving cannot be scripted, and give the rest curl", () => {
    const saving = sectionMarkdown(model.sections.find((s) => s.slug === "saving")!, origin);
    expect(saving).toContain("No curl: a save is refused unless it comes from the signed-in person's own page");
    expect(saving).not.toContain("curl -sS");
    const crm = sectionMarkdown(model.sections.find((s) => s.slug === "crm")!, origin);
    expect(crm).toContain(`curl -sS -b cookies.txt '${origin}/api/crm/customers/companies?limit=3'`);
  });

  it("join into one reference with contents linking each section", () => {
    const md = referenceMarkdown(model, origin);
    for (const s of model.sections) expect(md).toContain(`- [${s.title}](${origin}/docs/${s.slug}.md)`);
    const outsideCode = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, "");
    expect(outsideCode.match(/^# /gm)).toHaveLength(1);
  });
});
