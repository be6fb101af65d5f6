import { describe, expect, it } from "vitest";
import type { CrmSource } from "@/lib/contract/resources";
import { crmCharts, describeBars, formatMoneyShort, freshnessRows, hasAmounts, sourceStatusText } from "./crm-data";

describe("crmCharts", () => {
  it("puts pipeline stages in funnel order with their names, whatever order they arrive in", () => {
    const charts = crmCharts({
      totals: { contacts: 0, companies: 0, deals: 6 },
      pipeline: [
        { stage: "closedwon", count: 1, amount: 500 },
        { stage: "custom-stage", count: 2, amount: 10 },
        { stage: "appointmentscheduled", count: 3, amount: 300 },
      ],
    });
    expect(charts.pipeline).toEqual([
      { stage: "appointmentscheduled", label: "Appointment scheduled", count: 3, amount: 300 },
      { stage: "closedwon", label: "Closed won", count: 1, amount: 500 },
      { stage: "custom-stage", label: "custom-stage", count: 2, amount: 10 },
    ]);
  });

  it("orders lifecycle stages from subscriber to customer", () => {
    const charts = crmCharts({
      totals: { contacts: 6, companies: 1, deals: 0 },
      lifecycle: [
        { stage: "customer", count: 1 },
        { stage: "lead", count: 2 },
        { stage: "subscriber", count: 3 },
      ],
    });
    expect(charts.lifecycle.map((l) => l.label)).toEqual(["Subscriber", "Lead", "Customer"]);
  });

  it("keeps a missing pipeline apart from an empty one, and a missing amount as null", () => {
    expect(crmCharts({ totals: { contacts: 0, companies: 0, deals: 0 } }).pipeline).toBeNull();
    expect(crmCharts({ totals: { contacts: 0, companies: 0, deals: 0 }, pipeline: [] }).pipeline).toEqual([]);
    const noMoney = crmCharts({ totals: { contacts: 0, companies: 0, deals: 1 }, pipeline: [{ stage: "closedwon", count: 1 }] });
    expect(noMoney.pipeline?.[0]?.amount).toBeNull();
    expect(hasAmounts(noMoney.pipeline ?? [])).toBe(false);
  });
});

describe("describeBars", () => {
  it("reads out the total and the largest bar", () => {
    const text = describeBars("Deals by stage", [
      { label: "Lead", value: 2 },
      { label: "Closed won", value: 5 },
    ], String);
    expect(text).toBe("Deals by stage, 2 stages, 7 in all; the largest is Closed won with 5.");
  });

  it("says when there is nothing to read", () => {
    expect(describeBars("Contacts by lifecycle stage", [], String)).toBe("Contacts by lifecycle stage: no data.");
  });

  it("shortens money for axis ticks", () => {
    expect(formatMoneyShort(1_250_000)).toBe("$1.3M");
  });
});

const source = (over: Partial<CrmSource>): CrmSource => ({
  connector: "crmportal",
  title: "CRM portal",
  status: "ok",
  lastRunAt: 1_000,
  lastSuccessAt: 2_000,
  progress: null,
  objects: [
    { object: "companies", watermark: 1_500, rows: 40 },
    { object: "deals", watermark: null, rows: 0 },
  ],
  lastError: null,
  ...over,
});

describe("freshnessRows", () => {
  it("gives one row per object of each source, carrying the source's last success", () => {
    expect(freshnessRows([source({})])).toEqual([
      { id: "crmportal:companies", source: "CRM portal", status: "Synced", object: "Companies", rows: 40, newestChange: 1_500, lastSuccess: 2_000 },
      { id: "crmportal:deals", source: "CRM portal", status: "Synced", object: "Deals", rows: 0, newestChange: null, lastSuccess: 2_000 },
    ]);
  });

  it("describes each sync state, with progress while running", () => {
    expect(sourceStatusText(source({ status: "running", progress: { done: 50, expected: 200 } }))).toBe("Syncing (25%)");
    expect(sourceStatusText(source({ status: "running", progress: { done: 50, expected: null } }))).toBe("Syncing");
    expect(sourceStatusText(source({ status: "never_run" }))).toBe("Not synced yet");
    expect(sourceStatusText(source({ status: "failed" }))).toBe("Last sync failed");
  });
});
