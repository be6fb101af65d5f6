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
  Repository,
  SupportConversation,
  SupportConversationDetail,
  TrackerIssue,
  Transcript,
  portalCompany,
  portalContact,
  portalDeal,
} from "@/lib/contract/resources";
import type { z } from "zod";
import { byStartedDesc, mapCall, mapCallDetailed, mapTranscript } from "@/lib/connectors/calls/map";
import { toSupportConversation, toSupportConversationDetail } from "@/lib/connectors/support/map";
import { toAssignedIssue, toProjectIssue } from "@/lib/connectors/tracker/map";
import { bookRows, type BookBasis } from "@/lib/cx/book";
import { districtRows } from "@/lib/cx/districts";
import type { Wiring } from "@/lib/cx/ready";
import type { CxWindow } from "@/lib/cx/window";
import type { Touch } from "@/lib/cx/cadence";
import type { HealthPoint } from "@/lib/cx/health";
import type { CompanyRow, SchoolRow } from "@/lib/cx/load";
import { DAY_MS, DEMO_CSM_EMAIL, conversationThread, generateTenant, hashString, portalIdOf, referenceDateAt, teamCompanies, type Tenant, type ThreadPart } from "@/demo/tenant";
import { demoUsers } from "@/demo/users";
import type { CrmInstance } from "@/lib/connectors/crmportal/records";
import { byKnownOrder, LIFECYCLE_ORDER, PIPELINE_ORDER } from "@/lib/crm/stages";
import { shareDistricts } from "./shared-districts";

// The rich demo answers, generated from the deterministic demo tenant with a fixed reference
// date, so every request, machine and build sees the same data. The shapes follow the real
// API's own mappings (the vendor mappers, lib/cx's pure computations), so a dashboard drafted
// against them meets the same field presence, order and semantics live.
//
// Plain TypeScript with no server-only imports: the editor's broker may answer from it in
// the browser.

/**
 * The demo's "today": the tenant is generated for the present day (its clock is that day's 12:00
 * UTC, as the stand-ins' is: `referenceDateAt`), so "open for N days" and "days since contact" in
 * the demo world read as they would live.
 */
export function demoReferenceDate(now: number = Date.now()): string {
  return referenceDateAt(now);
}
/** Whose view the demo shows: the demo CSM, who also owns a book of business. */
export const DEMO_VIEWER_EMAIL = DEMO_CSM_EMAIL;

export type PerInstance<T> = Record<CrmInstance, T>;

export type PortalCompany = z.infer<typeof portalCompany>;
export type PortalContact = z.infer<typeof portalContact>;
export type PortalDeal = z.infer<typeof portalDeal>;

export interface OwnerEntry {
  ownerId: string;
  name: string;
  email: string;
  /** False for an owner who has left; `activeOnly=true` drops them. */
  active: boolean;
}

export interface TrackerData {
  /** The viewer's open assigned issues (the assigned view's fields only), newest first. */
  assigned: TrackerIssue[];
  /** Projects by name, each with every issue in it (the project view's fields), newest first. */
  projects: { id: string; name: string; issues: TrackerIssue[] }[];
}

/** The CRM's records in the API's shapes, money included; the catalogue drops it where an instance or variant is non-monetary. */
export interface CrmData {
  companies: PerInstance<CrmCompany[]>;
  contacts: PerInstance<CrmContact[]>;
  /** The stored deals; the API answers them for monetary instances only. */
  deals: PerInstance<CrmDeal[]>;
  /** Row counts and watermarks per synced object type, for /sources. */
  objects: PerInstance<{ object: string; watermark: number | null; rows: number }[]>;
}

export interface Rich {
  tenant: Tenant;
  now: number;
  viewerName: string;
  checks: Map<string, ConnectionCheck>;
  crm: CrmData;
  tracker: TrackerData;
  repos: Repository[];
  calls: Call[];
  detailed: CallDetailed[];
  transcripts: Map<string, Transcript>;
  conversations: SupportConversation[];
  /** By conversation id, with what was said. */
  conversationDetails: Map<string, SupportConversationDetail>;
  portal: { companies: PortalCompany[]; contacts: PortalContact[]; deals: PortalDeal[] };
  owners: OwnerEntry[];
  cx: CxInputs;
}

