import { describe, expect, it } from "vitest";
import { endpoints, errorsOf } from "@/lib/contract/endpoints";
import { checkRules } from "@/lib/check";
import { docsSections } from "./sections";
import { scenarios, variantsFor } from "@/lib/playground/demo-data";
import { llmsText } from "./llms";

const text = llmsText("https://dash.example.test");

describe("llms.txt", () => {
  it("has the llms.txt form: one H1, a summary blockquote, then H2 sections", () => {
    const lines = text.split("\n");
    expect(lines[0]).toBe("# Dashboards playground");
    expect(lines.filter((l) => /^# /.test(l))).toHaveLength(1);
    expect(lines.find((l) => l.trim() !== "" && !l.startsWith("# "))).toMatch(/^> /);
    for (const h of ["## Protocol", "## Writing the dashboard", "## Scenarios and variants", "## Endpoints", "## Static check rules", "## Limits", "## API reference"]) {
      expect(text).toContain(`\n${h}\n`);
    }
  });

  it("names every endpoint with its errors, every scenario and variant, and every check rule", () => {
    for (const e of endpoints) {
      expect(text).toContain(`### GET ${e.path}\n`);
      for (const code of errorsOf(e)) expect(text).toContain(`\`${code}\``);
      for (const v of variantsFor(e.path)) expect(text).toContain(`\`${v}\``);
    }
    for (const s of scenarios) expect(text).toContain(`\`${s.name}\``);
    for (const r of checkRules) expect(text).toContain(`\`${r.id}\``);
  });

  it("states the rules that trip authors up, and that saving is a human action", () => {
    for (const phrase of ["DISTRICT grain", "waitingOn", "derived", "not an SLA", "not \"never touched\"", "Nothing you hold can save", "window.DASHBOARD_API_BASE"]) {
      expect(text).toContain(phrase);
    }
    expect(text).toContain("https://dash.example.test/dashboards/playground/draft");
  });

  it("links each section of the API reference as Markdown, the whole reference and the OpenAPI document", () => {
    const links = [...text.matchAll(/^- \[[^\]]+\]\((https:\/\/[^)]+)\)/gm)].map((m) => m[1]);
    for (const s of docsSections) expect(links).toContain(`https://dash.example.test/docs/${s.slug}.md`);
    expect(links).toContain("https://dash.example.test/docs/index.md");
    expect(links).toContain("https://dash.example.test/openapi.json");
    // The llms.txt convention: "Optional" is the last section.
    expect(text.lastIndexOf("\n## ")).toBe(text.indexOf("\n## Optional\n"));
  });

  it("documents the snapshot fallback: the element, its time and the helper", () => {
    expect(text).toContain("\n## Snapshot fallback\n");
    expect(text).toContain('<script type="application/json" id="dashboard-snapshot" data-taken-at="2026-11-20T06:00:00Z">');
    expect(text).toContain("window.dashboardSnapshot()");
    expect(text).toContain("Showing snapshot data from <time>");
  });
});
