import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { retryAfterMs, upstreamJson, UpstreamError, type RateLimitAnswer, type UpstreamOptions, type UpstreamRequest } from "@/lib/connectors/http";

// A typed client of the HubSpot CRM v3 API (and the v4 association reads) for the parts the sync
// and the direct reads need: searches by modification time, whole object lists, archived ids,
// owners, association batch reads and the account details. Every answer is parsed with zod, so
// a changed API fails as `bad_response` rather than as wrong data.
//
// HubSpot limits searches per token to a few a second, apart from its limit on all other
// requests, so searches are paced per token (one module-wide pacer: every caller in the process
// using a token shares its slots), and a 429 is read as HubSpot words it (its X-HubSpot-RateLimit-*
// headers, the search window when they are missing) and waited out.

/** HubSpot refuses to page a search past this many results (a 400). */
export const SEARCH_CAP = 10_000;
/** HubSpot's ceiling for `limit` on a search. */
export const MAX_SEARCH_LIMIT = 200;
export const DEFAULT_PAGE_SIZE = 100;
/** HubSpot's ceiling for `limit` on a plain object list. */
const LIST_LIMIT = 100;
/** Enough for 500,000 records at 100 a page; beyond that a listing is refused rather than truncated. */
const MAX_LIST_PAGES = 5_000;
/** HubSpot's ceiling for inputs of one association batch read. */
export const MAX_BATCH_INPUTS = 1_000;

/**
 * HubSpot's documented limits for a private app's token (Professional and Enterprise): searches
 * have a per-second limit of their own (its developer changelog: four a second per token) and do
 * not count towards the ten-second limit every other request shares; every request counts
 * towards the daily one.
 */
export const HUBSPOT_LIMITS = {
  searchesPerSecond: 4,
  requestsPerTenSeconds: 190,
  requestsPerDay: 650_000,
} as const;
export type PortalLimits = { -readonly [K in keyof typeof HUBSPOT_LIMITS]: number };

/**
 * The share of the search limit the client spends. HubSpot counts a search when it arrives, not
 * when it was sent; spacing searches a tenth wider than the limit allows leaves that much room
 * for one answer arriving faster than the one before it.
 */
export const SEARCH_PACE_SHARE = 0.9;
/** The window HubSpot's search limit is counted over. */
export const SEARCH_WINDOW_MS = 1_000;
/** The window of HubSpot's limit on every other request. */
export const BURST_WINDOW_MS = 10_000;
/**
 * The daily limit resets at midnight in the portal's time zone, which a 429 does not say: an hour
 * is what the client suggests, and far longer than it holds a request, so the read fails as
 * rate limited rather than wait.
 */
export const DAILY_RETRY_MS = 3_600_000;

export const searchableTypes = ["companies", "contacts", "deals", "calls", "meetings", "emails"] as const;
export type HubspotObjectType = (typeof searchableTypes)[number];
export const engagementTypes = ["calls", "meetings", "emails"] as const;
export type EngagementType = (typeof engagementTypes)[number];

/**
 * The property each type's modification time is kept in. Contacts keep theirs in
 * `lastmodifieddate` (HubSpot's own default for contact searches); everything else in
 * `hs_lastmodifieddate`.
 */
const modifiedProperty: Record<HubspotObjectType, string> = {
  companies: "hs_lastmodifieddate",
  contacts: "lastmodifieddate",
  deals: "hs_lastmodifieddate",
  calls: "hs_lastmodifieddate",
  meetings: "hs_lastmodifieddate",
  emails: "hs_lastmodifieddate",
};