interface CxInputs {
  schoolsByOwner: Map<string, SchoolRow[]>;
  schoolsById: Map<string, SchoolRow>;
  companies: CompanyRow[];
  touches: Map<string, Touch[]>;
  /** Per owner: the touches they logged, with the company touched. */
  touchesByOwner: Map<string, { companyId: string; at: number; kind: string }[]>;
  health: Map<string, HealthPoint[]>;
  /** Per product school id: usage weeks, oldest first. */
  usage: Map<string, { weekStart: string; activePersons: number }[]>;
}

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const collator = new Intl.Collator("en", { sensitivity: "base" });

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}


// ── CRM ───────────────────────────────────────────────────────────────────────────────────

/** The internal `users` portal: one company per team, staff as contacts (as the CRM portal stand-in serves it). */
function usersInstance(t: Tenant): { companies: CrmCompany[]; contacts: CrmContact[] } {
  const { teams, ids: teamIds } = teamCompanies(t);
  const companies = teams.map((team): CrmCompany => {
    const members = t.staff.filter((s) => s.team === team);
    return {
      id: teamIds.get(team) ?? "",
      name: team,
      industry: "Internal",
      employees: members.length,
      parentCompanyId: null,
      arr: null,
      updatedAt: Math.max(...members.map((s) => s.updatedAt)),
    };
  });
  const contacts = t.staff.map(
    (s): CrmContact => ({
      id: s.id,
      email: s.email,
      firstName: s.firstName,
      lastName: s.lastName,
      companyId: teamIds.get(s.team) ?? null,
      lifecycleStage: s.lifecycleStage,
      updatedAt: s.updatedAt,
    }),
  );
  return { companies: companies.sort(byId), contacts: contacts.sort(byId) };
}

function crmData(t: Tenant): CrmData {
  const companies = t.companies
    .filter((c) => !c.archived)
    .map(
      (c): CrmCompany => ({
        id: c.id,
        name: c.name,
        domain: c.domain,
        industry: c.industry,
        employees: c.employees,
        parentCompanyId: c.parentCompanyId,
        arr: c.arr,
        updatedAt: c.updatedAt,
      }),
    )
    .sort(byId);
  const contacts = t.contacts
    .filter((c) => !c.archived)
    .map(
      (c): CrmContact => ({
        id: c.id,
        email: c.email,
        firstName: c.firstName,
        lastName: c.lastName,
        companyId: c.companyId,
        lifecycleStage: c.lifecycleStage,
        updatedAt: c.updatedAt,
      }),
    )
    .sort(byId);
  const deals = t.deals
    .filter((d) => !d.archived)
    .map(
      (d): CrmDeal => ({
        id: d.id,
        name: d.name,
        companyId: d.companyId,
        amount: d.amount,
        stage: d.stage,
        closeDate: d.closeDate,
        updatedAt: d.updatedAt,
      }),
    )
    .sort(byId);
  const users = usersInstance(t);
  const newest = (xs: readonly { updatedAt?: number }[]) => (xs.length ? Math.max(...xs.map((x) => x.updatedAt ?? 0)) : null);
  const engagementMark = t.engagements.length ? Math.max(...t.engagements.map((e) => e.timestamp)) : null;
  return {
    companies: { customers: companies, users: users.companies },
    contacts: { customers: contacts, users: users.contacts },
    deals: { customers: deals, users: [] },
    objects: {
      customers: [
        { object: "owners", watermark: t.now - 3 * DAY_MS, rows: t.owners.length },
        { object: "companies", watermark: newest(companies), rows: companies.length },
        { object: "contacts", watermark: newest(contacts), rows: contacts.length },
        { object: "deals", watermark: newest(deals), rows: deals.length },
        { object: "engagements", watermark: engagementMark, rows: t.engagements.length },
      ],
      users: [
        { object: "owners", watermark: null, rows: 0 },
        { object: "companies", watermark: newest(users.companies), rows: users.companies.length },
        { object: "contacts", watermark: newest(users.contacts), rows: users.contacts.length },
        { object: "engagements", watermark: null, rows: 0 },
      ],
    },
  };
}

