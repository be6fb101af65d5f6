import "server-only";
import { z } from "zod";
import type { ProbeResult } from "@/lib/connectors/types";
import type { ChangesPage, PortalEngagementRecord, PortalOwner, RecordOf } from "./records";
import {
  DEFAULT_PAGE_SIZE,
  engagementTypes,
  getAccountDetails,
  listAllObjects,
  listArchivedIds,
  listObjectsPage,
  listOwners,
  readCompanyAssociations,
  SEARCH_CAP,
  searchChanges,
  searchModified,
  searchPosition,
  startPosition,
  type EngagementType,
  type HubspotObjectType,
  type HubspotRecord,
  type PortalUpstream,
} from "./client";
import {
  companyByRecord,
  probeResult,
  toCompanyRecord,
  toContactRecord,
  toDealRecord,
  toEngagementRecord,
  toOwner,
  toPortalCompany,
  toPortalContact,
  toPortalDeal,
  type PortalCompany,
  type PortalContact,
  type PortalDeal,
} from "./map";

// The CRM portal through HubSpot, read with an organisation-level private-app token per portal.
// Incremental reads (for the sync engine) use the search endpoints by modification time; the
// direct reads list every live record.

export { createCrmportalStandIn, standInPortalToken, type CrmportalStandIn, type CrmportalStandInOptions } from "./stand-in";
export {
  HUBSPOT_LIMITS,
  MAX_SEARCH_LIMIT,
  searchIntervalMs,
  type PortalUpstream,
} from "./client";

export const crmportalProduct = "HubSpot";
export const crmportalProbeDescription = "Reads the CRM portal's details and one of its companies";

/** The header value a private-app token is sent with. */
export function portalAuthorization(token: string): string {
  return `Bearer ${token}`;
}

export type ChangeObject = "companies" | "contacts" | "deals" | "engagements";

export interface FetchChangesOptions {
  /** Records per search page, 1 to 200; 100 by default. */
  pageSize?: number;
  /** The portal's search paging cap; HubSpot's 10,000 by default. */
  searchCap?: number;
}

// ── paging cursors ────────────────────────────────────────────────────────────────────────

const CURSOR_VERSION = 1;
const objectCursor = z.object({ v: z.literal(CURSOR_VERSION), o: z.enum(["companies", "contacts", "deals"]), p: searchPosition });
const engagementTotals = z.object({ calls: z.number().int(), meetings: z.number().int(), emails: z.number().int() });
const engagementCursor = z.object({
  v: z.literal(CURSOR_VERSION),
  /** The read's watermark. */
  s: z.number().int().nullable(),
  k: z.enum(engagementTypes),
  p: searchPosition,
  n: engagementTotals,
});

function decode<S extends z.ZodType>(schema: S, after: string): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(after);
  } catch {
    raw = undefined;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new RangeError("after is not a paging position this connector handed out for this object");
  return parsed.data;
}

function changesOptions(opts: FetchChangesOptions): { pageSize: number; searchCap: number } {
  return { pageSize: opts.pageSize ?? DEFAULT_PAGE_SIZE, searchCap: opts.searchCap ?? SEARCH_CAP };
}

// ── incremental reads ─────────────────────────────────────────────────────────────────────

async function companyIdsFor(up: PortalUpstream, from: "deals" | EngagementType, ids: string[]): Promise<Map<string, string>> {
  return ids.length ? companyByRecord(await readCompanyAssociations(up, from, ids)) : new Map();
}

async function objectChanges<T>(
  up: PortalUpstream,
  type: Exclude<HubspotObjectType, EngagementType>,
  since: number | null,
  after: string | null,
  opts: FetchChangesOptions,
  map: (records: HubspotRecord[]) => Promise<T[]>,
): Promise<ChangesPage<T>> {
  let pos = startPosition(since);
  if (after !== null) {
    const c = decode(objectCursor, after);
    if (c.o !== type) throw new RangeError(`after is a paging position of ${c.o}, not of ${type}`);
    pos = c.p;
  }
  const page = await searchChanges(up, type, pos, changesOptions(opts));
  return {
    records: await map(page.results),
    total: page.total,
    after: page.next ? JSON.stringify({ v: CURSOR_VERSION, o: type, p: page.next }) : null,
  };
}

/**
 * Calls, meetings and emails as one stream: each type in turn, oldest change first within a type.
 * The first page also asks the other two types for their totals, so progress has a whole figure.
 */
