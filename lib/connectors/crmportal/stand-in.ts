import "server-only";
import { z } from "zod";
import { hashString, isoDateTime, type Tenant } from "@/demo/tenant";
import { Faults } from "@/lib/connectors/stand-in/faults";
import { StandInOAuth, type StandInCaller } from "@/lib/connectors/stand-in/oauth";
import type { StandIn, StandInDeps } from "@/lib/connectors/types";
import type { CrmInstance } from "./records";
import { MAX_BATCH_INPUTS, MAX_SEARCH_LIMIT, SEARCH_CAP, searchableTypes, type HubspotObjectType, type PortalLimits } from "./client";
import { PortalRateLimits, type EnforcedLimit, type PortalUsage } from "./stand-in-limits";
import { customersPortal, usersPortal, type Portal, type StoredRecord } from "./stand-in-portals";

export type { PortalUsage } from "./stand-in-limits";

// A stand-in of the HubSpot CRM v3 API (with the v4 association batch read) serving two
// portals, chosen by the private-app token's account: the customers portal (the tenant's
// owners, companies, contacts, deals and engagements) and the internal users portal (staff as
// contacts, one company per team, no deals, owners or engagements), which stand-in-portals.ts
// builds. Searches filter and sort by property and page by offset up to a cap, as HubSpot's do;
// lists page by offset too. Every datetime property is epoch milliseconds as a string, except
// `closedate` and `hs_timestamp`, which come as ISO timestamps so clients meet both forms.
//
// It enforces HubSpot's rate limits per portal token (stand-in-limits.ts): a search beyond the
// search limit, or another request beyond the ten-second or daily limit, is answered 429 in
// HubSpot's body, and every answer to a known token carries the X-HubSpot-RateLimit-* headers.
// Answers follow HubSpot's published descriptions (tests/fixtures/vendor-api/hubspot), where
// HubSpot's live answers differ from them: property values are strings (an unset one is left
// out, not null), association ids are strings, and batch errors carry every required field.

const PORTAL_ACCOUNTS: Record<CrmInstance, string> = {
  customers: "portal-customers@crmportal.demo.test",
  users: "portal-users@crmportal.demo.test",
};

export interface CrmportalStandInOptions {
  /** Results a search may page through; HubSpot's is 10,000. */
  searchCap?: number;
  /** Silently lowers every page size to this, as a busy portal may. */
  pageSizeCap?: number;
  /** Rate limits per token; HubSpot's documented ones (HUBSPOT_LIMITS) where not given. */
  limits?: Partial<PortalLimits>;
}

/** The stand-in, with what it has answered and refused under its rate limits. */
export interface CrmportalStandIn extends StandIn {
  readonly limits: { readonly configured: Readonly<PortalLimits>; usage(): PortalUsage };
}

/** HubSpot's numeric ids of the object types, accepted wherever a type name is (its descriptions use `0-3` for deals). */
const objectTypeIds: Record<string, HubspotObjectType> = {
  "0-1": "contacts",
  "0-2": "companies",
  "0-3": "deals",
  "0-47": "meetings",
  "0-48": "calls",
  "0-49": "emails",
};

/** HubSpot's 429 body for each limit: what its own SDK reads (`policyName`, and the message for the per-second one). */
const rateLimitBodies: Record<EnforcedLimit, { message: string; policyName: string }> = {
  search: { message: "You have reached your secondly limit.", policyName: "SECONDLY" },
  burst: { message: "You have reached your ten_secondly_rolling limit.", policyName: "TEN_SECONDLY_ROLLING" },
  daily: { message: "You have reached your daily limit.", policyName: "DAILY" },
};

const SEARCH_DEFAULT_LIMIT = 10;
const LIST_DEFAULT_LIMIT = 10;
const LIST_MAX_LIMIT = 100;
const OWNERS_DEFAULT_LIMIT = 100;
const OWNERS_MAX_LIMIT = 500;
const MAX_FILTER_GROUPS = 5;
const MAX_FILTERS_PER_GROUP = 6;

