import { describe, expect, it } from "vitest";
import { endpoints, errorsOf } from "@/lib/contract/endpoints";
import { checkRules } from "@/lib/playground/check";
import { scenarios, variantsFor } from "@/demo/playground";
import { llmsText } from "./llms";

const text = llmsText("https://dash.example.test");

describe("llms.txt", () => {
  it("has the llms.txt form: one H1, a summary blockquote, then H2 sections", () => {
    const lines = text.split("\n");
    expect(lines[0]).toBe("# Dashboards playground");
    expect(lines.filter((l) => /^# /.test(l))).toHaveLength(1);
    expect(lines.find((l) => l.trim() !== "" && !l.startsWith("# "))).toMatch(/^> /);
    for (const h of ["## Protocol", "## Writing the dashboard", "## Scenarios and variants", "## Endpoints", "## Static check rules", "## Limits"]) {
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
});
