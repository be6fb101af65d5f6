import { ApiError, statusOf, type ErrorCode } from "@/lib/contract/errors";
import { endpointById, endpoints, type EndpointDef, type EndpointId, type QueryOf, type ResponseOf } from "@/lib/contract/endpoints";
import { checkPathValues, matchPath } from "@/lib/contract/match";
import { LIMIT_DEFAULT, parseEndpointQuery } from "@/lib/contract/query";
import { PLAYGROUND_API_BASE, PLAYGROUND_BASE, SCENARIO_PARAM, VARIANT_PARAM } from "@/lib/contract/playground";
import { findProject, noSuchProject, projectList } from "@/lib/connectors/tracker/map";
import { resolveWindow, windowIso } from "@/lib/cx/window";
import type { CrmInstance } from "@/lib/connectors/crmportal/records";
import {
  catalogue,
  DEFAULT_VARIANT,
  defaultScenario,
  isErrorVariant,
  rich,
  scenarioNamed,
  scenarios,
  scenarioVariant,
  variantGlossary,
  variantsFor,
  type DemoData,
  type ErrorVariant,
  type Scenario,
} from "@/lib/demo-api/data";

// GET /dashboards/playground/api/<api path>: the canned answer of the demo data for that path.
// It runs the real API's order (session → path values → permission → query → handler), with
// the registry's own path values and query schemas, so a path value or query the real API
// refuses is refused here the same way, whatever the variant.
//
// Which variant answers, most specific first:
//   1. `?variant=<name>` on the request: that variant of this path, for this one request;
//   2. `?scenario=<name>` on the request: that scenario's variant of this path;
//   3. the draft's `examples` (concrete path first, then its pattern);
//   4. the draft's `scenario`;
//   5. the default scenario: every path at `rich`.
// Both parameters are the playground's own; the API schemas never see them.
//
// Plain TypeScript with no server-only imports: the editor's broker may answer drafts with it.

/** Support conversations come a vendor page at a time (Intercom's default page size). */
const SUPPORT_PAGE_SIZE = 50;

interface DemoApiInput {
  /** The API path relative to the API base, with a leading slash and without the query. */
  path: string;
  search: URLSearchParams;
  /** The draft's scenario, when answering for a draft. */
  scenario?: string;
  /** The draft's examples: API path (pattern or concrete) → variant name. */
  examples?: Record<string, string>;
}

interface DemoApiAnswer {
  status: number;
  body: unknown;
}

function fail(code: ErrorCode, hint?: string): DemoApiAnswer {
  return { status: statusOf(code), body: hint ? { error: code, hint } : { error: code } };
}

export function demoApiResponse(input: DemoApiInput): DemoApiAnswer {
  try {
    return answer(input);
  } catch (err) {
    if (err instanceof ApiError) return fail(err.code, err.hint);
    throw err;
  }
}

/** A playground parameter given at most once; undefined when absent. */
function single(search: URLSearchParams, key: string): string | undefined {
  const values = search.getAll(key);
  if (values.length > 1) throw new ApiError("invalid_query", `${key} was given ${values.length} times; give it once.`);
  return values[0];
}

function scenarioOrFail(name: string): Scenario {
  const s = scenarioNamed(name);
  if (!s) throw new ApiError("unknown_scenario", `scenario: no scenario "${name.slice(0, 40)}"; it is one of ${scenarios.map((x) => x.name).join(", ")}.`);
  return s;
}

function unknownVariant(path: string, variant: string): ApiError {
  const offered = variantsFor(path);
  return new ApiError(
    "unknown_example",
    offered.length ? `${path} has no variant "${variant}"; its variants: ${offered.join(", ")}.` : `${path} is not an API path; GET ${PLAYGROUND_BASE}/endpoints lists them.`,
  );
}