/** Properties HubSpot returns when a request names none, and always beside those named. */
const defaultProperties: Record<HubspotObjectType, readonly string[]> = {
  companies: ["name", "domain", "createdate", "hs_lastmodifieddate", "hs_object_id"],
  contacts: ["firstname", "lastname", "email", "lastmodifieddate", "hs_object_id", "createdate"],
  deals: ["dealname", "amount", "closedate", "pipeline", "dealstage", "createdate", "hs_lastmodifieddate", "hs_object_id"],
  calls: ["hs_createdate", "hs_lastmodifieddate", "hs_object_id"],
  meetings: ["hs_createdate", "hs_lastmodifieddate", "hs_object_id"],
  emails: ["hs_createdate", "hs_lastmodifieddate", "hs_object_id"],
};
const alwaysProperties: Record<HubspotObjectType, readonly string[]> = {
  companies: ["hs_object_id", "createdate", "hs_lastmodifieddate"],
  contacts: ["hs_object_id", "createdate", "lastmodifieddate"],
  deals: ["hs_object_id", "createdate", "hs_lastmodifieddate"],
  calls: ["hs_object_id", "hs_createdate", "hs_lastmodifieddate"],
  meetings: ["hs_object_id", "hs_createdate", "hs_lastmodifieddate"],
  emails: ["hs_object_id", "hs_createdate", "hs_lastmodifieddate"],
};

/** Association names and type ids HubSpot uses from each type to companies. */
const companyAssociation: Record<Exclude<HubspotObjectType, "companies">, { name: string; types: { category: string; typeId: number; label: string | null }[] }> = {
  contacts: {
    name: "contact_to_company",
    types: [
      { category: "HUBSPOT_DEFINED", typeId: 1, label: "Primary" },
      { category: "HUBSPOT_DEFINED", typeId: 279, label: null },
    ],
  },
  deals: {
    name: "deal_to_company",
    types: [
      { category: "HUBSPOT_DEFINED", typeId: 5, label: "Primary" },
      { category: "HUBSPOT_DEFINED", typeId: 341, label: null },
    ],
  },
  calls: { name: "call_to_company", types: [{ category: "HUBSPOT_DEFINED", typeId: 182, label: null }] },
  meetings: { name: "meeting_event_to_company", types: [{ category: "HUBSPOT_DEFINED", typeId: 188, label: null }] },
  emails: { name: "email_to_company", types: [{ category: "HUBSPOT_DEFINED", typeId: 186, label: null }] },
};

/** Numeric ids in numeric order (they are not zero-padded). */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** A property value as a number when it reads as one (epoch ms, ISO time or plain number). */
function asNumber(v: string): number | null {
  const t = v.trim();
  if (t === "") return null;
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (/^\d{4}-\d{2}-\d{2}/.test(t)) {
    const at = Date.parse(t);
    return Number.isNaN(at) ? null : at;
  }
  return null;
}

function compareValues(a: string, b: string): number {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== null && y !== null) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

// ── requests ──────────────────────────────────────────────────────────────────────────────

const filterValue = z.union([z.string(), z.number()]).transform(String);
const searchBody = z.object({
  filterGroups: z
    .array(
      z.object({
        filters: z
          .array(z.object({ propertyName: z.string().min(1), operator: z.string(), value: filterValue.optional(), values: z.array(filterValue).optional() }))
          .max(MAX_FILTERS_PER_GROUP),
      }),
    )
    .max(MAX_FILTER_GROUPS)
    .optional(),
  sorts: z
    .array(z.union([z.string().min(1), z.object({ propertyName: z.string().min(1), direction: z.enum(["ASCENDING", "DESCENDING"]).default("ASCENDING") })]))
    .max(1)
    .optional(),
  properties: z.array(z.string()).optional(),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional(),
  after: z.union([z.string(), z.number().int()]).transform(String).optional(),
  query: z.string().optional(),
});
type SearchFilter = NonNullable<z.infer<typeof searchBody>["filterGroups"]>[number]["filters"][number];

const batchBody = z.object({ inputs: z.array(z.object({ id: z.union([z.string(), z.number().int()]).transform(String) })).min(1).max(MAX_BATCH_INPUTS) });

const supportedOperators = new Set(["EQ", "NEQ", "LT", "LTE", "GT", "GTE", "HAS_PROPERTY", "NOT_HAS_PROPERTY", "IN", "NOT_IN"]);

