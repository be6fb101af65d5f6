import "server-only";
import { z } from "zod";
import { upstreamJson, UpstreamError, type UpstreamOptions } from "@/lib/connectors/http";

// A typed client of the HubSpot CRM v3 API (and the v4 association reads) for the parts the sync
// and the direct reads need: searches by modification time, whole object lists, archived ids,
// owners, association batch reads and the account details. Every answer is parsed with zod, so
// a changed API fails as `bad_response` rather than as wrong data.

/** HubSpot refuses to page a search past this many results (a 400). */
export const SEARCH_CAP = 10_000;
/** HubSpot's ceiling for `limit` on a search. */
export const MAX_SEARCH_LIMIT = 200;
export const DEFAULT_PAGE_SIZE = 100;
/** HubSpot's ceiling for `limit` on a plain object list. */
export const LIST_LIMIT = 100;
/** Enough for 500,000 records at 100 a page; beyond that a listing is refused rather than truncated. */
export const MAX_LIST_PAGES = 5_000;
/** HubSpot's ceiling for inputs of one association batch read. */
export const MAX_BATCH_INPUTS = 1_000;

export const searchableTypes = ["companies", "contacts", "deals", "calls", "meetings", "emails"] as const;
export type HubspotObjectType = (typeof searchableTypes)[number];
export const engagementTypes = ["calls", "meetings", "emails"] as const;
export type EngagementType = (typeof engagementTypes)[number];

/**
 * The property each type's modification time is kept in. Contacts keep theirs in
 * `lastmodifieddate` (HubSpot's own default for contact searches); everything else in
 * `hs_lastmodifieddate`.
 */
export const modifiedProperty: Record<HubspotObjectType, string> = {
  companies: "hs_lastmodifieddate",
  contacts: "lastmodifieddate",
  deals: "hs_lastmodifieddate",
  calls: "hs_lastmodifieddate",
  meetings: "hs_lastmodifieddate",
  emails: "hs_lastmodifieddate",
};

/** What the sync reads of each type (the modification property is always added). */
export const syncProperties: Record<HubspotObjectType, readonly string[]> = {
  companies: [
    "name",
    "domain",
    "industry",
    "numberofemployees",
    "hs_parent_company_id",
    "hubspot_owner_id",
    "arr",
    "tier",
    "product_school_id",
    "enrolment",
    "churned_date",
  ],
  contacts: ["email", "firstname", "lastname", "lifecyclestage", "associatedcompanyid"],
  deals: ["dealname", "amount", "dealstage", "closedate", "hubspot_owner_id"],
  calls: ["hs_timestamp", "hubspot_owner_id"],
  meetings: ["hs_timestamp", "hubspot_owner_id"],
  emails: ["hs_timestamp", "hubspot_owner_id"],
};

// ── shapes ────────────────────────────────────────────────────────────────────────────────

/** HubSpot sends every property value as a string, or null when unset. */
export const hubspotProperties = z.record(z.string(), z.string().nullable());
export type HubspotProperties = z.infer<typeof hubspotProperties>;

const paging = z.object({ next: z.object({ after: z.string().min(1) }).optional() }).optional();

export const hubspotRecord = z.object({
  id: z.string().min(1),
  properties: hubspotProperties,
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  archived: z.boolean().optional(),
  associations: z
    .record(z.string(), z.object({ results: z.array(z.object({ id: z.string().min(1), type: z.string() })) }))
    .optional(),
});
export type HubspotRecord = z.infer<typeof hubspotRecord>;

export const searchResponse = z.object({ total: z.number().int().min(0), results: z.array(hubspotRecord), paging });
export type SearchResponse = z.infer<typeof searchResponse>;

export const listResponse = z.object({
  results: z.array(hubspotRecord),
  paging,
  /** Not part of HubSpot's list answer today; read when present. */
  total: z.number().int().min(0).optional(),
});
export type ListResponse = z.infer<typeof listResponse>;

export const archivedListResponse = z.object({
  results: z.array(z.object({ id: z.string().min(1), archived: z.literal(true), archivedAt: z.string().optional() })),
  paging,
});

export const hubspotOwner = z.object({
  id: z.string().min(1),
  email: z.string().nullish(),
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  archived: z.boolean(),
  updatedAt: z.string(),
});
export type HubspotOwner = z.infer<typeof hubspotOwner>;
export const ownersResponse = z.object({ results: z.array(hubspotOwner), paging });

export const associationType = z.object({ category: z.string(), typeId: z.number().int(), label: z.string().nullish() });
export const associationsBatchResponse = z.object({
  results: z.array(
    z.object({
      from: z.object({ id: z.string().min(1) }),
      to: z.array(
        z.object({
          // HubSpot sends the id as a number; a string is read the same.
          toObjectId: z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform(String),
          associationTypes: z.array(associationType),
        }),
      ),
    }),
  ),
  // Inputs without any association come back as errors beside a 207; they simply have none.
  errors: z.array(z.unknown()).optional(),
});
export type AssociationsBatch = z.infer<typeof associationsBatchResponse>;