/** The summary as lib/crm/answers computes it; `withMoney` false drops deals and the pipeline. */
export function summaryOf(contacts: readonly CrmContact[], companies: readonly CrmCompany[], deals: readonly CrmDeal[], withMoney: boolean): CrmSummary {
  const lifecycle = new Map<string, number>();
  for (const c of contacts) if (c.lifecycleStage !== undefined) lifecycle.set(c.lifecycleStage, (lifecycle.get(c.lifecycleStage) ?? 0) + 1);
  const pipeline = new Map<string, { count: number; amount: number }>();
  for (const d of withMoney ? deals : []) {
    if (d.stage === undefined) continue;
    const p = pipeline.get(d.stage) ?? { count: 0, amount: 0 };
    p.count += 1;
    p.amount += d.amount ?? 0;
    pipeline.set(d.stage, p);
  }
  return {
    totals: { contacts: contacts.length, companies: companies.length, deals: withMoney ? deals.length : 0 },
    lifecycle: [...lifecycle].map(([stage, count]) => ({ stage, count })).sort(byKnownOrder(LIFECYCLE_ORDER)),
    ...(withMoney ? { pipeline: [...pipeline].map(([stage, p]) => ({ stage, ...p })).sort(byKnownOrder(PIPELINE_ORDER)) } : {}),
  };
}

/** The CRM portal connector's sync state for an instance, in the /sources shape. */
export function sourceOf(fields: Omit<CrmSource, "connector" | "title">): { sources: CrmSource[] } {
  return { sources: [{ connector: "crmportal", title: "CRM portal", ...fields }] };
}

// ── Outside systems ───────────────────────────────────────────────────────────────────────

/** Linear's nickname per person: the first name, made unique (as the tracker stand-in does). */
function trackerPeople(t: Tenant): Map<string, { name: string; displayName: string }> {
  const raw = new Map<string, { name: string; first: string; last: string }>();
  for (const u of demoUsers) {
    const [first = u.name, ...rest] = u.name.split(" ");
    raw.set(u.email, { name: u.name, first, last: rest.join(" ") });
  }
  for (const s of t.staff) if (!raw.has(s.email)) raw.set(s.email, { name: `${s.firstName} ${s.lastName}`.trim(), first: s.firstName, last: s.lastName });
  const taken = new Set<string>();
  const nick = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  const out = new Map<string, { name: string; displayName: string }>();
  for (const [email, p] of raw) {
    const base = nick(p.first) || nick(email.split("@")[0] ?? "") || "user";
    let displayName = base;
    if (taken.has(displayName)) displayName = `${base}${nick(p.last).slice(0, 1)}`;
    for (let n = 2; taken.has(displayName); n++) displayName = `${base}${n}`;
    taken.add(displayName);
    out.set(email, { name: p.name, displayName });
  }
  return out;
}

const PRIORITY_LABELS = ["No priority", "Urgent", "High", "Medium", "Low"] as const;
const CLOSED_STATE_TYPES: readonly string[] = ["completed", "canceled"];

function trackerData(t: Tenant, viewer: string): TrackerData {
  const people = trackerPeople(t);
  const projects = [...t.tracker.projects].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const issues = [...t.tracker.issues].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const base = (i: (typeof issues)[number]) => ({ id: i.id, identifier: i.identifier, title: i.title, url: i.url, state: { name: i.stateName, type: i.stateType } });
  return {
    assigned: issues.filter((i) => i.assigneeEmail === viewer && !CLOSED_STATE_TYPES.includes(i.stateType)).map((i) => toAssignedIssue(base(i))),
    projects: projects.map((p) => ({
      id: p.id,
      name: p.name,
      issues: issues
        .filter((i) => i.projectId === p.id)
        .map((i) =>
          toProjectIssue({
            ...base(i),
            priority: i.priority,
            priorityLabel: PRIORITY_LABELS[i.priority],
            assignee: i.assigneeEmail ? (people.get(i.assigneeEmail) ?? null) : null,
            project: { id: p.id, name: p.name },
          }),
        ),
    })),
  };
}

