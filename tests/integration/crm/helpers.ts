import { generateTenant, type Tenant } from "@/demo/tenant";
import { createCrmportalStandIn, standInPortalToken, type CrmportalStandIn, type CrmportalStandInOptions, type PortalUpstream } from "@/lib/connectors/crmportal";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import type { CrmInstance } from "@/lib/connectors/crmportal/records";
import type { Db } from "@/lib/db";
import { testSealer } from "../support/backends";

// The CRM portal's stand-in over loopback HTTP, serving a tenant that tests can change: a
// change builds a new stand-in from the changed tenant (tokens stay valid, being MACs under the
// same key), which is how records change "in the portal" between sync runs.
//
// Unless told otherwise it allows requests far faster than HubSpot does, and the client paces
// searches to the same figure, so tests about what a sync stores do not spend seconds on the
// limits; the tests about the limits give HubSpot's own.

/** The search limit of these tests' portals unless a test sets one. */
export const FAST_SEARCHES_PER_SECOND = 1_000;

export interface Portal {
  readonly url: string;
  tenant: Tenant;
  standIn: CrmportalStandIn;
  /** Replaces what the portal serves with a changed copy of the tenant. */
  change(mutate: (t: Tenant) => void): Tenant;
  /** Serves the given tenant again, unchanged, with no faults queued. */
  reset(t: Tenant): void;
  /** A sync's options, paced to the portal's search limit; no retries unless `extra` says. */
  upstream(instance: CrmInstance, extra?: Partial<PortalUpstream>): PortalUpstream;
  /** Requests to one path seen since the last change or clear. */
  requests(pathIncludes: string): number;
  close(): Promise<void>;
}

/** The stand-in's options, and its clock (tests move it to pass the portal's windows). */
export interface PortalOptions extends CrmportalStandInOptions {
  now?: () => number;
}

export async function startPortal(tenant: Tenant = generateTenant(), port = 0, opts: PortalOptions = {}): Promise<Portal> {
  const { now, ...rest } = opts;
  const options: CrmportalStandInOptions = { ...rest, limits: { searchesPerSecond: FAST_SEARCHES_PER_SECOND, requestsPerTenSeconds: 10 * FAST_SEARCHES_PER_SECOND, ...rest.limits } };
  const make = (t: Tenant) => createCrmportalStandIn({ tenant: t, sealer: testSealer, ...(now ? { now } : {}) }, options);
  let standIn = make(tenant);
  const served: Served = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname), port);
  const portal: Portal = {
    url: served.url,
    tenant,
    get standIn() {
      return standIn;
    },
    set standIn(s: CrmportalStandIn) {
      standIn = s;
    },
    change(mutate) {
      const next = structuredClone(portal.tenant);
      mutate(next);
      portal.tenant = next;
      standIn = make(next);
      return next;
    },
    reset(t) {
      portal.tenant = t;
      standIn = make(t);
    },
    upstream: (instance, extra = {}) => ({
      baseUrl: served.url,
      authorization: `Bearer ${standInPortalToken(standIn, instance)}`,
      timeoutMs: 10_000,
      maxRetries: 0,
      searchesPerSecond: standIn.limits.configured.searchesPerSecond,
      ...extra,
    }),
    requests: (pathIncludes) => standIn.faults.seen.filter((s) => s.path.includes(pathIncludes)).length,
    close: () => served.close(),
  };
  return portal;
}

/** The records the customers portal serves: every record not archived. */
export function live(t: Tenant) {
  return {
    owners: t.owners,
    companies: t.companies.filter((c) => !c.archived),
    contacts: t.contacts.filter((c) => !c.archived),
    deals: t.deals.filter((d) => !d.archived),
    engagements: t.engagements,
  };
}

export function totalRecords(t: Tenant): number {
  const l = live(t);
  return l.owners.length + l.companies.length + l.contacts.length + l.deals.length + l.engagements.length;
}

/** A portal token that any stand-in under the test key accepts, before one is listening. */
export function portalToken(instance: CrmInstance, tenant: Tenant): string {
  return standInPortalToken(createCrmportalStandIn({ tenant, sealer: testSealer }), instance);
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Every stored row of the instance except the sync times, in id order: what a sync must produce. */
export async function snapshot(db: Db, instance: CrmInstance) {
  const [owners, companies, contacts, deals, engagements] = await Promise.all([
    db.selectFrom("crm_owners").select(["id", "name", "email", "active", "source_updated_at"]).where("instance", "=", instance).execute(),
    db
      .selectFrom("crm_companies")
      .select(["id", "name", "domain", "industry", "employees", "parent_company_id", "arr", "tier", "owner_id", "product_school_id", "enrolment", "churned_date", "source_updated_at"])
      .where("instance", "=", instance)
      .execute(),
    db
      .selectFrom("crm_contacts")
      .select(["id", "email", "first_name", "last_name", "company_id", "lifecycle_stage", "source_updated_at"])
      .where("instance", "=", instance)
      .execute(),
    db
      .selectFrom("crm_deals")
      .select(["id", "name", "company_id", "amount", "stage", "close_date", "owner_id", "source_updated_at"])
      .where("instance", "=", instance)
      .execute(),
    db
      .selectFrom("crm_engagements")
      .select(["id", "kind", "company_id", "owner_id", "occurred_at", "source_updated_at"])
      .where("instance", "=", instance)
      .execute(),
  ]);
  return {
    owners: owners.map((o) => ({ ...o, active: Number(o.active) })).sort(byId),
    companies: companies.sort(byId),
    contacts: contacts.sort(byId),
    deals: deals.sort(byId),
    engagements: engagements.sort(byId),
  };
}

export async function watermarkOf(db: Db, instance: CrmInstance, object: string): Promise<number | null> {
  const row = await db.selectFrom("crm_sync_state").select("watermark").where("instance", "=", instance).where("object", "=", object).executeTakeFirst();
  return row?.watermark ?? null;
}

export async function runsOf(db: Db, instance: CrmInstance) {
  return db.selectFrom("crm_sync_runs").selectAll().where("instance", "=", instance).orderBy("id").execute();
}

export const maxOf = (xs: readonly number[]) => xs.reduce((m, x) => Math.max(m, x), -Infinity);