function matches(r: StoredRecord, f: SearchFilter): boolean {
  const v = r.props[f.propertyName] ?? null;
  const has = v !== null && v !== "";
  switch (f.operator) {
    case "HAS_PROPERTY":
      return has;
    case "NOT_HAS_PROPERTY":
      return !has;
    case "IN":
      return has && (f.values ?? []).some((x) => compareValues(v, x) === 0);
    case "NOT_IN":
      return !has || !(f.values ?? []).some((x) => compareValues(v, x) === 0);
  }
  if (f.value === undefined) return false;
  if (f.operator === "NEQ") return !has || compareValues(v, f.value) !== 0;
  if (!has) return false;
  const c = compareValues(v, f.value);
  if (f.operator === "EQ") return c === 0;
  if (f.operator === "LT") return c < 0;
  if (f.operator === "LTE") return c <= 0;
  if (f.operator === "GT") return c > 0;
  return c >= 0; // GTE
}

function objectType(s: string): HubspotObjectType | null {
  if ((searchableTypes as readonly string[]).includes(s)) return s as HubspotObjectType;
  return objectTypeIds[s] ?? null;
}

const SEARCH_PATH = /^\/crm\/v3\/objects\/([A-Za-z_]+|0-\d+)\/search$/;

class CrmportalStandInImpl implements CrmportalStandIn {
  readonly oauth: StandInOAuth;
  readonly faults = new Faults();
  readonly limits: PortalRateLimits;
  private readonly portals: Record<CrmInstance, Portal>;
  private readonly searchCap: number;
  private readonly pageSizeCap: number;
  private readonly now: () => number;
  private requestSeq = 0;

  constructor(
    private readonly tenant: Tenant,
    deps: StandInDeps,
    opts: CrmportalStandInOptions,
  ) {
    this.portals = { customers: customersPortal(tenant), users: usersPortal(tenant) };
    this.searchCap = opts.searchCap ?? SEARCH_CAP;
    this.pageSizeCap = opts.pageSizeCap ?? Number.POSITIVE_INFINITY;
    this.limits = new PortalRateLimits(opts.limits);
    this.now = deps.now ?? Date.now;
    // Private-app tokens have no consent flow: the app mints them in-process, and the OAuth routes answer 404.
    this.oauth = new StandInOAuth({
      slug: "crmportal",
      product: "HubSpot",
      tokenPrefix: "pat-na1",
      sealer: deps.sealer,
      accounts: () => Object.values(PORTAL_ACCOUNTS),
      consent: false,
    });
  }

  async handle(request: Request, path: string, caller?: StandInCaller): Promise<Response> {
    const isSearch = request.method === "POST" && SEARCH_PATH.test(path);
    const fault = await this.faults.apply(request, path);
    if (fault) return this.vendorFault(fault, await this.instanceOf(request), isSearch);

    const oauth = await this.oauth.serve(request, path, caller);
    if (oauth) return oauth;

    const instance = await this.instanceOf(request);
    if (!instance) {
      // Nothing is counted for a token HubSpot does not know, and no limits are told.
      return this.error(
        401,
        "INVALID_AUTHENTICATION",
        "Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview",
      );
    }
    const verdict = this.limits.admit(instance, isSearch, this.now());
    if (verdict.refused) return this.rateLimited(verdict.refused, verdict.headers);
    const res = await this.route(request, path, this.portals[instance]);
    for (const [name, value] of Object.entries(verdict.headers)) res.headers.set(name, value);
    return res;
  }

  /** The portal a bearer token is for, or null. */
  private async instanceOf(request: Request): Promise<CrmInstance | null> {
    const account = await this.oauth.verify(request.headers.get("authorization"));
    return (Object.keys(PORTAL_ACCOUNTS) as CrmInstance[]).find((k) => PORTAL_ACCOUNTS[k] === account) ?? null;
  }