/** Calls of the trailing 30 days (Gong's window: from inclusive, to exclusive), newest first. */
/** Each conversation with its thread, in Intercom's shapes and through the connector's own mapping. */
function conversationDetails(t: Tenant): Map<string, SupportConversationDetail> {
  const author = (p: ThreadPart) => ({ type: p.author.kind === "teammate" ? "admin" : "user", name: p.author.name, email: p.author.email });
  return new Map(
    t.conversations.map((c) => {
      const [opening, ...rest] = conversationThread(t, c);
      const parts = rest.map((p) => ({ type: "conversation_part" as const, id: p.id, part_type: p.kind, body: p.kind === "close" ? null : p.body, created_at: p.createdAt, author: author(p) }));
      return [
        c.id,
        toSupportConversationDetail({
          ...{ type: "conversation" as const, id: c.id, title: c.title, state: c.state, open: c.open, created_at: c.createdAt, updated_at: c.updatedAt },
          source: opening ? { body: opening.body, author: author(opening) } : null,
          conversation_parts: { type: "conversation_part.list", conversation_parts: parts, total_count: parts.length },
        }),
      ];
    }),
  );
}

function callsData(t: Tenant): { calls: Call[]; detailed: CallDetailed[]; transcripts: Map<string, Transcript> } {
  const from = t.now - 30 * DAY_MS;
  const recent = t.calls.filter((c) => {
    const at = Date.parse(c.started);
    return at >= from && at < t.now;
  });
  const calls = recent.map((c) => mapCall({ id: c.id, title: c.title, started: c.started, url: c.url })).sort(byStartedDesc);
  const detailed = recent
    .map((c) =>
      mapCallDetailed({
        metaData: { id: c.id, title: c.title, started: c.started, url: c.url },
        parties: c.parties.map((p) => ({ id: p.id, name: p.name, emailAddress: p.emailAddress, affiliation: p.affiliation, speakerId: p.speakerId })),
      }),
    )
    .sort(byStartedDesc);
  const transcripts = new Map(
    recent.map((c) => [
      c.id,
      mapTranscript({ callId: c.id, transcript: c.transcript.map((s) => ({ speakerId: s.speakerId, sentences: [{ text: s.text }] })) }),
    ]),
  );
  return { calls, detailed, transcripts };
}

function checksOf(t: Tenant, viewerName: string, calls7d: { count: number; latest: string | null }, companies: number): Map<string, ConnectionCheck> {
  const portalId = portalIdOf(t, "customers");
  const login = viewerName.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const list: ConnectionCheck[] = [
    {
      slug: "tracker",
      title: "Issue tracker",
      status: "ok",
      ok: true,
      summary: `Connected to Linear as ${viewerName}`,
      probe: PROBES.tracker,
      details: [
        { label: "Account", value: DEMO_VIEWER_EMAIL },
        { label: "Name", value: viewerName },
        { label: "Workspace", value: "Demo Edu (demo-edu)" },
      ],
      durationMs: 212,
    },
    {
      slug: "coderepo",
      title: "Code hosting",
      status: "ok",
      ok: true,
      summary: `Connected to GitHub as ${login}`,
      probe: PROBES.coderepo,
      details: [
        { label: "Login", value: login },
        { label: "Name", value: viewerName },
        { label: "Scopes", value: "repo, read:user" },
      ],
      durationMs: 164,
    },
    {
      slug: "calls",
      title: "Call recording",
      status: "ok",
      ok: true,
      summary: `Gong answered: ${calls7d.count} ${calls7d.count === 1 ? "call" : "calls"} in the last 7 days`,
      probe: PROBES.calls,
      details: [
        { label: "Calls (7 days)", value: String(calls7d.count) },
        { label: "Latest call date", value: calls7d.latest ?? "none in the last 7 days" },
      ],
      durationMs: 388,
    },
    {
      slug: "support",
      title: "Customer messaging",
      status: "ok",
      ok: true,
      summary: `Connected to Intercom workspace Demo Schools as ${viewerName}`,
      probe: PROBES.support,
      details: [
        { label: "Workspace", value: `Demo Schools (${hashString(`intercom-app:${t.seed}`).toString(36).padStart(8, "0").slice(0, 8)})` },
        { label: "Account", value: `${viewerName} <${DEMO_VIEWER_EMAIL}>` },
      ],
      durationMs: 143,
    },
    {
      slug: "crmportal",
      title: "CRM portal",
      status: "ok",
      ok: true,
      summary: `Connected to HubSpot portal ${portalId}`,
      probe: PROBES.crmportal,
      details: [
        { label: "Portal", value: `${portalId} (app.hubspot.com, America/New_York)` },
        { label: "Currency", value: "USD" },
        { label: "Companies", value: String(companies) },
      ],
      durationMs: 297,
    },
  ];
  return new Map(list.map((c) => [c.slug, c]));
}

