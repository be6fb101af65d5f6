import { describe, expect, it } from "vitest";
import { checkDraft } from "@/lib/check";
import { isSnapshotTime, SNAPSHOT_ELEMENT_ID, SNAPSHOT_HELPER, SNAPSHOT_TAKEN_AT_ATTRIBUTE } from "@/lib/frame/protocol";
import { dashboardExamples, defaultExampleId, exampleNamed } from "@/demo/examples";
import { SNAPSHOT_TAKEN_AT } from "@/demo/examples/district-health";

const htmlOf = (id: string) => exampleNamed(id)?.html ?? "";

// The editor opens on these: they must show a clean draft, so any finding is a regression.
describe("demo dashboard examples", () => {
  for (const example of dashboardExamples) {
    it(`${example.id} passes the static check without a single finding`, () => {
      expect(checkDraft(example.html)).toEqual([]);
    });

    it(`${example.id} says in words what it shows, for the landing page's list`, () => {
      expect(example.label.trim()).not.toBe("");
      expect(example.description.trim().length).toBeGreaterThan(20);
    });

    it(`${example.id} reads the API base from the page and handles every non-200`, () => {
      expect(example.html).toContain("window.DASHBOARD_API_BASE");
      expect(example.html).toContain("res.ok");
      expect(example.html).toContain("401");
      expect(example.label.length).toBeGreaterThan(0);
      expect(example.description.length).toBeGreaterThan(20);
      expect(example.description.length).toBeLessThan(200);
    });
  }

  it("has unique, URL-safe ids, and the first is the default", () => {
    const ids = dashboardExamples.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(defaultExampleId).toBe(ids[0]);
    expect(exampleNamed("no-such-example")).toBeUndefined();
    expect(dashboardExamples.length).toBeGreaterThanOrEqual(3);
  });

  it("the CX book reads the API base, waits, pages and counts ARR per district", () => {
    const html = htmlOf("cx-book");
    expect(html).toContain("waitingOn");
    expect(html).toContain("nextCursor");
    expect(html).toContain("reasons");
  });

  it("the CRM pipeline pages deals by cursor, reads the summary and says how fresh the data is", () => {
    const html = htmlOf("crm-pipeline");
    expect(html).toContain("/crm/customers/deals?limit=");
    expect(html).toContain("nextCursor");
    expect(html).toContain("cursor=");
    expect(html).toContain("/crm/customers/summary");
    expect(html).toContain("/crm/customers/sources");
    expect(html).toContain("crm_not_synced");
    // A non-monetary CRM has no pipeline: the example must not read it blindly.
    expect(html).toContain("!summary.pipeline");
  });

  it("the district health example embeds a valid snapshot and falls back to it through the frame's helper", () => {
    const html = htmlOf("district-health");
    const match = new RegExp(`<script type="application/json" id="${SNAPSHOT_ELEMENT_ID}" ${SNAPSHOT_TAKEN_AT_ATTRIBUTE}="([^"]+)">([\\s\\S]*?)</script>`).exec(html);
    expect(match).not.toBeNull();
    expect(match?.[1]).toBe(SNAPSHOT_TAKEN_AT);
    expect(isSnapshotTime(SNAPSHOT_TAKEN_AT)).toBe(true);
    const snapshot = JSON.parse(match?.[2] ?? "") as { rows: { name: string; health: { band: string } | null }[] };
    expect(snapshot.rows.length).toBeGreaterThanOrEqual(5);
    for (const row of snapshot.rows) expect(typeof row.name).toBe("string");
    expect(html).toContain(`window.${SNAPSHOT_HELPER}()`);
    expect(html).toContain("/cx/districts");
    expect(html).toContain("waitingOn");
  });

  it("the district health example takes its window from the address and says so in its description", () => {
    const example = exampleNamed("district-health");
    expect(example?.html).toContain("window.DASHBOARD_PARAMS");
    expect(example?.html).toContain('"/cx/districts?days=" + DAYS');
    expect(example?.description).toContain("?p.days");
  });
});
