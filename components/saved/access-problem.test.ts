import { describe, expect, it } from "vitest";
import { accessProblemOf, accessProblems } from "./access-problem";

const live = (path: string, status: number) => ({ path, status, mode: "live" as const });

describe("accessProblemOf", () => {
  it("names the permission a 403 of a guarded endpoint needs, in the viewer's words", () => {
    expect(accessProblemOf(live("/cx/book?owner=me", 403))).toEqual({ kind: "permission", reads: "customer-success views", permission: "cx.read" });
    expect(accessProblemOf(live("/crm/internal/companies", 403))).toEqual({ kind: "permission", reads: "internal CRM records", permission: "crm.internal.read" });
  });

  it("sends a vendor's refusal to the connections page", () => {
    expect(accessProblemOf(live("/vendors/tracker/issues", 401))).toMatchObject({ kind: "connection" });
    expect(accessProblemOf(live("/vendors/support/conversations?cursor=x", 401))).toEqual({ kind: "connection", reads: "support conversations" });
  });

  it("says nothing of answers that are not about access, of demo data, or of the broker's own refusals", () => {
    expect(accessProblemOf(live("/cx/book", 200))).toBeNull();
    expect(accessProblemOf(live("/cx/book", 500))).toBeNull();
    expect(accessProblemOf({ path: "/cx/book", status: 403, mode: "demo" })).toBeNull();
    expect(accessProblemOf({ ...live("/cx/book", 403), refused: { error: "read_not_agreed", reason: "" } })).toBeNull();
  });

  it("tells each problem once", () => {
    expect(accessProblems([live("/cx/book", 403), live("/cx/book?x=1", 403), live("/me", 200)])).toHaveLength(1);
  });
});