/** What each connector's probe does, as the real checks describe it. */
export const PROBES = {
  tracker: "Reads who you are connected as on Linear and the name of your workspace",
  coderepo: "Reads who you are connected as on GitHub and what the connection lets dashboards read",
  calls: "Lists the first few calls of the last 7 days through the organisation's shared Gong connection",
  support: "Reads who you are connected as on Intercom and the name of your workspace",
  crmportal: "Reads the CRM portal's details and one of its companies",
} as const;

// ── Customer success ──────────────────────────────────────────────────────────────────────

function cxInputs(t: Tenant): CxInputs {
  const live = t.companies.filter((c) => !c.archived);
  const names = new Map(live.map((c) => [c.id, c.name]));
  const schoolsByOwner = new Map<string, SchoolRow[]>();
  const schoolsById = new Map<string, SchoolRow>();
  for (const c of live) {
    if (c.parentCompanyId === null) continue;
    const row: SchoolRow = {
      id: c.id,
      name: c.name,
      parentId: c.parentCompanyId,
      districtName: names.get(c.parentCompanyId) ?? null,
      arr: c.arr,
      tier: c.tier,
      productSchoolId: c.productSchoolId,
      enrolment: c.enrolment,
      churnedDate: c.churnedDate,
    };
    push(schoolsByOwner, c.ownerId, row);
    schoolsById.set(c.id, row);
  }
  const touches = new Map<string, Touch[]>();
  const touchesByOwner = new Map<string, { companyId: string; at: number; kind: string }[]>();
  for (const e of t.engagements) {
    push(touches, e.companyId, { kind: e.kind, at: e.timestamp });
    push(touchesByOwner, e.ownerId, { companyId: e.companyId, at: e.timestamp, kind: e.kind });
  }
  const health = new Map<string, HealthPoint[]>();
  for (const h of t.health) push(health, h.companyId, { date: h.date, score: h.score });
  const usage = new Map<string, { weekStart: string; activePersons: number }[]>();
  for (const u of [...t.usage].sort((a, b) => (a.weekStart < b.weekStart ? -1 : a.weekStart > b.weekStart ? 1 : 0))) {
    push(usage, u.productSchoolId, { weekStart: u.weekStart, activePersons: u.activePersons });
  }
  return { schoolsByOwner, schoolsById, companies: live.map((c) => ({ id: c.id, name: c.name, parentId: c.parentCompanyId })), touches, touchesByOwner, health, usage };
}

const TOUCH_KINDS: readonly string[] = ["call", "meeting", "email"];

/** One owner's book for a window, as lib/cx's cxBook computes it from the store. */
export function bookFor(r: Rich, owner: string, basis: BookBasis, w: CxWindow, wiring: Wiring): CxBookRow[] {
  const { cx } = r;
  let schools: SchoolRow[];
  if (basis === "real") schools = cx.schoolsByOwner.get(owner) ?? [];
  else {
    const touched = new Set(
      (cx.touchesByOwner.get(owner) ?? []).filter((e) => TOUCH_KINDS.includes(e.kind) && e.at >= w.since && e.at <= w.until).map((e) => e.companyId),
    );
    schools = [...touched].flatMap((id) => {
      const s = cx.schoolsById.get(id);
      return s ? [s] : [];
    });
  }
  const usage = new Map<string, number>();
  for (const s of schools) {
    if (s.productSchoolId === null) continue;
    const weeks = cx.usage.get(s.productSchoolId) ?? [];
    const latest = weeks.filter((u) => u.weekStart <= w.untilDate).at(-1);
    if (latest) usage.set(s.productSchoolId, latest.activePersons);
  }
  return bookRows({ schools, touches: cx.touches, health: cx.health, usage }, w, wiring);
}

