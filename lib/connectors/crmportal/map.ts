import "server-only";
import type { z } from "zod";
import type { portalCompany, portalContact, portalDeal } from "@/lib/contract/resources";
import type { ProbeResult } from "@/lib/connectors/types";
import type {
  EngagementKind,
  PortalCompanyRecord,
  PortalContactRecord,
  PortalDealRecord,
  PortalEngagementRecord,
  PortalOwner,
} from "./records";
import { modifiedAt, parseTimeProperty, type AccountDetails, type AssociationsBatch, type EngagementType, type HubspotOwner, type HubspotProperties, type HubspotRecord } from "./client";

// HubSpot's shapes, in the API's words, mapped to the records the sync engine stores and to the
// contract's direct portal records. HubSpot sends every property as a string (or null), and an
// emptied property often comes back as "" rather than null: both mean "unset" here.

export type PortalCompany = z.infer<typeof portalCompany>;
export type PortalContact = z.infer<typeof portalContact>;
export type PortalDeal = z.infer<typeof portalDeal>;

/** A string property; null when unset or empty. */
export function text(props: HubspotProperties, name: string): string | null {
  const v = props[name];
  if (v === null || v === undefined) return null;
  const trimmed = v.trim();
  return trimmed === "" ? null : trimmed;
}

/** A number property; null when unset, empty or not a number. */
export function numeric(props: HubspotProperties, name: string): number | null {
  const v = text(props, name);
  if (v === null) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/**
 * A date or datetime property as YYYY-MM-DD (UTC): HubSpot sends dates as YYYY-MM-DD, datetimes
 * as ISO timestamps, and older portals epoch milliseconds. Null when unset or unreadable.
 */
export function calendarDate(props: HubspotProperties, name: string): string | null {
  const v = text(props, name);
  if (v === null) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return v;
  const at = parseTimeProperty(v);
  return at === null ? null : new Date(at).toISOString().slice(0, 10);
}

export function toCompanyRecord(r: HubspotRecord): PortalCompanyRecord {
  const p = r.properties;
  return {
    id: r.id,
    name: text(p, "name") ?? "",
    domain: text(p, "domain"),
    industry: text(p, "industry"),
    employees: numeric(p, "numberofemployees"),
    parentCompanyId: text(p, "hs_parent_company_id"),
    arr: numeric(p, "arr"),
    tier: text(p, "tier"),
    ownerId: text(p, "hubspot_owner_id"),
    productSchoolId: text(p, "product_school_id"),
    enrolment: numeric(p, "enrolment"),
    churnedDate: calendarDate(p, "churned_date"),
    updatedAt: modifiedAt("companies", r),
  };
}

export function toContactRecord(r: HubspotRecord): PortalContactRecord {
  const p = r.properties;
  return {
    id: r.id,
    email: text(p, "email"),
    firstName: text(p, "firstname"),
    lastName: text(p, "lastname"),
    companyId: text(p, "associatedcompanyid"),
    lifecycleStage: text(p, "lifecyclestage"),
    updatedAt: modifiedAt("contacts", r),
  };
}

/** HubSpot's "Primary" deal-to-company association. */
const PRIMARY_DEAL_COMPANY_TYPE_ID = 5;

/**
 * Each record's company from an association batch read. Where a record has several, the one
 * labelled primary wins, else the first HubSpot lists.
 */
export function companyByRecord(results: AssociationsBatch["results"]): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of results) {
    const primary = row.to.find((t) => t.associationTypes.some((a) => a.typeId === PRIMARY_DEAL_COMPANY_TYPE_ID || a.label === "Primary"));
    const chosen = primary ?? row.to[0];
    if (chosen) out.set(row.from.id, chosen.toObjectId);
  }
  return out;
}

export function toDealRecord(r: HubspotRecord, companyId: string | null): PortalDealRecord {
  const p = r.properties;
  return {
    id: r.id,
    name: text(p, "dealname") ?? "",
    companyId,
    amount: numeric(p, "amount"),
    stage: text(p, "dealstage"),
    closeDate: calendarDate(p, "closedate"),
    ownerId: text(p, "hubspot_owner_id"),
    updatedAt: modifiedAt("deals", r),
  };
}

const engagementKindOf: Record<EngagementType, EngagementKind> = { calls: "call", meetings: "meeting", emails: "email" };

export function toEngagementRecord(type: EngagementType, r: HubspotRecord, companyId: string | null): PortalEngagementRecord {
  const updatedAt = modifiedAt(type, r);
  return {
    id: r.id,
    kind: engagementKindOf[type],
    companyId,
    ownerId: text(r.properties, "hubspot_owner_id"),
    // A touch without its own timestamp happened when it was logged.
    occurredAt: parseTimeProperty(r.properties.hs_timestamp) ?? parseTimeProperty(r.createdAt) ?? updatedAt,
    updatedAt,
  };
}

export function toOwner(o: HubspotOwner): PortalOwner {
  const email = o.email?.trim() ?? "";
  const name = [o.firstName, o.lastName].map((s) => s?.trim() ?? "").filter((s) => s !== "").join(" ");
  return {
    id: o.id,
    name: name || email || `Owner ${o.id}`,
    email,
    active: !o.archived,
    updatedAt: parseTimeProperty(o.updatedAt) ?? 0,
  };
}

// ── direct reads (the contract's portal records) ──────────────────────────────────────────

export function toPortalCompany(r: HubspotRecord): PortalCompany {
  const p = r.properties;
  return {
    id: r.id,
    name: text(p, "name") ?? "",
    domain: text(p, "domain") ?? "",
    industry: text(p, "industry") ?? "",
    employees: numeric(p, "numberofemployees") ?? 0,
  };
}

export function toPortalContact(r: HubspotRecord): PortalContact {
  const p = r.properties;
  return {
    id: r.id,
    email: text(p, "email") ?? "",
    firstName: text(p, "firstname") ?? "",
    lastName: text(p, "lastname") ?? "",
    companyId: text(p, "associatedcompanyid"),
  };
}

/** The deal's company from the list's inline associations: the primary one, else the first. */
export function inlineDealCompany(r: HubspotRecord): string | null {
  const links = r.associations?.companies?.results ?? [];
  return (links.find((l) => l.type === "deal_to_company") ?? links[0])?.id ?? null;
}

export function toPortalDeal(r: HubspotRecord): PortalDeal {
  const p = r.properties;
  return {
    id: r.id,
    name: text(p, "dealname") ?? "",
    stage: text(p, "dealstage") ?? "",
    closeDate: calendarDate(p, "closedate") ?? "",
    amount: numeric(p, "amount") ?? 0,
    companyId: inlineDealCompany(r),
  };
}

export function probeResult(account: AccountDetails, companiesTotal: number | null): ProbeResult {
  const details = [
    { label: "Portal", value: `${account.portalId} (${account.uiDomain}, ${account.timeZone})` },
    { label: "Currency", value: account.companyCurrency },
  ];
  if (companiesTotal !== null) details.push({ label: "Companies", value: String(companiesTotal) });
  return { summary: `Connected to HubSpot portal ${account.portalId}`, details };
}