function answer(input: DemoApiInput): DemoApiAnswer {
  const askedVariant = single(input.search, VARIANT_PARAM);
  const askedScenario = single(input.search, SCENARIO_PARAM);
  const requestScenario = askedScenario === undefined ? undefined : scenarioOrFail(askedScenario);
  const draftScenario = input.scenario === undefined ? undefined : scenarioOrFail(input.scenario);

  const match = matchPath(input.path);
  if (!match) {
    if (askedVariant !== undefined) throw unknownVariant(input.path, askedVariant);
    return fail("no_example", `Nothing answers ${input.path} in the demo; GET ${PLAYGROUND_BASE}/endpoints lists the API paths.`);
  }
  const endpoint = match.endpoint;

  let name: string;
  if (askedVariant !== undefined) name = askedVariant;
  else if (requestScenario) name = scenarioVariant(requestScenario, input.path, endpoint);
  else {
    const examples = input.examples ?? {};
    const fromDraft = Object.hasOwn(examples, input.path) ? examples[input.path] : Object.hasOwn(examples, endpoint.path) ? examples[endpoint.path] : undefined;
    name = fromDraft ?? scenarioVariant(draftScenario ?? scenarioOrFail(defaultScenario), input.path, endpoint);
    if (fromDraft !== undefined && !Object.hasOwn(catalogue[endpoint.id], fromDraft)) throw unknownVariant(endpoint.path, fromDraft);
  }
  if (askedVariant !== undefined && !Object.hasOwn(catalogue[endpoint.id], askedVariant)) throw unknownVariant(endpoint.path, askedVariant);

  return respond(endpoint.id, name, match.params, input.search);
}

function errorAnswer(v: ErrorVariant, params: Readonly<Record<string, string>>): DemoApiAnswer {
  return fail(v.error, typeof v.hint === "function" ? v.hint(params) : v.hint);
}

function respond<Id extends EndpointId>(id: Id, name: string, params: Record<string, string>, search: URLSearchParams): DemoApiAnswer {
  const variants = catalogue[id];
  const variant = Object.hasOwn(variants, name) ? variants[name] : undefined;
  if (!variant) return fail("no_example", `The demo has no "${name}" example for ${endpointById(id).path}.`);
  const endpoint: EndpointDef = endpointById(id);

  if (isErrorVariant(variant) && variant.at === "session") return errorAnswer(variant, params);

  checkPathValues({ endpoint, params });

  if (isErrorVariant(variant) && variant.at === "permission") return errorAnswer(variant, params);

  const parsed = parseEndpointQuery(search, endpoint, [SCENARIO_PARAM, VARIANT_PARAM]);
  if (isErrorVariant(variant)) return errorAnswer(variant, params);

  // The query was parsed by this endpoint's own schema, so it has this endpoint's query type.
  const query = parsed as QueryOf<Id>;
  const listKey = `${id}:${params.instance ?? ""}`;
  const shape = (handlers as { [K in Id]?: Shape<Id> })[id] ?? ((_: Ctx<Id>, data: DemoData[Id]) => data as ResponseOf<Id>);
  const body = shape({ params, query, listKey }, variant.data());
  return { status: 200, body };
}

// ── Cursors ───────────────────────────────────────────────────────────────────────────────
// Opaque to clients and checked, so a cursor this demo did not issue (or issued for another
// list) answers 400 invalid_cursor, as the real API's MAC-checked cursors do. The data is
// public, so a checksum is enough here; no secret is involved.