export const accountDetails = z.object({
  portalId: z.number().int(),
  timeZone: z.string(),
  companyCurrency: z.string(),
  uiDomain: z.string(),
});
export type AccountDetails = z.infer<typeof accountDetails>;

/** HubSpot's error body, for stand-in answers and anyone reading a failed response. */
export const hubspotError = z.object({
  status: z.literal("error"),
  message: z.string(),
  correlationId: z.string().optional(),
  category: z.string(),
});

// ── times ─────────────────────────────────────────────────────────────────────────────────

/**
 * A datetime property: epoch milliseconds as a string, or an ISO 8601 timestamp (what HubSpot
 * sends for datetime properties in v3). Null when empty or unreadable.
 */
export function parseTimeProperty(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (v === "") return null;
  if (/^-?\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : at;
}

/** A record's modification time: its modification property, else the record's `updatedAt`. */
export function modifiedAt(type: HubspotObjectType, r: HubspotRecord): number {
  const at = parseTimeProperty(r.properties[modifiedProperty[type]]) ?? parseTimeProperty(r.updatedAt);
  if (at === null) throw new UpstreamError("bad_response", `${type} record ${r.id} has no readable modification time`);
  return at;
}

// ── plain reads ───────────────────────────────────────────────────────────────────────────

function checkLimit(limit: number, max: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > max) throw new RangeError(`page size must be an integer from 1 to ${max}, got ${limit}`);
}

export interface SearchParams {
  /** Records modified at or after this time (epoch ms); all when null. */
  since: number | null;
  /** HubSpot's offset into the search, as it handed it out. */
  after?: string;
  limit: number;
  properties: readonly string[];
}

/** One page of records modified at or after `since`, oldest change first. */
export function searchModified(up: UpstreamOptions, type: HubspotObjectType, p: SearchParams): Promise<SearchResponse> {
  checkLimit(p.limit, MAX_SEARCH_LIMIT);
  const prop = modifiedProperty[type];
  const body: Record<string, unknown> = {
    filterGroups: p.since === null ? [] : [{ filters: [{ propertyName: prop, operator: "GTE", value: String(p.since) }] }],
    sorts: [{ propertyName: prop, direction: "ASCENDING" }],
    properties: [...new Set([...p.properties, prop])],
    limit: p.limit,
  };
  if (p.after !== undefined) body.after = p.after;
  return upstreamJson(up, `/crm/v3/objects/${type}/search`, searchResponse, { method: "POST", json: body });
}

/** Follows `paging.next.after` to the end; a repeated cursor or too many pages fail loudly. */
async function everyPage<T>(label: string, fetchPage: (after: string | undefined) => Promise<{ results: T[]; paging?: { next?: { after: string } } }>): Promise<T[]> {
  const all: T[] = [];
  const seen = new Set<string>();
  let after: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const answer = await fetchPage(after);
    all.push(...answer.results);
    const next = answer.paging?.next?.after;
    if (!next) return all;
    if (seen.has(next)) throw new UpstreamError("bad_response", `${label} repeated a paging cursor`);
    seen.add(next);
    after = next;
  }
  throw new UpstreamError("bad_response", `${label} did not finish within ${MAX_LIST_PAGES} pages`);
}

/** Every live record of a type, with the named properties (and associations, when asked). */
export function listAllObjects(
  up: UpstreamOptions,
  type: "companies" | "contacts" | "deals",
  properties: readonly string[],
  opts: { associations?: readonly string[] } = {},
): Promise<HubspotRecord[]> {
  const path = `/crm/v3/objects/${type}`;
  return everyPage(path, (after) =>
    upstreamJson(up, path, listResponse, {
      query: {
        limit: LIST_LIMIT,
        after,
        properties: properties.join(","),
        associations: opts.associations?.length ? opts.associations.join(",") : undefined,
        archived: "false",
      },
    }),
  );
}

/** The first page of a plain list, for the probe. */
export function listObjectsPage(up: UpstreamOptions, type: "companies" | "contacts" | "deals", limit: number): Promise<ListResponse> {
  checkLimit(limit, LIST_LIMIT);
  return upstreamJson(up, `/crm/v3/objects/${type}`, listResponse, { query: { limit } });
}

/** Ids of every archived (deleted) record of a type. */
export async function listArchivedIds(up: UpstreamOptions, type: HubspotObjectType): Promise<string[]> {
  const path = `/crm/v3/objects/${type}`;
  const rows = await everyPage(path, (after) => upstreamJson(up, path, archivedListResponse, { query: { archived: "true", limit: LIST_LIMIT, after } }));
  return rows.map((r) => r.id);
}

