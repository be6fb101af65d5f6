import type { ErrorCode } from "@/lib/contract/errors";
import type { EndpointId } from "@/lib/contract/endpoints";
import type {
  Call,
  CallDetailed,
  ConnectionCheck,
  CrmCompany,
  CrmContact,
  CrmDeal,
  CrmSource,
  CrmSummary,
  CxBookRow,
  CxDistrictRow,
  Favourite,
  Me,
  Repository,
  SupportConversation,
  SupportConversationDetail,
  Transcript,
} from "@/lib/contract/resources";
import { permissionsFor } from "@/lib/auth/permissions";
import type { BookBasis } from "@/lib/cx/book";
import type { Wiring } from "@/lib/cx/ready";
import type { CxWindow } from "@/lib/cx/window";
import { crmInstances, monetary } from "@/lib/connectors/crmportal/records";
import {
  bookFor,
  DEMO_VIEWER_EMAIL,
  districtsFor,
  rich,
  sourceOf,
  summaryOf,
  withSharedDistricts,
  type OwnerEntry,
  type PerInstance,
  type PortalCompany,
  type PortalContact,
  type PortalDeal,
  type Rich,
  type TrackerData,
} from "./data";
import * as edge from "./edge";

// Every demo variant of every endpoint: its name, what it answers, and (for errors) at which
// point of the real API's order it answers (session → path values → permission → query →
// handler), so a variant meets a bad path value or query exactly where the real API would.

export interface ErrorVariant {
  error: ErrorCode;
  /** `session`: before path values are checked (401); `permission`: after them, before the query; else after the query. */
  at?: "session" | "permission";
  hint?: string | ((params: Readonly<Record<string, string>>) => string);
}

/** A success answer's data, made on first use; the demo API applies path values and queries to it. */
export interface DataVariant<T> {
  data: () => T;
}

export type Variant<T> = ErrorVariant | DataVariant<T>;

/** The CX views answer `{ok: false, waitingOn}` until the deployment can answer. */
export type CxSource<T> = { waitingOn: string } | { ready: T };

export type BookSource = (owner: string, basis: BookBasis, w: CxWindow) => CxBookRow[];
export type DistrictSource = (w: CxWindow) => CxDistrictRow[];

/** What each endpoint's variants hold, before path values and queries are applied. */
export interface DemoData {
  me: Me;
  "me.favourites": { favourites: Favourite[] };
  "me.home": { path: string | null };
  /** By connector slug. */
  "connections.check": ReadonlyMap<string, ConnectionCheck>;
  "crm.companies": PerInstance<CrmCompany[]>;
  "crm.contacts": PerInstance<CrmContact[]>;
  "crm.deals": PerInstance<CrmDeal[]>;
  "crm.summary": PerInstance<CrmSummary>;
  "crm.sources": PerInstance<{ sources: CrmSource[] }>;
  "vendors.tracker.issues": TrackerData;
  "vendors.tracker.projects": TrackerData;
  "vendors.coderepo.repos": { repos: Repository[] };
  "vendors.calls.calls": { calls: Call[] };
  "vendors.calls.detailed": { calls: CallDetailed[] };
  /** By call id. */
  "vendors.calls.transcript": ReadonlyMap<string, Transcript>;
  /** Newest update first; the demo API pages it. */
  "vendors.support.conversations": SupportConversation[];
  /** By conversation id. */
  "vendors.support.conversation": ReadonlyMap<string, SupportConversationDetail>;
  "vendors.crmportal.companies": { companies: PortalCompany[] };
  "vendors.crmportal.contacts": { contacts: PortalContact[] };
  "vendors.crmportal.deals": { deals: PortalDeal[] };
  "cx.owners": CxSource<OwnerEntry[]>;
  "cx.book": CxSource<BookSource>;
  "cx.districts": CxSource<DistrictSource>;
}

type Catalogue = { readonly [Id in EndpointId]: Readonly<Record<string, Variant<DemoData[Id]>>> };

export const DEFAULT_VARIANT = "rich";

