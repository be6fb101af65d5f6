import { describe, expect, it } from "vitest";
import { generateTenant } from "./generate";
import { referenceDateAt } from "./dates";

describe("referenceDateAt", () => {
  it("turns at noon UTC, so a tenant made at any hour has nothing later than that hour", () => {
    expect(referenceDateAt(Date.parse("2026-11-24T06:00:00Z"))).toBe("2026-11-23");
    expect(referenceDateAt(Date.parse("2026-11-24T11:59:59Z"))).toBe("2026-11-23");
    expect(referenceDateAt(Date.parse("2026-11-24T12:00:00Z"))).toBe("2026-11-24");
    expect(referenceDateAt(Date.parse("2026-11-24T23:59:59Z"))).toBe("2026-11-24");
  });

  it("gives a tenant whose newest change is not after the moment it was made for", () => {
    const at = Date.parse("2026-11-24T06:00:00Z");
    const tenant = generateTenant({ referenceDate: referenceDateAt(at), scale: 0.2 });
    const newest = Math.max(...tenant.companies.map((c) => c.updatedAt), ...tenant.contacts.map((c) => c.updatedAt), ...tenant.deals.map((d) => d.updatedAt));
    expect(newest).toBeLessThanOrEqual(at);
  });
});