  private async route(request: Request, path: string, portal: Portal): Promise<Response> {
    const params = new URL(request.url).searchParams;
    if (path === "/account-info/v3/details" && request.method === "GET") return this.accountDetails(portal);
    if ((path === "/crm/v3/owners" || path === "/crm/v3/owners/") && request.method === "GET") return this.owners(portal, params);

    const search = SEARCH_PATH.exec(path);
    if (search && request.method === "POST") {
      const type = objectType(search[1] ?? "");
      if (!type) return this.unknownType(search[1] ?? "");
      return this.search(portal, type, await this.readJson(request));
    }
    const list = /^\/crm\/v3\/objects\/([A-Za-z_]+|0-\d+)$/.exec(path);
    if (list && request.method === "GET") {
      const type = objectType(list[1] ?? "");
      if (!type) return this.unknownType(list[1] ?? "");
      return this.list(portal, type, params);
    }
    const batch = /^\/crm\/v4\/associations\/([A-Za-z_]+|0-\d+)\/([A-Za-z_]+|0-\d+)\/batch\/read$/.exec(path);
    if (batch && request.method === "POST") {
      const from = objectType(batch[1] ?? "");
      if (!from || from === "companies") return this.unknownType(batch[1] ?? "");
      if (objectType(batch[2] ?? "") !== "companies") return this.unknownType(batch[2] ?? "");
      return this.associations(portal, from, await this.readJson(request));
    }
    return this.error(404, "OBJECT_NOT_FOUND", `No route for ${request.method} ${path}`);
  }

  /** HubSpot's 429: its body for the limit reached, with the window's headers (none of it left). */
  private rateLimited(limit: EnforcedLimit, headers: Record<string, string>): Response {
    const { message, policyName } = rateLimitBodies[limit];
    return this.json(
      429,
      { status: "error", message, errorType: "RATE_LIMIT", correlationId: this.correlationId(), policyName, category: "RATE_LIMITS" },
      headers,
    );
  }

  private accountDetails(portal: Portal): Response {
    return this.json(200, {
      portalId: portal.portalId,
      accountType: "STANDARD",
      timeZone: "America/New_York",
      companyCurrency: "USD",
      additionalCurrencies: [],
      utcOffset: "-05:00",
      utcOffsetMilliseconds: -18_000_000,
      uiDomain: "app.hubspot.com",
      dataHostingLocation: "na1",
    });
  }

  private owners(portal: Portal, params: URLSearchParams): Response {
    const page = this.offsetPage(params, OWNERS_DEFAULT_LIMIT, OWNERS_MAX_LIMIT);
    if (page instanceof Response) return page;
    const archived = params.get("archived") === "true";
    const rows = portal.owners.filter((o) => o.archived === archived).sort((a, b) => compareIds(a.id, b.id));
    const slice = rows.slice(page.offset, page.offset + page.limit);
    return this.json(200, {
      results: slice.map((o) => ({
        id: o.id,
        email: o.email,
        type: "PERSON",
        firstName: o.firstName,
        lastName: o.lastName,
        userId: o.userId,
        userIdIncludingInactive: o.userId,
        createdAt: isoDateTime(o.createdAt),
        updatedAt: isoDateTime(o.updatedAt),
        archived: o.archived,
      })),
      ...this.paging(page.offset + slice.length, rows.length),
    });
  }