/** What each variant name means, wherever it is offered. */
export const variantGlossary: Readonly<Record<string, string>> = {
  rich: "The richest answer: a signed-in CSM lead with everything connected and a synced CRM (the default).",
  empty: "Signed in and connected, but there is nothing to list (empty lists, zero totals, a null home path).",
  member: "/me only: a signed-in member without the admin or cx groups.",
  signed_out: "401 unauthorized: the viewer is not signed in.",
  server_error: "500 internal_error: an unexpected failure.",
  forbidden: "403 forbidden: signed in, but without the permission (crm.<instance>.read, cx.read).",
  not_connected: "The viewer has not connected this system: 401 <slug>_not_connected, or a check answering status not-connected.",
  not_configured: "The connector is not configured in this deployment: 503 <slug>_not_configured, or a check answering status not-configured.",
  failed: "Connection checks: the probe failed (status failed). CRM sources: the last sync failed.",
  upstream_error: "502 <slug>_upstream_error: the outside system failed or did not answer in time.",
  not_opted_in: "403 calls_not_opted_in: the viewer has not opted in to call recordings.",
  donor_missing: "409 calls_donor_not_connected: the shared call-recording credential is not connected.",
  not_synced: "The first CRM portal sync is still running: 503 crm_not_synced for data, progress in /sources.",
  never_run: "CRM sources: no sync has started yet.",
  non_monetary: "CRM at a non-monetary instance's shapes: arr null, no deals, no pipeline.",
  waiting: "CX views: {ok: false, waitingOn} while the first CRM portal sync runs; render the text, not zeroes.",
  crm_only: "CX views: the CRM is synced but the product's health and usage are not loaded (health and reach null).",
  quiet: "CX districts: some with no touch in the window (silent30d true, daysSinceContact null) and some with no health data (health null).",
  shared_districts:
    "CX views: districts shared by two or three CSMs with unequal counts, so one owns most (one district a 1–1 tie); books span several districts and overlap (the `shared-districts` scenario says how).",
};

// ── shared pieces ─────────────────────────────────────────────────────────────────────────

/** Computes on first use each day (the demo's tenant is today's), then answers the same value. */
function once<T>(make: () => T): () => T {
  let holder: { day: string; value: T } | undefined;
  return () => {
    const day = rich().tenant.referenceDate;
    if (holder?.day !== day) holder = { day, value: make() };
    return holder.value;
  };
}

/** A small bounded memo, so repeated CX windows are computed once. */
function memo<A extends unknown[], R>(key: (...args: A) => string, compute: (...args: A) => R, max = 256): (...args: A) => R {
  const cache = new Map<string, R>();
  return (...args: A) => {
    const k = key(...args);
    const hit = cache.get(k);
    if (hit !== undefined) return hit;
    const value = compute(...args);
    if (cache.size >= max) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(k, value);
    return value;
  };
}

const perInstance = <T>(make: (instance: (typeof crmInstances)[number]) => T): PerInstance<T> => ({
  customers: make("customers"),
  users: make("users"),
});

const signedOut: ErrorVariant = { error: "unauthorized", at: "session", hint: edge.hints.unauthorized };
const serverError: ErrorVariant = { error: "internal_error", hint: edge.hints.internal_error };
const crmForbidden: ErrorVariant = { error: "forbidden", at: "permission", hint: (p) => `This needs the crm.${p.instance ?? "customers"}.read permission.` };
const cxForbidden: ErrorVariant = { error: "forbidden", at: "permission", hint: "This needs the cx.read permission." };
const crmNotSynced: ErrorVariant = { error: "crm_not_synced", hint: edge.crmNotSyncedHint };

const common = { signed_out: signedOut, server_error: serverError } as const;

function vendorErrors(slug: "tracker" | "coderepo" | "support") {
  return {
    not_connected: { error: `${slug}_not_connected`, hint: edge.notConnectedHint(slug) },
    not_configured: { error: `${slug}_not_configured`, hint: edge.notConfiguredHint(slug) },
    upstream_error: { error: `${slug}_upstream_error`, hint: edge.hints.upstream },
  } as const satisfies Record<string, ErrorVariant>;
}

