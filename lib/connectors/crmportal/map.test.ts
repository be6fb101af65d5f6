import { describe, expect, it } from "vitest";
import { portalCompany, portalContact, portalDeal } from "@/lib/contract/resources";
import { UpstreamError } from "@/lib/connectors/http";
import { accountDetails, associationsBatchResponse, hubspotOwner, hubspotRecord, modifiedAt, parseTimeProperty, searchResponse } from "./client";
import {
  calendarDate,
  companyByRecord,
  inlineDealCompany,
  numeric,
  probeResult,
  text,
  toCompanyRecord,
  toContactRecord,
  toDealRecord,
  toEngagementRecord,
  toOwner,
  toPortalCompany,
  toPortalContact,
  toPortalDeal,
} from "./map";

const record = (id: string, properties: Record<string, string | null>, extra: Record<string, unknown> = {}) =>
  hubspotRecord.parse({ id, properties, createdAt: "2025-01-02T03:04:05.000Z", updatedAt: "2026-11-20T10:00:00.000Z", archived: false, ...extra });

describe("property readers", () => {
  it("reads text, treating null, missing, empty and blank as unset", () => {
    const p = { a: "Growth", b: "", c: "   ", d: null, e: " padded " };
    expect(text(p, "a")).toBe("Growth");
    expect(text(p, "b")).toBeNull();
    expect(text(p, "c")).toBeNull();
    expect(text(p, "d")).toBeNull();
    expect(text(p, "missing")).toBeNull();
    expect(text(p, "e")).toBe("padded");
  });

  it("parses numbers from HubSpot's strings; unset or unreadable is null", () => {
    const p = { arr: "37000", amount: "1234.50", neg: "-5", empty: "", junk: "lots", nothing: null };
    expect(numeric(p, "arr")).toBe(37000);
    expect(numeric(p, "amount")).toBe(1234.5);
    expect(numeric(p, "neg")).toBe(-5);
    expect(numeric(p, "empty")).toBeNull();
    expect(numeric(p, "junk")).toBeNull();
    expect(numeric(p, "nothing")).toBeNull();
  });

  it("reads times as epoch-ms strings or ISO timestamps", () => {
    expect(parseTimeProperty("1790857902942")).toBe(1_790_857_902_942);
    expect(parseTimeProperty("2026-10-01T12:00:00.000Z")).toBe(Date.UTC(2026, 9, 1, 12));
    expect(parseTimeProperty("2026-10-01T12:00:00-04:00")).toBe(Date.UTC(2026, 9, 1, 16));
    expect(parseTimeProperty("")).toBeNull();
    expect(parseTimeProperty("soon")).toBeNull();
    expect(parseTimeProperty(null)).toBeNull();
  });

  it("reads dates as YYYY-MM-DD in UTC, whatever form HubSpot sent", () => {
    const p = {
      date: "2027-03-16",
      midnight: "2027-03-16T00:00:00.000Z",
      late: "2026-11-30T23:30:00-05:00",
      epoch: String(Date.UTC(2026, 0, 31, 18)),
      empty: "",
      junk: "next spring",
    };
    expect(calendarDate(p, "date")).toBe("2027-03-16");
    expect(calendarDate(p, "midnight")).toBe("2027-03-16");
    expect(calendarDate(p, "late")).toBe("2026-12-01");
    expect(calendarDate(p, "epoch")).toBe("2026-01-31");
    expect(calendarDate(p, "empty")).toBeNull();
    expect(calendarDate(p, "junk")).toBeNull();
  });
});

describe("modification time", () => {
  it("comes from the type's modification property", () => {
    expect(modifiedAt("companies", record("1", { hs_lastmodifieddate: "1700000000123" }))).toBe(1_700_000_000_123);
    // Contacts keep it in lastmodifieddate; hs_lastmodifieddate is not what HubSpot sorts them by.
    expect(modifiedAt("contacts", record("2", { lastmodifieddate: "1700000000456", hs_lastmodifieddate: "1" }))).toBe(1_700_000_000_456);
  });

  it("falls back to the record's updatedAt, and fails as bad_response with neither", () => {
    expect(modifiedAt("deals", record("3", { hs_lastmodifieddate: null }))).toBe(Date.UTC(2026, 10, 20, 10));
    const bare = hubspotRecord.parse({ id: "4", properties: {} });
    expect(() => modifiedAt("deals", bare)).toThrow(UpstreamError);
    try {
      modifiedAt("deals", bare);
    } catch (e) {
      expect((e as UpstreamError).kind).toBe("bad_response");
    }
  });

  it("refuses a property value that is not a string or null", () => {
    expect(searchResponse.safeParse({ total: 1, results: [{ id: "1", properties: { amount: 5 } }] }).success).toBe(false);
  });
});