/** Active owners, or the archived (departed) ones. */
export function listOwners(up: UpstreamOptions, archived: boolean): Promise<HubspotOwner[]> {
  return everyPage("/crm/v3/owners", (after) =>
    upstreamJson(up, "/crm/v3/owners", ownersResponse, { query: { limit: LIST_LIMIT, after, archived: String(archived) } }),
  );
}

/** Each record's associated companies, for records of `from`; absent ids have none. */
export async function readCompanyAssociations(up: UpstreamOptions, from: "deals" | EngagementType, ids: readonly string[]): Promise<AssociationsBatch["results"]> {
  const unique = [...new Set(ids)];
  const out: AssociationsBatch["results"] = [];
  for (let i = 0; i < unique.length; i += MAX_BATCH_INPUTS) {
    const inputs = unique.slice(i, i + MAX_BATCH_INPUTS).map((id) => ({ id }));
    const answer = await upstreamJson(up, `/crm/v4/associations/${from}/companies/batch/read`, associationsBatchResponse, {
      method: "POST",
      json: { inputs },
    });
    out.push(...answer.results);
  }
  return out;
}

export function getAccountDetails(up: UpstreamOptions): Promise<AccountDetails> {
  return upstreamJson(up, "/account-info/v3/details", accountDetails);
}

// ── incremental reads across HubSpot's search cap ─────────────────────────────────────────

/**
 * Where an incremental read stands. HubSpot pages a search by offset and refuses offsets past
 * 10,000, so a long read restarts its search from the latest modification time delivered;
 * the ids already delivered at that time are remembered so the restart does not repeat them.
 */
export const searchPosition = z.object({
  /** The current search's lower bound (epoch ms), or null for everything. */
  s: z.number().int().nullable(),
  /** Offset into the current search. */
  a: z.number().int().min(0),
  /** Distinct records delivered before the current search, less the repeats it will skip. */
  b: z.number().int(),
  /** The latest modification time delivered so far. */
  t: z.number().int().nullable(),
  /** Ids delivered at time `t`. */
  i: z.array(z.string()),
});
export type SearchPosition = z.infer<typeof searchPosition>;

export interface ChangesOptions {
  pageSize: number;
  /** The portal's search cap; HubSpot's is 10,000. */
  searchCap: number;
}

export interface SearchChanges {
  results: HubspotRecord[];
  /** Records of the whole read (across restarts). */
  total: number;
  next: SearchPosition | null;
}

/** A bound on consecutive pages that deliver nothing new (only repeats after a restart). */
const MAX_EMPTY_HOPS = 50;

export function startPosition(since: number | null): SearchPosition {
  return { s: since, a: 0, b: 0, t: null, i: [] };
}

/** The next page of changes of one type, continuing from `pos`. */
export async function searchChanges(up: UpstreamOptions, type: HubspotObjectType, pos: SearchPosition, opts: ChangesOptions): Promise<SearchChanges> {
  checkLimit(opts.pageSize, MAX_SEARCH_LIMIT);
  if (!Number.isInteger(opts.searchCap) || opts.searchCap < 1) throw new RangeError(`searchCap must be a positive integer, got ${opts.searchCap}`);
  let at = pos;
  for (let hop = 0; hop < MAX_EMPTY_HOPS; hop++) {
    const page = await searchModified(up, type, {
      since: at.s,
      after: at.a === 0 ? undefined : String(at.a),
      limit: opts.pageSize,
      properties: syncProperties[type],
    });
    const repeats = new Set(at.i);
    let t = at.t;
    let i = at.i;
    const fresh: HubspotRecord[] = [];
    for (const r of page.results) {
      const m = modifiedAt(type, r);
      if (m === at.t && repeats.has(r.id)) continue;
      fresh.push(r);
      if (t === null || m > t) {
        t = m;
        i = [r.id];
      } else if (m === t) {
        i = [...i, r.id];
      }
    }

    const rawNext = page.paging?.next?.after;
    let next: SearchPosition | null = null;
    if (rawNext !== undefined) {
      if (!/^\d+$/.test(rawNext)) throw new UpstreamError("bad_response", `${type} search handed out a paging offset that is not a number`);
      const offset = Number(rawNext);
      if (offset <= at.a) throw new UpstreamError("bad_response", `${type} search did not advance its paging offset`);
      if (offset < opts.searchCap) {
        next = { s: at.s, a: offset, b: at.b, t, i };
      } else {
        // Past the cap: search again from the latest time delivered. When the whole capped
        // window shares one time the restart would land where it started, forever.
        if (t === null || t === at.s) {
          throw new UpstreamError("bad_response", `more than ${opts.searchCap} ${type} records share one modification time; the search cannot page past them`);
        }
        next = { s: t, a: 0, b: at.b + offset - i.length, t, i };
      }
    }
    if (fresh.length > 0 || next === null) return { results: fresh, total: at.b + page.total, next };
    at = next;
  }
  throw new UpstreamError("bad_response", `${type} search kept answering records already delivered`);
}