async function engagementChanges(up: PortalUpstream, since: number | null, after: string | null, opts: FetchChangesOptions): Promise<ChangesPage<PortalEngagementRecord>> {
  const o = changesOptions(opts);
  let c: z.infer<typeof engagementCursor>;
  if (after === null) {
    c = { v: CURSOR_VERSION, s: since, k: "calls", p: startPosition(since), n: { calls: 0, meetings: 0, emails: 0 } };
    for (const other of ["meetings", "emails"] as const) {
      c.n[other] = (await searchModified(up, other, { since, limit: 1, properties: [] })).total;
    }
  } else {
    c = decode(engagementCursor, after);
  }

  for (;;) {
    const kind = c.k;
    const page = await searchChanges(up, kind, c.p, o);
    const totals = { ...c.n, [kind]: page.total };
    const total = totals.calls + totals.meetings + totals.emails;
    const nextKind = engagementTypes[engagementTypes.indexOf(kind) + 1];
    // Each type's search starts from the read's own watermark, whatever restarts the one before made.
    const next = page.next
      ? { ...c, p: page.next, n: totals }
      : nextKind
        ? { ...c, k: nextKind, p: startPosition(c.s), n: totals }
        : null;

    if (page.results.length > 0 || next === null) {
      const companies = await companyIdsFor(
        up,
        kind,
        page.results.map((r) => r.id),
      );
      return {
        records: page.results.map((r) => toEngagementRecord(kind, r, companies.get(r.id) ?? null)),
        total,
        after: next ? JSON.stringify(next) : null,
      };
    }
    // Nothing (more) of this type changed: go straight on rather than hand back an empty page.
    c = next;
  }
}

type Readers = {
  [K in ChangeObject]: (up: PortalUpstream, since: number | null, after: string | null, opts: FetchChangesOptions) => Promise<ChangesPage<RecordOf[K]>>;
};

const readers: Readers = {
  companies: (up, since, after, opts) => objectChanges(up, "companies", since, after, opts, async (rs) => rs.map(toCompanyRecord)),
  contacts: (up, since, after, opts) => objectChanges(up, "contacts", since, after, opts, async (rs) => rs.map(toContactRecord)),
  deals: (up, since, after, opts) =>
    objectChanges(up, "deals", since, after, opts, async (rs) => {
      const companies = await companyIdsFor(
        up,
        "deals",
        rs.map((r) => r.id),
      );
      return rs.map((r) => toDealRecord(r, companies.get(r.id) ?? null));
    }),
  engagements: engagementChanges,
};

/**
 * One page of records modified at or after `since` (all when null), oldest change first, mapped
 * for the sync engine. `after` is the previous page's `after`, opaque; a position carries the
 * read's watermark itself, so later pages continue the read that `since` started. Engagements
 * come type by type (calls, then meetings, then emails), oldest change first within each. A
 * position this connector did not hand out throws a RangeError.
 */
export function fetchChanges<O extends ChangeObject>(
  up: PortalUpstream,
  object: O,
  since: number | null,
  after: string | null,
  opts: FetchChangesOptions = {},
): Promise<ChangesPage<RecordOf[O]>> {
  return readers[object](up, since, after, opts);
}

/** Every owner: active ones and the archived (departed) ones, the latter inactive. */
export async function fetchOwners(up: PortalUpstream): Promise<PortalOwner[]> {
  const active = await listOwners(up, false);
  const archived = await listOwners(up, true);
  const byId = new Map<string, PortalOwner>();
  for (const o of [...active, ...archived]) if (!byId.has(o.id)) byId.set(o.id, toOwner(o));
  return [...byId.values()];
}

/** Ids of every archived (deleted) record; for engagements, of calls, meetings and emails. */
export async function fetchArchivedIds(up: PortalUpstream, object: ChangeObject): Promise<string[]> {
  if (object !== "engagements") return listArchivedIds(up, object);
  const ids: string[] = [];
  for (const type of engagementTypes) ids.push(...(await listArchivedIds(up, type)));
  return ids;
}

// ── direct reads ──────────────────────────────────────────────────────────────────────────

export async function listPortalCompanies(up: PortalUpstream): Promise<PortalCompany[]> {
  return (await listAllObjects(up, "companies", ["name", "domain", "industry", "numberofemployees"])).map(toPortalCompany);
}

export async function listPortalContacts(up: PortalUpstream): Promise<PortalContact[]> {
  return (await listAllObjects(up, "contacts", ["email", "firstname", "lastname", "associatedcompanyid"])).map(toPortalContact);
}

export async function listPortalDeals(up: PortalUpstream): Promise<PortalDeal[]> {
  return (await listAllObjects(up, "deals", ["dealname", "dealstage", "closedate", "amount"], { associations: ["companies"] })).map(toPortalDeal);
}

/** Reads the portal's details and one company: proves the token and its CRM read scope. */
export async function crmportalProbe(up: PortalUpstream): Promise<ProbeResult> {
  const account = await getAccountDetails(up);
  const companies = await listObjectsPage(up, "companies", 1);
  return probeResult(account, companies.total ?? null);
}