const callsErrors = {
  not_opted_in: { error: "calls_not_opted_in", hint: edge.hints.calls_not_opted_in },
  donor_missing: { error: "calls_donor_not_connected", hint: edge.hints.calls_donor_not_connected },
  not_configured: { error: "calls_not_configured", hint: edge.notConfiguredHint("calls") },
  upstream_error: { error: "calls_upstream_error", hint: edge.hints.upstream },
} as const satisfies Record<string, ErrorVariant>;

const portalErrors = {
  not_configured: { error: "crmportal_not_configured", hint: edge.hints.crmportal_not_configured },
  upstream_error: { error: "crmportal_upstream_error", hint: edge.hints.crmportal_upstream },
} as const satisfies Record<string, ErrorVariant>;

// ── CRM ───────────────────────────────────────────────────────────────────────────────────

/** The API's answer for an instance: money only where the instance is monetary (and `money` allows). */
function crmView(r: Rich, money: boolean) {
  const withMoney = (i: (typeof crmInstances)[number]) => money && monetary[i];
  return {
    companies: perInstance((i) => (withMoney(i) ? r.crm.companies[i] : r.crm.companies[i].map((c) => ({ ...c, arr: null })))),
    contacts: perInstance((i) => r.crm.contacts[i]),
    deals: perInstance((i) => (withMoney(i) ? r.crm.deals[i] : [])),
    summary: perInstance((i) => summaryOf(r.crm.contacts[i], r.crm.companies[i], r.crm.deals[i], withMoney(i))),
    objects: perInstance((i) => (withMoney(i) ? r.crm.objects[i] : r.crm.objects[i].filter((o) => o.object !== "deals"))),
  };
}

const crmRich = once(() => crmView(rich(), true));
const crmNonMonetary = once(() => crmView(rich(), false));

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

const sourcesRich = once(() => {
  const { now } = rich();
  const objects = crmRich().objects;
  return perInstance((i) => sourceOf({ status: "ok", lastRunAt: now - 14 * MINUTE_MS, lastSuccessAt: now - 13 * MINUTE_MS, progress: null, objects: objects[i], lastError: null }));
});

const sourcesNonMonetary = once(() => {
  const { now } = rich();
  const objects = crmNonMonetary().objects;
  return perInstance((i) => sourceOf({ status: "ok", lastRunAt: now - 14 * MINUTE_MS, lastSuccessAt: now - 13 * MINUTE_MS, progress: null, objects: objects[i], lastError: null }));
});

/** Part-way through the first sync: objects are synced in order, so the earlier ones are done. */
const sourcesFirstSync = once(() => {
  const { now } = rich();
  return perInstance((i) => {
    const full = crmRich().objects[i];
    const expected = full.reduce((s, o) => s + o.rows, 0);
    let left = Math.ceil(edge.firstSync.share * expected);
    const done = left;
    const objects = full.map((o) => {
      const rows = Math.min(o.rows, left);
      left -= rows;
      return { object: o.object, watermark: rows === o.rows && rows > 0 ? o.watermark : null, rows };
    });
    return sourceOf({
      status: "running",
      lastRunAt: now - edge.firstSync.startedMinutesAgo * MINUTE_MS,
      lastSuccessAt: null,
      progress: { done, expected },
      objects,
      lastError: null,
    });
  });
});

const sourcesNeverRun = once(() =>
  perInstance((i) =>
    sourceOf({
      status: "never_run",
      lastRunAt: null,
      lastSuccessAt: null,
      progress: null,
      objects: crmRich().objects[i].map((o) => ({ object: o.object, watermark: null, rows: 0 })),
      lastError: null,
    }),
  ),
);

const sourcesFailed = once(() => {
  const { now } = rich();
  return perInstance((i) =>
    sourceOf({
      status: "failed",
      lastRunAt: now - edge.failedSync.lastRunHoursAgo * HOUR_MS,
      lastSuccessAt: now - edge.failedSync.lastSuccessHoursAgo * HOUR_MS,
      progress: null,
      objects: crmRich().objects[i],
      lastError: edge.failedSync.lastError,
    }),
  );
});

const emptyLists = <T>(): PerInstance<T[]> => ({ customers: [], users: [] });

