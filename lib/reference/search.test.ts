import { describe, expect, it } from "vitest";
import { anchorSections, linkAnchors, operationRowIds } from "./anchors";
import { allOperations, docsModel } from "./model";
import { searchIndex } from "./search";
import { highlightTerm, searchEntries } from "./search-rank";

const model = docsModel();
const index = searchIndex(model);

describe("the reference's search", () => {
  it("finds a field, an error code and a word of prose first by what they are", () => {
    const field = searchEntries(index.entries, "waitingOn")[0];
    expect(field).toMatchObject({ k: "field" });
    expect(field?.n).toMatch(/(^|\.)waitingOn$/);
    expect(highlightTerm(field!, "waitingOn")).toBe("waitingOn");

    const error = searchEntries(index.entries, "calls_not_opted_in")[0];
    expect(error).toMatchObject({ k: "error", n: "calls_not_opted_in" });
    expect(error?.h).toMatch(/#[a-z0-9-]+--error-calls_not_opted_in$/);

    const prose = searchEntries(index.entries, "heuristic").filter((e) => e.k === "prose");
    expect(prose.length).toBeGreaterThan(0);
    expect(prose[0]?.t?.toLowerCase()).toContain("heuristic");
    expect(searchEntries(index.entries, "zzzz-no-such-thing")).toEqual([]);
  });

  it("points every entry at a section and an id that section's page renders", () => {
    const sections = new Set(model.sections.map((s) => s.slug));
    const ids = new Set<string>(Object.keys(anchorSections(model)));
    for (const op of allOperations(model)) {
      const rows = operationRowIds(op);
      for (const id of [...rows.params, ...rows.requestBodies.flat(), ...rows.responses.flat(), ...rows.errors]) ids.add(id);
    }
    for (const e of index.entries) {
      const [section, anchor] = e.h.split("#");
      expect(sections.has(section as never), e.h).toBe(true);
      expect(ids.has(anchor ?? ""), e.h).toBe(true);
    }
  });

  it("keeps row ids unique on each page", () => {
    for (const s of model.sections) {
      const ids = s.operations.flatMap((op) => {
        const rows = operationRowIds(op);
        return [op.anchor, ...rows.params, ...rows.requestBodies.flat(), ...rows.responses.flat(), ...rows.errors];
      });
      expect(new Set(ids).size, s.slug).toBe(ids.length);
    }
  });

  it("sends a prose link to an anchor of another section to that section's page", () => {
    const map = anchorSections(model);
    expect(map["get-cx-book"]).toBe("cx");
    expect(map["cursor-paging"]).toBe("conventions");
    expect(linkAnchors("see [paging](#cursor-paging) and [x](#nowhere)", map)).toBe("see [paging](/docs/conventions#cursor-paging) and [x](#nowhere)");
  });
});