  private list(portal: Portal, type: HubspotObjectType, params: URLSearchParams): Response {
    const page = this.offsetPage(params, LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT);
    if (page instanceof Response) return page;
    const archived = params.get("archived") === "true";
    const rows = portal.records[type].filter((r) => r.archived === archived).sort((a, b) => compareIds(a.id, b.id));
    const slice = rows.slice(page.offset, page.offset + page.limit);
    const wanted = (params.get("properties") ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
    const associations = (params.get("associations") ?? "").split(",").map((s) => s.trim());
    return this.json(200, {
      results: slice.map((r) => {
        const out = this.record(type, r, wanted.length ? wanted : null);
        if (archived) out.archivedAt = isoDateTime(r.updatedAt);
        if (type !== "companies" && associations.includes("companies") && r.companyId !== null) {
          const a = companyAssociation[type];
          const links = [{ id: r.companyId, type: a.name }];
          if (a.types.length > 1) links.push({ id: r.companyId, type: `${a.name}_unlabeled` });
          out.associations = { companies: { results: links } };
        }
        return out;
      }),
      ...this.paging(page.offset + slice.length, rows.length),
    });
  }

  private search(portal: Portal, type: HubspotObjectType, raw: unknown): Response {
    if (raw instanceof Response) return raw;
    const parsed = searchBody.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.error(400, "VALIDATION_ERROR", `Invalid input JSON on line 1: ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`);
    }
    const body = parsed.data;
    if (body.query !== undefined) return this.error(400, "VALIDATION_ERROR", "Free-text query is not supported by this stand-in");
    for (const g of body.filterGroups ?? []) {
      for (const f of g.filters) {
        if (!supportedOperators.has(f.operator)) return this.error(400, "VALIDATION_ERROR", `Unsupported filter operator: ${f.operator}`);
      }
    }
    let offset = 0;
    if (body.after !== undefined) {
      if (!/^\d+$/.test(body.after)) return this.error(400, "VALIDATION_ERROR", `after must be a non-negative integer, got ${body.after}`);
      offset = Number(body.after);
    }
    if (offset >= this.searchCap) {
      return this.error(400, "VALIDATION_ERROR", `There was a problem with the request: paging is limited to ${this.searchCap} results (after=${offset})`);
    }
    const limit = Math.min(body.limit ?? SEARCH_DEFAULT_LIMIT, this.pageSizeCap);

    const groups = body.filterGroups ?? [];
    const live = portal.records[type].filter((r) => !r.archived);
    const found = groups.length === 0 ? live : live.filter((r) => groups.some((g) => g.filters.every((f) => matches(r, f))));
    const sort = body.sorts?.[0];
    const by = sort === undefined ? null : typeof sort === "string" ? { propertyName: sort.replace(/^-/, ""), direction: sort.startsWith("-") ? "DESCENDING" : "ASCENDING" } : sort;
    const ordered = [...found].sort((a, b) => {
      if (by) {
        const x = a.props[by.propertyName] ?? null;
        const y = b.props[by.propertyName] ?? null;
        // Unset values sort last either way.
        if (x === null && y !== null) return 1;
        if (y === null && x !== null) return -1;
        if (x !== null && y !== null) {
          const c = compareValues(x, y);
          if (c !== 0) return by.direction === "DESCENDING" ? -c : c;
        }
      }
      return compareIds(a.id, b.id);
    });

    const end = Math.min(offset + limit, this.searchCap, ordered.length);
    const slice = ordered.slice(offset, Math.max(offset, end));
    return this.json(200, {
      total: ordered.length,
      results: slice.map((r) => this.record(type, r, body.properties?.length ? body.properties : null)),
      // A search's next page is named by its offset alone: there is no link to follow.
      ...this.paging(offset + slice.length, ordered.length, false),
    });
  }

  private associations(portal: Portal, from: Exclude<HubspotObjectType, "companies">, raw: unknown): Response {
    if (raw instanceof Response) return raw;
    const parsed = batchBody.safeParse(raw);
    if (!parsed.success) return this.error(400, "VALIDATION_ERROR", `inputs must hold 1 to ${MAX_BATCH_INPUTS} objects with an id`);
    const byId = new Map(portal.records[from].filter((r) => !r.archived).map((r) => [r.id, r]));
    const a = companyAssociation[from];
    const results: unknown[] = [];
    const missing: string[] = [];
    // The published description has ids as strings and a label only where there is one.
    const types = a.types.map(({ category, typeId, label }) => (label === null ? { category, typeId } : { category, typeId, label }));
    for (const { id } of parsed.data.inputs) {
      const companyId = byId.get(id)?.companyId ?? null;
      if (companyId === null) missing.push(id);
      else results.push({ from: { id }, to: [{ toObjectId: companyId, associationTypes: types }] });
    }
    const started = isoDateTime(this.tenant.now);
    if (missing.length === 0) return this.json(200, { status: "COMPLETE", results, startedAt: started, completedAt: started });
    return this.json(207, {
      status: "COMPLETE",
      results,
      numErrors: missing.length,
      // Every field the description requires of a batch error; its sub-category is an object
      // there (HubSpot's answers have carried a string), so it is left out.
      errors: missing.map((id) => ({
        status: "error",
        category: "OBJECT_NOT_FOUND",
        message: `No company is associated with ${from} ${id}.`,
        context: { fromObjectId: [id] },
        errors: [],
        links: {},
      })),
      startedAt: started,
      completedAt: started,
    });
  }

