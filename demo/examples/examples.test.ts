import { describe, expect, it } from "vitest";
import { checkDraft } from "@/lib/playground/check";
import { dashboardExamples } from "./index";

// The editor opens on these: they must show a clean draft, so any finding is a regression.
describe("demo dashboard examples", () => {
  for (const example of dashboardExamples) {
    it(`${example.id} passes the static check without a single finding`, () => {
      expect(checkDraft(example.html)).toEqual([]);
    });
  }

  it("the CX book reads the API base, waits, pages and counts ARR per district", () => {
    const html = dashboardExamples.find((e) => e.id === "cx-book")?.html ?? "";
    expect(html).toContain("window.DASHBOARD_API_BASE");
    expect(html).toContain("res.ok");
    expect(html).toContain("waitingOn");
    expect(html).toContain("nextCursor");
    expect(html).toContain("reasons");
  });
});
