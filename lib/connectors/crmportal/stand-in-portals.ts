import "server-only";
import { DAY_MS, hashString, isoDateTime, portalIdOf, teamCompanies, type Company, type Contact, type Deal, type Engagement, type Owner, type Tenant } from "@/demo/tenant";
import type { engagementTypes, HubspotObjectType } from "./client";

// The crmportal stand-in's two portals, built from the tenant as HubSpot would hold them: the
// customers portal (the tenant's owners, companies, contacts, deals and engagements) and the
// internal users portal (staff as contacts, one company per team). Every datetime property is
// epoch milliseconds as a string, except `closedate` and `hs_timestamp`, which are ISO timestamps.

export type Props = Record<string, string | null>;

export interface StoredRecord {
  id: string;
  props: Props;
  createdAt: number;
  /** The modification time. */
  updatedAt: number;
  archived: boolean;
  companyId: string | null;
}

export interface StoredOwner {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  userId: number;
  createdAt: number;
  updatedAt: number;
  archived: boolean;
}

export interface Portal {
  portalId: number;
  owners: StoredOwner[];
  records: Record<HubspotObjectType, StoredRecord[]>;
}

const engagementTypeOfKind = { call: "calls", meeting: "meetings", email: "emails" } as const;
const engagementTitleProperty = { calls: "hs_call_title", meetings: "hs_meeting_title", emails: "hs_email_subject" } as const;

const ms = (n: number) => String(n);
const orNull = (v: string | number | null | undefined) => (v === null || v === undefined ? null : String(v));

function splitName(name: string): { firstName: string; lastName: string } {
  const at = name.indexOf(" ");
  return at < 0 ? { firstName: name, lastName: "" } : { firstName: name.slice(0, at), lastName: name.slice(at + 1) };
}

export function customersPortal(tenant: Tenant): Portal {
  const engagements: Record<(typeof engagementTypes)[number], StoredRecord[]> = { calls: [], meetings: [], emails: [] };
  for (const e of tenant.engagements) engagements[engagementTypeOfKind[e.kind]].push(storedEngagement(e));
  return {
    portalId: portalIdOf(tenant, "customers"),
    owners: tenant.owners.map((o) => storedOwner(o, tenant.now)),
    records: {
      companies: tenant.companies.map(storedCompany),
      contacts: tenant.contacts.map(storedContact),
      deals: tenant.deals.map(storedDeal),
      ...engagements,
    },
  };
}

function storedOwner(o: Owner, now: number): StoredOwner {
  const h = hashString(`hubspot-owner:${o.ownerId}`);
  // The tenant keeps no times for owners; derive stable ones from the id.
  const updatedAt = now - ((h % 120) + 1) * DAY_MS - (h % 86_400) * 1000;
  return {
    id: o.ownerId,
    email: o.email,
    ...splitName(o.name),
    userId: 60_000_000 + (h % 9_000_000),
    createdAt: updatedAt - (400 + (h % 300)) * DAY_MS,
    updatedAt,
    archived: !o.active,
  };
}

function storedCompany(c: Company): StoredRecord {
  return {
    id: c.id,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    archived: c.archived,
    companyId: null,
    props: {
      name: c.name,
      domain: c.domain,
      industry: c.industry,
      numberofemployees: String(c.employees),
      hs_parent_company_id: c.parentCompanyId,
      hubspot_owner_id: c.ownerId,
      arr: orNull(c.arr),
      tier: c.tier,
      product_school_id: c.productSchoolId,
      enrolment: orNull(c.enrolment),
      churned_date: c.churnedDate,
      createdate: ms(c.createdAt),
      hs_lastmodifieddate: ms(c.updatedAt),
      hs_object_id: c.id,
    },
  };
}

function storedContact(c: Contact): StoredRecord {
  return {
    id: c.id,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    archived: c.archived,
    companyId: c.companyId,
    props: {
      email: c.email,
      firstname: c.firstName,
      lastname: c.lastName,
      lifecyclestage: c.lifecycleStage,
      associatedcompanyid: c.companyId,
      hubspot_owner_id: c.ownerId,
      createdate: ms(c.createdAt),
      lastmodifieddate: ms(c.updatedAt),
      hs_lastmodifieddate: ms(c.updatedAt),
      hs_object_id: c.id,
    },
  };
}

function storedDeal(d: Deal): StoredRecord {
  return {
    id: d.id,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    archived: d.archived,
    companyId: d.companyId,
    props: {
      dealname: d.name,
      amount: String(d.amount),
      dealstage: d.stage,
      pipeline: "default",
      closedate: `${d.closeDate}T00:00:00.000Z`,
      hubspot_owner_id: d.ownerId,
      createdate: ms(d.createdAt),
      hs_lastmodifieddate: ms(d.updatedAt),
      hs_object_id: d.id,
    },
  };
}

function storedEngagement(e: Engagement): StoredRecord {
  return {
    id: e.id,
    createdAt: e.timestamp,
    updatedAt: e.timestamp,
    archived: false,
    companyId: e.companyId,
    props: {
      hs_timestamp: isoDateTime(e.timestamp),
      hubspot_owner_id: e.ownerId,
      [engagementTitleProperty[engagementTypeOfKind[e.kind]]]: e.subject,
      hs_createdate: ms(e.timestamp),
      hs_lastmodifieddate: ms(e.timestamp),
      hs_object_id: e.id,
    },
  };
}

export function usersPortal(tenant: Tenant): Portal {
  const { teams, ids: teamIds } = teamCompanies(tenant);

  const companies: StoredRecord[] = teams.map((team) => {
    const members = tenant.staff.filter((s) => s.team === team);
    const createdAt = Math.min(...members.map((s) => s.createdAt));
    const updatedAt = Math.max(...members.map((s) => s.updatedAt));
    const id = teamIds.get(team) ?? "";
    return {
      id,
      createdAt,
      updatedAt,
      archived: false,
      companyId: null,
      props: {
        name: team,
        domain: null,
        industry: "Internal",
        numberofemployees: String(members.length),
        hs_parent_company_id: null,
        hubspot_owner_id: null,
        // The internal portal is not monetary: these properties exist but are emptied.
        arr: "",
        tier: "",
        product_school_id: null,
        enrolment: null,
        churned_date: null,
        createdate: ms(createdAt),
        hs_lastmodifieddate: ms(updatedAt),
        hs_object_id: id,
      },
    };
  });

  const contacts: StoredRecord[] = tenant.staff.map((s) => {
    const companyId = teamIds.get(s.team) ?? null;
    return {
      id: s.id,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
      archived: false,
      companyId,
      props: {
        email: s.email,
        firstname: s.firstName,
        lastname: s.lastName,
        lifecyclestage: s.lifecycleStage,
        associatedcompanyid: companyId,
        hubspot_owner_id: null,
        createdate: ms(s.createdAt),
        lastmodifieddate: ms(s.updatedAt),
        hs_lastmodifieddate: ms(s.updatedAt),
        hs_object_id: s.id,
      },
    };
  });

  return {
    portalId: portalIdOf(tenant, "users"),
    owners: [],
    records: { companies, contacts, deals: [], calls: [], meetings: [], emails: [] },
  };
}