function fnv1a(s: string, seed: number): string {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

const check = (body: string) => fnv1a(`demo-cursor:${body}`, 0x811c9dc5) + fnv1a(`${body}:demo-cursor`, 0x050c5d1f);

function toBase64Url(s: string): string {
  let bin = "";
  for (const b of new TextEncoder().encode(s)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(s: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(s)) return null;
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

function sealCursor(list: string, after: string): string {
  const body = toBase64Url(JSON.stringify([list, after]));
  return `${body}.${check(body)}`;
}

/** The id a cursor continues after; 400 invalid_cursor for anything this list did not issue. */
function openCursor(list: string, cursor: string): string {
  const invalid = new ApiError("invalid_cursor", "Pass back a nextCursor exactly as this endpoint returned it.");
  const [body, mac, extra] = cursor.split(".");
  if (!body || !mac || extra !== undefined || check(body) !== mac) throw invalid;
  const text = fromBase64Url(body);
  let value: unknown;
  try {
    value = text === null ? null : JSON.parse(text);
  } catch {
    throw invalid;
  }
  if (!Array.isArray(value) || value.length !== 2 || value[0] !== list || typeof value[1] !== "string") throw invalid;
  return value[1];
}

/** Keyset paging by id over a list sorted by id, as the CRM endpoints page. */
function keysetPage<T extends { id: string }>(items: readonly T[], q: { limit?: number; cursor?: string }, list: string): { items: T[]; nextCursor: string | null } {
  const limit = q.limit ?? LIMIT_DEFAULT;
  const after = q.cursor === undefined ? null : openCursor(list, q.cursor);
  let start = 0;
  if (after !== null) {
    start = items.findIndex((i) => i.id > after);
    if (start < 0) start = items.length;
  }
  const page = items.slice(start, start + limit);
  const last = page.at(-1);
  return { items: page, nextCursor: start + limit < items.length && last ? sealCursor(list, last.id) : null };
}

/** Vendor paging: the next page starts after the item the cursor names, in the list's own order. */
function positionPage<T extends { id: string }>(items: readonly T[], cursor: string | undefined, size: number, list: string): { items: T[]; nextCursor: string | null } {
  let start = 0;
  if (cursor !== undefined) {
    const after = openCursor(list, cursor);
    start = items.findIndex((i) => i.id === after) + 1;
    if (start === 0) throw new ApiError("invalid_cursor", "Pass back a nextCursor exactly as this endpoint returned it.");
  }
  const page = items.slice(start, start + size);
  const last = page.at(-1);
  return { items: page, nextCursor: start + size < items.length && last ? sealCursor(list, last.id) : null };
}

// ── Handlers: path values and queries applied to a variant's data ─────────────────────────

interface Ctx<Id extends EndpointId> {
  params: Readonly<Record<string, string>>;
  query: QueryOf<Id>;
  /** Which list a cursor belongs to: the endpoint and its instance. */
  listKey: string;
}

type Shape<Id extends EndpointId> = (ctx: Ctx<Id>, data: DemoData[Id]) => ResponseOf<Id>;
/** Endpoints whose demo data is not already their answer: they must say how the answer is made. */
type Shaped = { [Id in EndpointId]: DemoData[Id] extends ResponseOf<Id> ? never : Id }[EndpointId];
/** Data that is the answer itself needs no entry; data that is paged, filtered or keyed does. */
type Handlers = { [Id in Shaped]: Shape<Id> } & { [Id in Exclude<EndpointId, Shaped>]?: Shape<Id> };

/** The registry already refused any other value (404 no_such_instance); this narrows the type. */
function instanceOf(params: Readonly<Record<string, string>>): CrmInstance {
  if (params.instance === "customers" || params.instance === "users") return params.instance;
  throw new ApiError("no_such_instance");
}

const handlers: Handlers = {
  "connections.check": ({ params }, d) => {
    const found = d.get(params.slug ?? "");
    if (!found) throw new ApiError("no_connection_check");
    return found;
  },

  "crm.companies": ({ params, query, listKey }, d) => {
    const page = keysetPage(d[instanceOf(params)], query, listKey);
    return { companies: page.items, nextCursor: page.nextCursor };
  },
  "crm.contacts": ({ params, query, listKey }, d) => {
    const page = keysetPage(d[instanceOf(params)], query, listKey);
    return { contacts: page.items, nextCursor: page.nextCursor };
  },
  "crm.deals": ({ params, query, listKey }, d) => {
    const page = keysetPage(d[instanceOf(params)], query, listKey);
    return { deals: page.items, nextCursor: page.nextCursor };
  },
  "crm.summary": ({ params }, d) => d[instanceOf(params)],
  "crm.sources": ({ params }, d) => d[instanceOf(params)],

  "vendors.tracker.issues": ({ query }, d) => {
    if (query.project === undefined) return { issues: d.assigned };
    const project = findProject(d.projects, query.project);
    // As the real read answers: a project the tracker does not have is not an empty one.
    if (!project) throw noSuchProject(query.project);
    return { issues: d.projects.find((p) => p.id === project.id)?.issues ?? [] };
  },
  "vendors.tracker.projects": (_ctx, d) => ({ projects: projectList(d.projects) }),
  "vendors.calls.transcript": ({ params }, d) => {
    const found = d.get(params.id ?? "");
    if (!found) throw new ApiError("not_found", "No call with that id in the trailing 30 days; ids come from /vendors/calls/calls.");
    return found;
  },
  "vendors.support.conversation": ({ params }, d) => {
    const found = d.get(params.id ?? "");
    if (!found) throw new ApiError("not_found", "No conversation with that id; ids come from /vendors/support/conversations.");
    return found;
  },
  "vendors.support.conversations": ({ query, listKey }, d) => {
    const page = positionPage(d, query.cursor, SUPPORT_PAGE_SIZE, listKey);
    return { conversations: page.items, nextCursor: page.nextCursor };
  },

  "cx.owners": ({ query }, d) => {
    if ("waitingOn" in d) return { ok: false, waitingOn: d.waitingOn };
    const owners = d.ready.filter((o) => query.activeOnly !== true || o.active).map((o) => ({ ownerId: o.ownerId, name: o.name, email: o.email }));
    return { ok: true, data: { owners } };
  },
  "cx.book": ({ query }, d) => {
    if ("waitingOn" in d) return { ok: false, waitingOn: d.waitingOn };
    const w = resolveWindow(query, rich().now);
    const basis = query.basis ?? "real";
    return { ok: true, data: { ownerId: query.owner, basis, window: windowIso(w), rows: d.ready(query.owner, basis, w) } };
  },
  "cx.districts": ({ query }, d) => {
    if ("waitingOn" in d) return { ok: false, waitingOn: d.waitingOn };
    const w = resolveWindow(query, rich().now);
    return { ok: true, data: { window: windowIso(w), rows: d.ready(w) } };
  },
};

// ── GET /dashboards/playground/scenarios ──────────────────────────────────────────────────

/**
 * The body of GET /dashboards/playground/scenarios:
 * {
 *   apiBase: "/dashboards/playground/api",
 *   default: "default",                      // the scenario used when none is named
 *   scenarios: [{ name, description, examples: {path: variant} }],   // examples: what it changes
 *   paths: [{ path, variants: [name, …], default: "rich" }],         // every API path, registry order
 *   variants: [{ name, description }],       // what each variant name means
 *   usage: { scenario, variant, precedence } // how to pick them
 * }
 */
interface ScenariosBody {
  apiBase: string;
  default: string;
  scenarios: { name: string; description: string; examples: Readonly<Record<string, string>> }[];
  paths: { path: string; variants: string[]; default: string }[];
  variants: { name: string; description: string }[];
  usage: { scenario: string; variant: string; precedence: string };
}

let scenariosCache: ScenariosBody | undefined;

export function scenariosBody(): ScenariosBody {
  scenariosCache ??= buildScenariosBody();
  return scenariosCache;
}

function buildScenariosBody(): ScenariosBody {
  return {
    apiBase: PLAYGROUND_API_BASE,
    default: defaultScenario,
    scenarios: scenarios.map((s) => ({ name: s.name, description: s.description, examples: s.examples })),
    paths: endpoints.map((e) => ({ path: e.path, variants: variantsFor(e.path), default: DEFAULT_VARIANT })),
    variants: Object.entries(variantGlossary).map(([name, description]) => ({ name, description })),
    usage: {
      scenario: `GET ${PLAYGROUND_API_BASE}/<api path>?${SCENARIO_PARAM}=<name> answers that scenario's variant of the path. For the playground only: never in dashboard code.`,
      variant: `GET ${PLAYGROUND_API_BASE}/<api path>?${VARIANT_PARAM}=<name> answers that variant of the path, for this one request.`,
      precedence: "?variant, then ?scenario, then the draft's examples (concrete path, then pattern), then the draft's scenario, then the default (every path rich).",
    },
  };
}