  private record(type: HubspotObjectType, r: StoredRecord, wanted: readonly string[] | null): Record<string, unknown> {
    const names = wanted ? [...new Set([...wanted, ...alwaysProperties[type]])] : defaultProperties[type];
    const properties: Record<string, string> = {};
    // Unknown property names are left out, as HubSpot does; so are unset ones, which HubSpot
    // answers as null but its published description has only strings for.
    for (const n of names) {
      const v = r.props[n];
      if (typeof v === "string") properties[n] = v;
    }
    return {
      id: r.id,
      properties,
      createdAt: isoDateTime(r.createdAt),
      updatedAt: isoDateTime(r.updatedAt),
      archived: r.archived,
    };
  }

  private offsetPage(params: URLSearchParams, defaultLimit: number, maxLimit: number): { offset: number; limit: number } | Response {
    const rawLimit = params.get("limit");
    let limit = defaultLimit;
    if (rawLimit !== null) {
      if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1) return this.error(400, "VALIDATION_ERROR", `limit must be a positive integer, got ${rawLimit}`);
      limit = Math.min(Number(rawLimit), maxLimit);
    }
    const rawAfter = params.get("after");
    let offset = 0;
    if (rawAfter !== null && rawAfter !== "") {
      if (!/^\d+$/.test(rawAfter)) return this.error(400, "VALIDATION_ERROR", `after is not a paging cursor this portal issued: ${rawAfter}`);
      offset = Number(rawAfter);
    }
    return { offset, limit: Math.min(limit, this.pageSizeCap) };
  }

  private paging(end: number, total: number, withLink = true): { paging?: { next: { after: string; link?: string } } } {
    if (end >= total) return {};
    return { paging: { next: withLink ? { after: String(end), link: `?after=${end}` } : { after: String(end) } } };
  }

  private async readJson(request: Request): Promise<unknown> {
    try {
      return (await request.json()) as unknown;
    } catch {
      return this.error(400, "VALIDATION_ERROR", "Invalid input JSON: the body is not JSON");
    }
  }

  private unknownType(type: string): Response {
    return this.error(400, "VALIDATION_ERROR", `Unable to infer object type from: ${type}`);
  }

  /**
   * A queued fault, answered in HubSpot's error shape. A 429 is the limit of the request's kind
   * (the search limit for a search), with that window's headers saying none of it is left; a
   * Retry-After is sent only when the fault names one, as HubSpot sends none.
   */
  private vendorFault(fault: Response, instance: CrmInstance | null, isSearch: boolean): Response {
    const retryAfter = fault.headers.get("retry-after");
    const extra: Record<string, string> = retryAfter ? { "retry-after": retryAfter } : {};
    if (fault.status === 401) return this.error(401, "INVALID_AUTHENTICATION", "Authentication credentials not found.", extra);
    if (fault.status === 403) return this.error(403, "MISSING_SCOPES", "This app hasn't been granted all required scopes to make this call.", extra);
    if (fault.status === 429) {
      const limits = instance ? this.limits.headersFor(instance, isSearch, this.now(), true) : {};
      return this.rateLimited(isSearch ? "search" : "burst", { ...limits, ...extra });
    }
    return this.error(fault.status, "INTERNAL_ERROR", "internal error", extra);
  }

  private error(status: number, category: string, message: string, headers: Record<string, string> = {}): Response {
    return this.json(status, { status: "error", message, correlationId: this.correlationId(), category }, headers);
  }

  /** A UUID, as HubSpot's are, derived from the tenant and the request's number so answers repeat. */
  private correlationId(): string {
    this.requestSeq++;
    const hex = [0, 1, 2, 3].map((i) => hashString(`${this.tenant.seed}:${this.requestSeq}:${i}`).toString(16).padStart(8, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  private json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json;charset=utf-8", ...headers } });
  }
}

export function createCrmportalStandIn(deps: StandInDeps, opts: CrmportalStandInOptions = {}): CrmportalStandIn {
  return new CrmportalStandInImpl(deps.tenant, deps, opts);
}

/** A private-app token for one of the stand-in's two portals. */
export function standInPortalToken(standIn: StandIn, instance: CrmInstance): string {
  return standIn.oauth.mint(PORTAL_ACCOUNTS[instance]);
}