describe("records for the sync engine", () => {
  it("maps a school company, numbers parsed and the district's ARR carried", () => {
    const r = record("6210183954", {
      name: "Maple Elementary",
      domain: "maple.eastfallscs.demo.test",
      industry: "Primary/Secondary Education",
      numberofemployees: "48",
      hs_parent_company_id: "6210001867",
      hubspot_owner_id: "41207064",
      arr: "37000",
      tier: "Growth",
      product_school_id: "sch_812",
      enrolment: "412",
      churned_date: "",
      hs_lastmodifieddate: "1790857902942",
    });
    expect(toCompanyRecord(r)).toEqual({
      id: "6210183954",
      name: "Maple Elementary",
      domain: "maple.eastfallscs.demo.test",
      industry: "Primary/Secondary Education",
      employees: 48,
      parentCompanyId: "6210001867",
      arr: 37000,
      tier: "Growth",
      ownerId: "41207064",
      productSchoolId: "sch_812",
      enrolment: 412,
      churnedDate: null,
      updatedAt: 1_790_857_902_942,
    });
  });

  it("maps a non-monetary company's emptied ARR and tier to null", () => {
    const out = toCompanyRecord(record("8100000001", { name: "Support", arr: "", tier: "", numberofemployees: "3", hs_lastmodifieddate: "1700000000000" }));
    expect(out).toMatchObject({ name: "Support", arr: null, tier: null, employees: 3, domain: null, parentCompanyId: null, churnedDate: null });
  });

  it("maps a contact, its company from associatedcompanyid", () => {
    const r = record("1000273", {
      email: "sofia.young@eastfallscs.demo.test",
      firstname: "Sofia",
      lastname: "Young",
      lifecyclestage: "marketingqualifiedlead",
      associatedcompanyid: "6210001867",
      lastmodifieddate: "1791145504799",
    });
    expect(toContactRecord(r)).toEqual({
      id: "1000273",
      email: "sofia.young@eastfallscs.demo.test",
      firstName: "Sofia",
      lastName: "Young",
      companyId: "6210001867",
      lifecycleStage: "marketingqualifiedlead",
      updatedAt: 1_791_145_504_799,
    });
    expect(toContactRecord(record("5", { associatedcompanyid: "", lastmodifieddate: "1" })).companyId).toBeNull();
  });

  it("maps a deal with its associated company, or null; an unset amount is null", () => {
    const r = record("9810006421", {
      dealname: "East Falls Community Schools — Renewal FY27",
      amount: "37000",
      dealstage: "qualifiedtobuy",
      closedate: "2027-03-16T00:00:00.000Z",
      hubspot_owner_id: "41207064",
      hs_lastmodifieddate: "1794317524979",
    });
    expect(toDealRecord(r, "6210001867")).toEqual({
      id: "9810006421",
      name: "East Falls Community Schools — Renewal FY27",
      companyId: "6210001867",
      amount: 37000,
      stage: "qualifiedtobuy",
      closeDate: "2027-03-16",
      ownerId: "41207064",
      updatedAt: 1_794_317_524_979,
    });
    const loose = toDealRecord(record("9810000001", { dealname: "Unattached", amount: "", hs_lastmodifieddate: "1" }), null);
    expect(loose).toMatchObject({ companyId: null, amount: null, closeDate: null, stage: null });
  });

  it("maps engagements by type, the touch time from hs_timestamp", () => {
    const r = record("40120016557", { hs_timestamp: "2025-11-22T17:10:00.000Z", hubspot_owner_id: "41207064", hs_lastmodifieddate: "1763831400000" });
    expect(toEngagementRecord("meetings", r, "6210183954")).toEqual({
      id: "40120016557",
      kind: "meeting",
      companyId: "6210183954",
      ownerId: "41207064",
      occurredAt: Date.UTC(2025, 10, 22, 17, 10),
      updatedAt: 1_763_831_400_000,
    });
    expect(toEngagementRecord("calls", r, null).kind).toBe("call");
    expect(toEngagementRecord("emails", r, null)).toMatchObject({ kind: "email", companyId: null });
    // Without its own timestamp a touch happened when it was created.
    expect(toEngagementRecord("calls", record("7", { hs_lastmodifieddate: "1800000000000" }), null).occurredAt).toBe(Date.UTC(2025, 0, 2, 3, 4, 5));
  });
});