function crmList<K extends "companies" | "contacts" | "deals">(key: K) {
  return {
    rich: { data: () => crmRich()[key] },
    empty: { data: emptyLists },
    non_monetary: { data: () => crmNonMonetary()[key] },
    not_synced: crmNotSynced,
    forbidden: crmForbidden,
    ...common,
  };
}

// ── Outside systems ───────────────────────────────────────────────────────────────────────

const slugs = ["tracker", "coderepo", "calls", "support", "crmportal"] as const;

function checksWith(edit: (slug: edge.Slug) => ConnectionCheck | null): () => ReadonlyMap<string, ConnectionCheck> {
  return once(() => {
    const base = rich().checks;
    return new Map(
      slugs.flatMap((slug) => {
        const c = edit(slug) ?? base.get(slug);
        return c ? [[slug, c] as const] : [];
      }),
    );
  });
}

// ── Customer success ──────────────────────────────────────────────────────────────────────

const fullWiring: Wiring = { engagements: true, health: true, usage: true };
const crmOnlyWiring: Wiring = { engagements: true, health: false, usage: false };

const windowKey = (w: CxWindow) => `${w.sinceDate}..${w.untilDate}`;

function bookSource(wiring: Wiring, data: () => Rich = rich): () => CxSource<BookSource> {
  return once(() => {
    const r = data();
    return { ready: memo((o: string, b: BookBasis, w: CxWindow) => `${o}|${b}|${windowKey(w)}`, (o, b, w) => bookFor(r, o, b, w, wiring)) };
  });
}

function districtSource(wiring: Wiring, data: () => Rich = rich): () => CxSource<DistrictSource> {
  return once(() => {
    const r = data();
    return { ready: memo(windowKey, (w: CxWindow) => districtsFor(r, w, wiring)) };
  });
}

/**
 * The rich districts with the states a district can be in made certain: every third has had no
 * touch in the window (no last touch, `daysSinceContact` null, silent for 30 days) and every
 * fourth has no health data (health null), so a dashboard's silence flag and "no data" text
 * have something to show.
 */
function quietDistricts(): () => CxSource<DistrictSource> {
  return once(() => {
    const source = districtSource(fullWiring)();
    if (!("ready" in source)) return source;
    return {
      ready: (w: CxWindow) =>
        source.ready(w).map((row, i) => ({
          ...row,
          cadence: i % 3 === 0 && row.cadence ? { lastTouchDate: null, daysSinceContact: null, byKind: { call: 0, meeting: 0, email: 0 }, silent30d: true } : row.cadence,
          health: i % 4 === 1 ? null : row.health,
        })),
    };
  });
}

/** Today's rich set with its districts shared among CSMs: the `shared_districts` variants answer from it. */
const sharedRich = once(() => withSharedDistricts(rich()));

const waiting = <T>(): { data: () => CxSource<T> } => ({ data: () => ({ waitingOn: edge.firstSync.waitingOn }) });

// ── The catalogue ─────────────────────────────────────────────────────────────────────────