/** Every district for a window, as lib/cx's cxDistricts computes it from the store. */
export function districtsFor(r: Rich, w: CxWindow, wiring: Wiring): CxDistrictRow[] {
  return districtRows({ companies: r.cx.companies, touches: r.cx.touches, health: r.cx.health }, w, wiring);
}

/**
 * The rich set with its districts shared among CSMs (shared-districts.ts): only who owns which
 * school changes, so the CX inputs are rebuilt from the dealt tenant and everything else stays.
 */
export function withSharedDistricts(r: Rich): Rich {
  const { tenant } = shareDistricts(r.tenant);
  return { ...r, tenant, cx: cxInputs(tenant) };
}

// ── The whole set, generated once ─────────────────────────────────────────────────────────

function build(referenceDate: string): Rich {
  const tenant = generateTenant({ referenceDate });
  const viewer = tenant.owners.find((o) => o.email === DEMO_VIEWER_EMAIL);
  const viewerName = viewer?.name ?? "Casey Morgan";
  const crm = crmData(tenant);
  const callSet = callsData(tenant);
  const week = callSet.calls.filter((c) => Date.parse(c.started) >= tenant.now - 7 * DAY_MS);
  const conversations = [...tenant.conversations]
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((c) => toSupportConversation({ type: "conversation", id: c.id, title: c.title, state: c.state, open: c.open, created_at: c.createdAt, updated_at: c.updatedAt }));
  return {
    tenant,
    now: tenant.now,
    viewerName,
    checks: checksOf(tenant, viewerName, { count: week.length, latest: week[0]?.started.slice(0, 10) ?? null }, crm.companies.customers.length),
    crm,
    tracker: trackerData(tenant, DEMO_VIEWER_EMAIL),
    repos: tenant.repos
      .filter((r) => r.visibleTo.includes(DEMO_VIEWER_EMAIL))
      .sort((a, b) => Date.parse(b.pushedAt) - Date.parse(a.pushedAt) || (a.nameWithOwner < b.nameWithOwner ? -1 : a.nameWithOwner > b.nameWithOwner ? 1 : 0))
      .map((r) => ({ nameWithOwner: r.nameWithOwner, url: r.url, isPrivate: r.isPrivate })),
    calls: callSet.calls,
    detailed: callSet.detailed,
    transcripts: callSet.transcripts,
    conversations,
    conversationDetails: conversationDetails(tenant),
    portal: {
      companies: tenant.companies
        .filter((c) => !c.archived)
        .sort(byId)
        .map((c) => ({ id: c.id, name: c.name, domain: c.domain, industry: c.industry, employees: c.employees })),
      contacts: tenant.contacts
        .filter((c) => !c.archived)
        .sort(byId)
        .map((c) => ({ id: c.id, email: c.email, firstName: c.firstName, lastName: c.lastName, companyId: c.companyId })),
      deals: tenant.deals
        .filter((d) => !d.archived)
        .sort(byId)
        .map((d) => ({ id: d.id, name: d.name, stage: d.stage, closeDate: d.closeDate, amount: d.amount, companyId: d.companyId })),
    },
    owners: [...tenant.owners]
      .sort((a, b) => collator.compare(a.name, b.name) || (a.ownerId < b.ownerId ? -1 : a.ownerId > b.ownerId ? 1 : 0))
      .map((o) => ({ ownerId: o.ownerId, name: o.name, email: o.email, active: o.active })),
    cx: cxInputs(tenant),
  };
}

let built: Rich | undefined;

/** The rich data set for today, generated on first use each day and kept until the day turns. */
export function rich(now: number = Date.now()): Rich {
  const day = demoReferenceDate(now);
  if (built?.tenant.referenceDate !== day) built = build(day);
  return built;
}