describe("associations", () => {
  it("picks the primary company, else the first; a record without one has no entry", () => {
    const batch = associationsBatchResponse.parse({
      status: "COMPLETE",
      results: [
        {
          from: { id: "d1" },
          to: [
            { toObjectId: 111, associationTypes: [{ category: "HUBSPOT_DEFINED", typeId: 341, label: null }] },
            { toObjectId: 222, associationTypes: [{ category: "HUBSPOT_DEFINED", typeId: 5, label: "Primary" }] },
          ],
        },
        { from: { id: "c1" }, to: [{ toObjectId: "333", associationTypes: [{ category: "HUBSPOT_DEFINED", typeId: 182 }] }, { toObjectId: 444, associationTypes: [] }] },
        { from: { id: "empty" }, to: [] },
      ],
      numErrors: 1,
      errors: [{ status: "error", category: "OBJECT_NOT_FOUND", message: "No company is associated with deals d2." }],
    });
    const map = companyByRecord(batch.results);
    expect(map.get("d1")).toBe("222");
    expect(map.get("c1")).toBe("333");
    expect(map.has("empty")).toBe(false);
    expect(map.has("d2")).toBe(false);
  });

  it("reads a listed deal's inline company, preferring the labelled association", () => {
    const withBoth = record("d", {}, {
      associations: {
        companies: {
          results: [
            { id: "900", type: "deal_to_company_unlabeled" },
            { id: "901", type: "deal_to_company" },
          ],
        },
      },
    });
    expect(inlineDealCompany(withBoth)).toBe("901");
    expect(inlineDealCompany(record("d", {}, { associations: { companies: { results: [{ id: "902", type: "deal_to_company_unlabeled" }] } } }))).toBe("902");
    expect(inlineDealCompany(record("d", {}))).toBeNull();
  });
});

describe("owners", () => {
  it("names an owner from first and last name; archived means departed", () => {
    const o = hubspotOwner.parse({
      id: "41230374",
      email: "dana.whitfield@demo.test",
      firstName: "Dana",
      lastName: "Whitfield",
      archived: true,
      updatedAt: "2026-06-01T09:00:00.000Z",
      userId: 61234567,
    });
    expect(toOwner(o)).toEqual({ id: "41230374", name: "Dana Whitfield", email: "dana.whitfield@demo.test", active: false, updatedAt: Date.UTC(2026, 5, 1, 9) });
  });

  it("falls back to the email, then the id, for an owner without a name", () => {
    const base = { id: "7", archived: false, updatedAt: "2026-06-01T09:00:00.000Z" };
    expect(toOwner(hubspotOwner.parse({ ...base, email: "ops@demo.test", firstName: "", lastName: null })).name).toBe("ops@demo.test");
    expect(toOwner(hubspotOwner.parse({ ...base, email: null })).name).toBe("Owner 7");
    expect(toOwner(hubspotOwner.parse({ ...base, email: null })).active).toBe(true);
  });
});

describe("direct portal records", () => {
  it("fills a company's missing strings with empty strings and employees with 0", () => {
    const out = toPortalCompany(record("1", { name: "Support", domain: null, industry: "", numberofemployees: null }));
    expect(out).toEqual({ id: "1", name: "Support", domain: "", industry: "", employees: 0 });
    expect(portalCompany.parse(out)).toEqual(out);
  });

  it("keeps a contact's company null when it has none", () => {
    const out = toPortalContact(record("2", { email: "a@b.test", firstname: "A", lastname: null, associatedcompanyid: "" }));
    expect(out).toEqual({ id: "2", email: "a@b.test", firstName: "A", lastName: "", companyId: null });
    expect(portalContact.parse(out)).toEqual(out);
  });

  it("gives an unattached deal companyId null and an unset amount 0", () => {
    const out = toPortalDeal(record("3", { dealname: "Pilot", dealstage: "appointmentscheduled", closedate: "2026-12-01T00:00:00Z", amount: "" }));
    expect(out).toEqual({ id: "3", name: "Pilot", stage: "appointmentscheduled", closeDate: "2026-12-01", amount: 0, companyId: null });
    expect(portalDeal.parse(out)).toEqual(out);
  });
});

describe("probeResult", () => {
  const account = accountDetails.parse({ portalId: 24512345, timeZone: "America/New_York", companyCurrency: "USD", uiDomain: "app.hubspot.com", accountType: "STANDARD" });

  it("names the portal and currency", () => {
    expect(probeResult(account, null)).toEqual({
      summary: "Connected to HubSpot portal 24512345",
      details: [
        { label: "Portal", value: "24512345 (app.hubspot.com, America/New_York)" },
        { label: "Currency", value: "USD" },
      ],
    });
  });

  it("adds the companies total when the portal gave one", () => {
    expect(probeResult(account, 161).details.at(-1)).toEqual({ label: "Companies", value: "161" });
  });
});