/** What the sync reads of each type (the modification property is always added). */
const syncProperties: Record<HubspotObjectType, readonly string[]> = {
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
type SearchResponse = z.infer<typeof searchResponse>;

const listResponse = z.object({
  results: z.array(hubspotRecord),
  paging,
  /** Not part of HubSpot's list answer today; read when present. */
  total: z.number().int().min(0).optional(),
});
type ListResponse = z.infer<typeof listResponse>;

const archivedListResponse = z.object({
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
const ownersResponse = z.object({ results: z.array(hubspotOwner), paging });

const associationType = z.object({ category: z.string(), typeId: z.number().int(), label: z.string().nullish() });
export const associationsBatchResponse = z.object({
  results: z.array(
    z.object({
      from: z.object({ id: z.string().min(1) }),
      to: z.array(
        z.object({
          // The published description says a string; HubSpot's answers have carried a number. Either is read.
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

// ── HubSpot's rate limits ─────────────────────────────────────────────────────────────────

/** Which of HubSpot's limits an answer says was reached; `unavailable` is a 503 (overloaded, not limited). */
export const portalLimits = ["search", "burst", "daily", "unavailable"] as const;
export type PortalLimit = (typeof portalLimits)[number];

interface PortalRateLimitAnswer extends RateLimitAnswer {
  limit: PortalLimit;
}

function headerCount(res: Response, name: string): number | null {
  const v = res.headers.get(name)?.trim();
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
}

/** Whether the answer is to a search (the portal may sit under a path prefix, as the stand-in does). */
function isSearch(res: Response): boolean {
  try {
    return /\/crm\/v3\/objects\/[^/]+\/search$/.test(new URL(res.url).pathname);
  } catch {
    return false;
  }
}

/**
 * A HubSpot answer read as a rate limit. A 429 names its limit by its headers: the daily one when
 * none of the day is left, else the window the answer counts (the search limit for a search). The
 * wait is Retry-After when sent; else, when X-HubSpot-RateLimit-Remaining is 0, the whole window
 * (X-HubSpot-RateLimit-Interval-Milliseconds), after which every request counted in it has left
 * it; without headers (HubSpot's search answers are reported to carry none), the window of the
 * limit the request falls under. A 503 is HubSpot overloaded: its Retry-After, else a backoff.
 */
export function readHubspotLimit(res: Response, now: number): PortalRateLimitAnswer | null {
  if (res.status === 503) return { waitMs: retryAfterMs(res.headers.get("retry-after"), now), kind: "server", limit: "unavailable" };
  if (res.status !== 429) return null;
  const search = isSearch(res);
  const limit: PortalLimit = headerCount(res, "x-hubspot-ratelimit-daily-remaining") === 0 ? "daily" : search ? "search" : "burst";
  const retryAfter = retryAfterMs(res.headers.get("retry-after"), now);
  const interval = headerCount(res, "x-hubspot-ratelimit-interval-milliseconds");
  let waitMs: number;
  if (retryAfter !== null) waitMs = retryAfter;
  else if (limit === "daily") waitMs = DAILY_RETRY_MS;
  else if (interval !== null && interval > 0 && headerCount(res, "x-hubspot-ratelimit-remaining") === 0) waitMs = interval;
  else waitMs = search ? SEARCH_WINDOW_MS : BURST_WINDOW_MS;
  return { waitMs, kind: "rate_limited", limit };
}

/** What a caller (the sync) learns of its traffic with the portal. */
export interface PortalTraffic {
  /** Each search request sent (retries too), with how long pacing held it back. */
  search?(heldMs: number): void;
  /** Each answer read as a rate limit, waited on or not. */
  limited?(limit: PortalLimit, status: number): void;
}

/** How to reach a portal: the HTTP core's options, with HubSpot's search pace and a traffic observer. */
export interface PortalUpstream extends UpstreamOptions {
  /** Searches a second this token may make; HubSpot's documented limit unless told. */
  searchesPerSecond?: number;
  traffic?: PortalTraffic;
}

/**
 * Spaces each token's searches at least `intervalMs` apart. Slots are reserved before waiting, so
 * concurrent callers queue behind one another rather than all going at once; after a 429 the
 * token's next slot moves past the retry.
 */
export class SearchPacer {
  private readonly next = new Map<string, number>();

  constructor(
    private readonly clock: () => number = () => performance.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Waits for the token's next slot; answers how long it waited. */
  async take(key: string, intervalMs: number): Promise<number> {
    const now = this.clock();
    const slot = Math.max(now, this.next.get(key) ?? now);
    this.next.set(key, slot + intervalMs);
    if (this.next.size > 64) for (const [k, at] of this.next) if (at < now) this.next.delete(k);
    const held = slot - now;
    // A timer may fire early by as long as the task that set it ran on (Node counts from the
    // event loop's time at the task's start): sleep the rest, so no search goes before its slot.
    for (let left = held; left > 0; left = slot - this.clock()) await this.sleep(left);
    return held;
  }

  /** No search of the token before `msFromNow` from now. */
  holdFor(key: string, msFromNow: number): void {
    const at = this.clock() + msFromNow;
    this.next.set(key, Math.max(this.next.get(key) ?? at, at));
  }
}

const searchPacer = new SearchPacer();

/** Pacing is per token and portal; a digest keys it, so the pacer holds no credential. */
function paceKey(up: UpstreamOptions): string {
  return createHash("sha256").update(`${up.baseUrl}\n${up.authorization ?? ""}`).digest("base64url");
}

/** The time between two searches of one token, or 0 when searches are not paced. */
export function searchIntervalMs(up: PortalUpstream): number {
  const rate = up.searchesPerSecond ?? HUBSPOT_LIMITS.searchesPerSecond;
  if (!(rate > 0) || !Number.isFinite(rate)) return 0;
  return SEARCH_WINDOW_MS / (rate * SEARCH_PACE_SHARE);
}

/** The caller's options with HubSpot's reader, telling the observer of each limit met and each wait. */
function hubspotOptions(up: PortalUpstream, afterWait?: (ms: number) => void): UpstreamOptions {
  const reader = up.rateLimit;
  return {
    ...up,
    rateLimit: (res, now) => {
      const read = readHubspotLimit(res, now);
      if (read) up.traffic?.limited?.(read.limit, res.status);
      return reader ? reader(res, now) : read && { waitMs: read.waitMs, kind: read.kind };
    },
    onWait: (ms, status) => {
      up.onWait?.(ms, status);
      afterWait?.(ms);
    },
  };
}

function portalJson<S extends z.ZodType>(up: PortalUpstream, path: string, schema: S, req: UpstreamRequest = {}): Promise<z.output<S>> {
  return upstreamJson(hubspotOptions(up), path, schema, req);
}

/** A search, sent in the token's next slot; a retry after a 429 moves the slots after it. */
async function pacedSearch<S extends z.ZodType>(up: PortalUpstream, path: string, schema: S, body: unknown): Promise<z.output<S>> {
  const interval = searchIntervalMs(up);
  const key = paceKey(up);
  const held = interval > 0 ? await searchPacer.take(key, interval) : 0;
  up.traffic?.search?.(held);
  const opts = hubspotOptions(up, (ms) => {
    if (interval > 0) searchPacer.holdFor(key, ms + interval);
    up.traffic?.search?.(0);
  });
  return upstreamJson(opts, path, schema, { method: "POST", json: body });
}

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

interface SearchParams {
  /** Records modified at or after this time (epoch ms); all when null. */
  since: number | null;
  /** HubSpot's offset into the search, as it handed it out. */
  after?: string;
  limit: number;
  properties: readonly string[];
}

/** One page of records modified at or after `since`, oldest change first. */
export function searchModified(up: PortalUpstream, type: HubspotObjectType, p: SearchParams): Promise<SearchResponse> {
  checkLimit(p.limit, MAX_SEARCH_LIMIT);
  const prop = modifiedProperty[type];
  const body: Record<string, unknown> = {
    filterGroups: p.since === null ? [] : [{ filters: [{ propertyName: prop, operator: "GTE", value: String(p.since) }] }],
    sorts: [{ propertyName: prop, direction: "ASCENDING" }],
    properties: [...new Set([...p.properties, prop])],
    limit: p.limit,
  };
  if (p.after !== undefined) body.after = p.after;
  return pacedSearch(up, `/crm/v3/objects/${type}/search`, searchResponse, body);
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
  up: PortalUpstream,
  type: "companies" | "contacts" | "deals",
  properties: readonly string[],
  opts: { associations?: readonly string[] } = {},
): Promise<HubspotRecord[]> {
  const path = `/crm/v3/objects/${type}`;
  return everyPage(path, (after) =>
    portalJson(up, path, listResponse, {
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
export function listObjectsPage(up: PortalUpstream, type: "companies" | "contacts" | "deals", limit: number): Promise<ListResponse> {
  checkLimit(limit, LIST_LIMIT);
  return portalJson(up, `/crm/v3/objects/${type}`, listResponse, { query: { limit } });
}

/** Ids of every archived (deleted) record of a type. */
export async function listArchivedIds(up: PortalUpstream, type: HubspotObjectType): Promise<string[]> {
  const path = `/crm/v3/objects/${type}`;
  const rows = await everyPage(path, (after) => portalJson(up, path, archivedListResponse, { query: { archived: "true", limit: LIST_LIMIT, after } }));
  return rows.map((r) => r.id);
}

/** Active owners, or the archived (departed) ones. */
export function listOwners(up: PortalUpstream, archived: boolean): Promise<HubspotOwner[]> {
  return everyPage("/crm/v3/owners", (after) =>
    portalJson(up, "/crm/v3/owners", ownersResponse, { query: { limit: LIST_LIMIT, after, archived: String(archived) } }),
  );
}

/** Each record's associated companies, for records of `from`; absent ids have none. */
export async function readCompanyAssociations(up: PortalUpstream, from: "deals" | EngagementType, ids: readonly string[]): Promise<AssociationsBatch["results"]> {
  const unique = [...new Set(ids)];
  const out: AssociationsBatch["results"] = [];
  for (let i = 0; i < unique.length; i += MAX_BATCH_INPUTS) {
    const inputs = unique.slice(i, i + MAX_BATCH_INPUTS).map((id) => ({ id }));
    const answer = await portalJson(up, `/crm/v4/associations/${from}/companies/batch/read`, associationsBatchResponse, {
      method: "POST",
      json: { inputs },
    });
    out.push(...answer.results);
  }
  return out;
}

export function getAccountDetails(up: PortalUpstream): Promise<AccountDetails> {
  return portalJson(up, "/account-info/v3/details", accountDetails);
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
type SearchPosition = z.infer<typeof searchPosition>;

interface ChangesOptions {
  pageSize: number;
  /** The portal's search cap; HubSpot's is 10,000. */
  searchCap: number;
}

interface SearchChanges {
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
export async function searchChanges(up: PortalUpstream, type: HubspotObjectType, pos: SearchPosition, opts: ChangesOptions): Promise<SearchChanges> {
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