export const catalogue: Catalogue = {
  me: {
    rich: {
      data: once((): Me => {
        const groups = ["admin", "cx"];
        return { email: DEMO_VIEWER_EMAIL, groups, permissions: permissionsFor(groups) };
      }),
    },
    member: { data: () => edge.memberMe },
    ...common,
  },
  "me.favourites": {
    rich: { data: () => ({ favourites: edge.favourites }) },
    empty: { data: () => ({ favourites: [] }) },
    ...common,
  },
  "me.home": {
    rich: { data: () => ({ path: edge.homePath }) },
    empty: { data: () => ({ path: null }) },
    ...common,
  },
  "connections.check": {
    rich: { data: () => rich().checks },
    not_connected: { data: checksWith(edge.notConnectedCheck) },
    not_configured: { data: checksWith(edge.notConfiguredCheck) },
    failed: { data: checksWith(edge.failedCheck) },
    ...common,
  },

  "crm.companies": crmList("companies"),
  "crm.contacts": crmList("contacts"),
  "crm.deals": crmList("deals"),
  "crm.summary": {
    rich: { data: () => crmRich().summary },
    empty: {
      data: () => perInstance((i) => summaryOf([], [], [], monetary[i])),
    },
    non_monetary: { data: () => crmNonMonetary().summary },
    not_synced: crmNotSynced,
    forbidden: crmForbidden,
    ...common,
  },
  "crm.sources": {
    rich: { data: sourcesRich },
    non_monetary: { data: sourcesNonMonetary },
    not_synced: { data: sourcesFirstSync },
    never_run: { data: sourcesNeverRun },
    failed: { data: sourcesFailed },
    forbidden: crmForbidden,
    ...common,
  },

  "vendors.tracker.issues": {
    rich: { data: () => rich().tracker },
    empty: { data: once((): TrackerData => ({ assigned: [], projects: rich().tracker.projects.map((p) => ({ ...p, issues: [] })) })) },
    ...vendorErrors("tracker"),
    ...common,
  },
  // The same projects the issues read finds by name: a dashboard lists them, then reads one.
  "vendors.tracker.projects": {
    rich: { data: () => rich().tracker },
    empty: { data: () => ({ assigned: [], projects: [] }) },
    ...vendorErrors("tracker"),
    ...common,
  },
  "vendors.coderepo.repos": {
    rich: { data: () => ({ repos: rich().repos }) },
    empty: { data: () => ({ repos: [] }) },
    ...vendorErrors("coderepo"),
    ...common,
  },
  "vendors.calls.calls": {
    rich: { data: () => ({ calls: rich().calls }) },
    empty: { data: () => ({ calls: [] }) },
    ...callsErrors,
    ...common,
  },
  "vendors.calls.detailed": {
    rich: { data: () => ({ calls: rich().detailed }) },
    empty: { data: () => ({ calls: [] }) },
    ...callsErrors,
    ...common,
  },
  "vendors.calls.transcript": {
    rich: { data: () => rich().transcripts },
    // No calls in the window, so no id has a transcript.
    empty: { data: () => new Map<string, Transcript>() },
    ...callsErrors,
    ...common,
  },
  "vendors.support.conversations": {
    rich: { data: () => rich().conversations },
    empty: { data: () => [] },
    ...vendorErrors("support"),
    ...common,
  },
  "vendors.support.conversation": {
    rich: { data: () => rich().conversationDetails },
    // No conversations, so no id names one.
    empty: { data: () => new Map<string, SupportConversationDetail>() },
    ...vendorErrors("support"),
    ...common,
  },
  "vendors.crmportal.companies": {
    rich: { data: () => ({ companies: rich().portal.companies }) },
    empty: { data: () => ({ companies: [] }) },
    ...portalErrors,
    ...common,
  },
  "vendors.crmportal.contacts": {
    rich: { data: () => ({ contacts: rich().portal.contacts }) },
    empty: { data: () => ({ contacts: [] }) },
    ...portalErrors,
    ...common,
  },
  "vendors.crmportal.deals": {
    rich: { data: () => ({ deals: rich().portal.deals }) },
    empty: { data: () => ({ deals: [] }) },
    ...portalErrors,
    ...common,
  },

  "cx.owners": {
    rich: { data: () => ({ ready: rich().owners }) },
    empty: { data: () => ({ ready: [] }) },
    shared_districts: { data: () => ({ ready: sharedRich().owners }) },
    waiting: waiting(),
    forbidden: cxForbidden,
    ...common,
  },
  "cx.book": {
    rich: { data: bookSource(fullWiring) },
    empty: { data: () => ({ ready: () => [] }) },
    crm_only: { data: bookSource(crmOnlyWiring) },
    shared_districts: { data: bookSource(fullWiring, sharedRich) },
    waiting: waiting(),
    forbidden: cxForbidden,
    ...common,
  },
  "cx.districts": {
    rich: { data: districtSource(fullWiring) },
    empty: { data: () => ({ ready: () => [] }) },
    crm_only: { data: districtSource(crmOnlyWiring) },
    quiet: { data: quietDistricts() },
    shared_districts: { data: districtSource(fullWiring, sharedRich) },
    waiting: waiting(),
    forbidden: cxForbidden,
    ...common,
  },
};

export function isErrorVariant<T>(v: Variant<T>): v is ErrorVariant {
  return "error" in v;
}
