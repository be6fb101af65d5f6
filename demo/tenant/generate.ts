// The deterministic demo tenant: a K-12 education company's CRM portal plus the outside
// systems the API reads directly. Same seed, scale and reference date give the same tenant,
// byte for byte, on every machine (no clock, no Math.random, no locale).
//
// Every date is relative to `referenceDate`, so a caller can pass today and get a tenant that
// looks current, while tests keep the fixed default.

import { demoUsers } from "../users";
import * as C from "./content";
import { DAY_MS, HOUR_MS, TENANT_CLOCK_OFFSET_MS, isoDate, isoDateTime, mondayOnOrBefore, parseIsoDate } from "./dates";
import { createRng, idSequence, type Rng } from "./prng";
import type {
  CallParty,
  Company,
  Contact,
  Deal,
  DealStage,
  Engagement,
  EngagementKind,
  EpochMs,
  GenerateOptions,
  HealthScore,
  LifecycleStage,
  Owner,
  RecordedCall,
  Repository,
  StaffMember,
  SupportConversation,
  Tenant,
  Tier,
  TrackerIssue,
  TrackerProject,
  TranscriptSegment,
  UsageWeek,
} from "./types";

const DEFAULT_SEED = 20261121;
const DEFAULT_SCALE = 1;
export const DEFAULT_REFERENCE_DATE = "2026-11-20";

export const DEMO_ADMIN_EMAIL = "admin@demo.test";
export const DEMO_CSM_EMAIL = "csm@demo.test";
export const DEMO_MEMBER_EMAIL = "member@demo.test";

/** How long before the reference date the departed CSM left. */
const DEPARTED_DAYS_AGO = 75;
/** Forced "silent" schools have their last touch at least this long ago, well past 30 days. */
const SILENT_MIN_DAYS = 40;
const USAGE_WEEKS = 26;
const HEALTH_DAYS = 180;
const ENGAGEMENT_DAYS = 365;
const CALL_DAYS = 60;
const CONVERSATION_DAYS = 120;

// ── small helpers ─────────────────────────────────────────────────────────────────────────

function at<T>(items: readonly T[], i: number): T {
  const v = items[i];
  if (v === undefined) throw new RangeError(`index ${i} out of range (length ${items.length})`);
  return v;
}

function slug(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function compact(s: string): string {
  return slug(s).replace(/-/g, "");
}

function between(rng: Rng, lo: EpochMs, hi: EpochMs): EpochMs {
  return hi <= lo ? lo : lo + Math.floor(rng.next() * (hi - lo));
}

/** A moment in US school hours (14:00–23:00 UTC) inside [lo, hi], falling back to any moment. */
function workingMoment(rng: Rng, lo: EpochMs, hi: EpochMs): EpochMs {
  const t = between(rng, lo, hi);
  const day = Math.floor(t / DAY_MS) * DAY_MS;
  const snapped = day + rng.int(14, 22) * HOUR_MS + rng.int(0, 59) * 60_000;
  if (snapped >= lo && snapped <= hi) return snapped;
  const minute = Math.ceil(t / 60_000) * 60_000;
  return minute <= hi ? minute : t;
}

function roundTo(n: number, step: number): number {
  return Math.round(n / step) * step;
}

function emailLocal(first: string, last: string): string {
  return `${compact(first)}.${compact(last)}`;
}

// ── internal plans (richer than the public records; never exported) ───────────────────────

interface DistrictPlan {
  company: Company;
  place: string;
  schools: SchoolPlan[];
}

interface SchoolPlan {
  company: Company;
  district: DistrictPlan;
  /** Enrolment as the product sees it, even when the CRM field is unknown. */
  trueEnrolment: number;
  /** Share of pupils active in a normal term week at the start of the usage window. */
  adoption: number;
  /** Relative change of adoption across the usage window (negative = declining). */
  trend: number;
  touches: "normal" | "silent" | "none";
  health: "series" | "single" | "none";
  /** When the product was switched on; usage and health start here. */
  liveFrom: EpochMs;
}

interface Ctx {
  scale: number;
  now: EpochMs;
  departedAt: EpochMs;
  owners: Owner[];
  casey: Owner;
  departed: Owner;
  activeOwners: Owner[];
}

// ── owners and staff ──────────────────────────────────────────────────────────────────────

function makeOwners(rng: Rng, scale: number): Owner[] {
  const nextId = idSequence(rng, 41_200_000, 9_973);
  const caseyUser = demoUsers.find((u) => u.email === DEMO_CSM_EMAIL);
  if (!caseyUser) throw new Error(`demo users must include ${DEMO_CSM_EMAIL}`);

  // Books grow with the customer base, but a team grows slower than its book.
  const activeCount = Math.max(2, Math.round(5 * Math.sqrt(scale)));
  const owners: Owner[] = [{ ownerId: nextId(), name: caseyUser.name, email: caseyUser.email, active: true }];
  const usedEmails = new Set<string>([caseyUser.email]);

  const others = [...C.OTHER_CSMS];
  while (owners.length < activeCount) {
    const listed = others.shift();
    const first = listed?.first ?? rng.pick(C.FIRST_NAMES);
    const last = listed?.last ?? rng.pick(C.LAST_NAMES);
    let email = `${emailLocal(first, last)}@demo.test`;
    for (let n = 2; usedEmails.has(email); n++) email = `${emailLocal(first, last)}${n}@demo.test`;
    usedEmails.add(email);
    owners.push({ ownerId: nextId(), name: `${first} ${last}`, email, active: true });
  }

  const d = C.DEPARTED_CSM;
  owners.push({
    ownerId: nextId(),
    name: `${d.first} ${d.last}`,
    email: `${emailLocal(d.first, d.last)}@demo.test`,
    active: false,
  });
  return owners;
}

function makeStaff(rng: Rng, ctx: Ctx): StaffMember[] {
  const nextId = idSequence(rng, 2_301, 37);
  const staff: StaffMember[] = [];
  const seen = new Set<string>();
  const add = (email: string, first: string, last: string, team: string, status: StaffMember["lifecycleStage"]) => {
    if (seen.has(email)) return;
    seen.add(email);
    const createdAt =
      status === "onboarding"
        ? ctx.now - rng.int(5, 25) * DAY_MS - rng.int(0, 8) * HOUR_MS
        : ctx.now - rng.int(200, 1500) * DAY_MS - rng.int(0, 8) * HOUR_MS;
    const updatedAt =
      status === "offboarded" ? ctx.departedAt + rng.int(0, 3) * HOUR_MS : between(rng, Math.max(createdAt, ctx.now - 60 * DAY_MS), ctx.now);
    staff.push({ id: nextId(), email, firstName: first, lastName: last, team, lifecycleStage: status, createdAt, updatedAt });
  };

  const demoTeams: Record<string, string> = {
    [DEMO_ADMIN_EMAIL]: "Operations",
    [DEMO_CSM_EMAIL]: "Customer Success",
    [DEMO_MEMBER_EMAIL]: "Marketing",
  };
  for (const u of demoUsers) {
    const [first = u.name, ...rest] = u.name.split(" ");
    add(u.email, first, rest.join(" "), demoTeams[u.email] ?? "Operations", "active");
  }
  for (const o of ctx.owners) {
    const [first = o.name, ...rest] = o.name.split(" ");
    add(o.email, first, rest.join(" "), "Customer Success", o.active ? "active" : "offboarded");
  }
  C.STAFF.forEach((s, i) => {
    // The two most recent hires are still onboarding.
    const status = i === 3 || i === 14 ? "onboarding" : "active";
    add(`${emailLocal(s.first, s.last)}@demo.test`, s.first, s.last, s.team, status);
  });
  return staff;
}

// ── companies ─────────────────────────────────────────────────────────────────────────────

function tierFor(arr: number | null, enrolment: number): Tier {
  if (arr === null) return enrolment > 6000 ? "Enterprise" : enrolment > 2500 ? "Growth" : "Starter";
  return arr >= 120_000 ? "Enterprise" : arr >= 35_000 ? "Growth" : "Starter";
}

function makeCompanies(rng: Rng, ctx: Ctx): { districts: DistrictPlan[]; schools: SchoolPlan[]; archived: Company[] } {
  const { now } = ctx;
  const nextCompanyId = idSequence(rng.fork("company-ids"), 6_210_000_000, 9_871);
  const nextProductId = idSequence(rng.fork("product-ids"), 10_400, 41);
  const districtCount = Math.max(5, Math.round(25 * ctx.scale));

  const places = rng.shuffle(C.PLACE_PREFIXES.flatMap((p) => C.PLACE_SUFFIXES.map((s) => `${p}${s}`)));
  const usedNames = new Set<string>();
  const usedDomains = new Set<string>();

  // Casey gets the first two districts so the demo CSM always has a book; the third goes to
  // the departed CSM so their orphaned accounts exist at every scale.
  const ownerWeights: [Owner, number][] = [
    // Casey already has two districts; a lighter weight keeps her book near the team average.
    ...ctx.activeOwners.map((o): [Owner, number] => [o, o === ctx.casey ? 0.6 : 1]),
    [ctx.departed, 0.5],
  ];

  const districts: DistrictPlan[] = [];
  const schools: SchoolPlan[] = [];

  for (let d = 0; d < districtCount; d++) {
    const place = at(places, d % places.length);
    const pattern = rng.weighted(C.DISTRICT_PATTERNS.map((p) => [p, p.weight] as const));
    let name = pattern.name.replace("{p}", place);
    let domainBase = `${compact(place)}${pattern.abbr}`;
    for (let n = 2; usedNames.has(name) || usedDomains.has(domainBase); n++) {
      name = `${pattern.name.replace("{p}", place)} ${n}`;
      domainBase = `${compact(place)}${pattern.abbr}${n}`;
    }
    usedNames.add(name);
    usedDomains.add(domainBase);
    const domain = `${domainBase}.demo.test`;

    const owner = d < 2 ? ctx.casey : d === 2 ? ctx.departed : rng.weighted(ownerWeights);
    const createdAt = now - rng.int(400, 1800) * DAY_MS - rng.int(0, 10) * HOUR_MS;

    const district: Company = {
      id: nextCompanyId(),
      name,
      domain,
      industry: "Education Management",
      employees: 0,
      parentCompanyId: null,
      kind: "district",
      arr: null,
      tier: "Starter",
      ownerId: owner.ownerId,
      productSchoolId: null,
      enrolment: null,
      churnedDate: null,
      createdAt,
      updatedAt: between(rng, Math.max(createdAt, now - 90 * DAY_MS), now),
      archived: false,
    };
    const plan: DistrictPlan = { company: district, place, schools: [] };
    districts.push(plan);

    const schoolCount = rng.int(2, 8);
    const baseNames = rng.sample(C.SCHOOL_NAMES, schoolCount);
    const namesInDistrict = new Set<string>();
    for (let s = 0; s < schoolCount; s++) {
      // Every district has at least one elementary school.
      const levelDef = s === 0 ? at(C.SCHOOL_LEVELS, 0) : rng.weighted(C.SCHOOL_LEVELS.map((l) => [l, l.weight] as const));
      const base = levelDef.level === "high" && rng.chance(0.5) ? place : at(baseNames, s);
      let schoolName = `${base} ${rng.pick(levelDef.suffixes)}`;
      if (namesInDistrict.has(schoolName)) schoolName = `${at(baseNames, s)} ${at(levelDef.suffixes, 0)}`;
      for (let n = 2; namesInDistrict.has(schoolName); n++) schoolName = `${at(baseNames, s)} ${at(levelDef.suffixes, 0)} ${n}`;
      namesInDistrict.add(schoolName);

      const levelAbbr = { elementary: "es", middle: "ms", high: "hs", k8: "k8" }[levelDef.level];
      let schoolDomain = `${slug(base)}-${levelAbbr}.${domain}`;
      for (let n = 2; usedDomains.has(schoolDomain); n++) schoolDomain = `${slug(base)}-${levelAbbr}${n}.${domain}`;
      usedDomains.add(schoolDomain);

      const enrolment = rng.int(levelDef.enrolment[0], levelDef.enrolment[1]);
      const schoolCreated = Math.min(createdAt + rng.int(0, 240) * DAY_MS, now - rng.int(60, 90) * DAY_MS);
      const school: Company = {
        id: nextCompanyId(),
        name: schoolName,
        domain: schoolDomain,
        industry: "Primary/Secondary Education",
        employees: Math.round(enrolment / rng.int(12, 16)) + rng.int(4, 15),
        parentCompanyId: district.id,
        kind: "school",
        arr: null,
        tier: "Starter",
        ownerId: owner.ownerId,
        productSchoolId: rng.chance(0.93) ? `ps_${nextProductId()}` : null,
        enrolment: rng.chance(0.04) ? null : enrolment,
        churnedDate: null,
        createdAt: schoolCreated,
        updatedAt: between(rng, Math.max(schoolCreated, now - 90 * DAY_MS), now),
        archived: false,
      };

      const roll = rng.next();
      const sp: SchoolPlan = {
        company: school,
        district: plan,
        trueEnrolment: enrolment,
        adoption: rng.normal(0.55, 0.18, 0.12, 0.92),
        trend: rng.chance(0.15) ? rng.float(-0.55, -0.25) : rng.normal(0.03, 0.08, -0.2, 0.3),
        touches: roll < 0.04 ? "none" : roll < 0.13 ? "silent" : "normal",
        health: school.productSchoolId === null ? "none" : rng.chance(0.02) ? "none" : "series",
        liveFrom: schoolCreated,
      };
      if (rng.chance(0.03)) {
        const churnAt = between(rng, Math.max(schoolCreated + 60 * DAY_MS, now - 300 * DAY_MS), now - 20 * DAY_MS);
        school.churnedDate = isoDate(churnAt);
        sp.trend = rng.float(-0.6, -0.3);
      }
      plan.schools.push(sp);
      schools.push(sp);
    }

    const total = plan.schools.reduce((n, s) => n + s.trueEnrolment, 0);
    // ARR lives on the district; null (unset) for some, and always for the second district so
    // the demo CSM's own book shows it.
    // The schools in the CRM are only part of a district, so its size is scaled up log-uniformly
    // (1x..6x) before pricing per pupil; that spreads ARR over the whole 8k..400k range.
    const districtPupils = total * Math.exp(rng.float(0, Math.log(6)));
    const arr =
      d === 1 || rng.chance(0.08) ? null : Math.min(400_000, Math.max(8_000, roundTo(districtPupils * rng.float(5, 14), 500)));
    district.arr = arr;
    district.tier = tierFor(arr, total);
    district.employees = plan.schools.reduce((n, s) => n + s.company.employees, 0) + rng.int(15, 90);
    for (const s of plan.schools) {
      s.company.arr = arr;
      s.company.tier = district.tier;
    }
  }

  applyForcedEdgeCases(rng, ctx, districts, () => `ps_${nextProductId()}`);

  // Archived duplicates, as a CRM import leaves behind; they get no activity of their own.
  const archived: Company[] = [];
  const archivedCount = Math.max(2, Math.round(2 * ctx.scale));
  for (const sp of rng.sample(schools, archivedCount)) {
    const createdAt = now - rng.int(20, 200) * DAY_MS;
    archived.push({
      ...sp.company,
      id: nextCompanyId(),
      productSchoolId: null,
      enrolment: null,
      churnedDate: null,
      createdAt,
      updatedAt: Math.min(now, createdAt + rng.int(1, 10) * DAY_MS),
      archived: true,
    });
  }
  return { districts, schools, archived };
}

/**
 * Makes sure every edge case exists whatever the dice said, each on its own school. Casey's
 * schools are used first (round-robin over her districts) so the demo CSM's book shows them.
 */
function applyForcedEdgeCases(rng: Rng, ctx: Ctx, districts: DistrictPlan[], newProductId: () => string): void {
  const mine = districts.filter((d) => d.company.ownerId === ctx.casey.ownerId);
  const others = districts.filter((d) => d.company.ownerId !== ctx.casey.ownerId);
  const roundRobin = (ds: DistrictPlan[]): SchoolPlan[] => {
    const out: SchoolPlan[] = [];
    const longest = Math.max(0, ...ds.map((d) => d.schools.length));
    for (let i = 0; i < longest; i++) for (const d of ds) if (d.schools[i]) out.push(d.schools[i] as SchoolPlan);
    return out;
  };
  const candidates = [...roundRobin(mine), ...roundRobin(others)];
  let next = 0;
  const take = (): SchoolPlan => {
    const sp = at(candidates, next++);
    // A forced school is an ordinary live customer apart from its one quirk.
    sp.company.churnedDate = null;
    sp.company.enrolment = sp.trueEnrolment;
    if (sp.company.productSchoolId === null) sp.company.productSchoolId = newProductId();
    sp.touches = "normal";
    sp.health = "series";
    sp.trend = Math.max(sp.trend, -0.1);
    return sp;
  };

  take().company.enrolment = null;
  take().touches = "none";
  take().touches = "silent";
  {
    const sp = take();
    sp.company.churnedDate = isoDate(ctx.now - rng.int(35, 55) * DAY_MS);
    sp.trend = -0.45;
  }
  {
    // Recently provisioned: one health point so far, which is "not enough history".
    const sp = take();
    sp.health = "single";
    sp.liveFrom = ctx.now - rng.int(6, 12) * DAY_MS;
    sp.company.createdAt = sp.liveFrom - rng.int(1, 5) * DAY_MS;
    sp.company.updatedAt = between(rng, sp.liveFrom, ctx.now);
  }
  {
    const sp = take();
    sp.company.productSchoolId = null;
    sp.health = "none";
  }

  // Random recent provisioning elsewhere (rare) goes through the same path as the forced one.
  for (const sp of candidates.slice(next)) {
    if (sp.company.productSchoolId !== null && sp.company.churnedDate === null && rng.chance(0.015)) {
      sp.health = "single";
      sp.touches = "normal";
      sp.liveFrom = ctx.now - rng.int(3, 13) * DAY_MS;
      sp.company.createdAt = sp.liveFrom - rng.int(1, 5) * DAY_MS;
      sp.company.updatedAt = between(rng, sp.liveFrom, ctx.now);
    }
  }
}

// ── contacts ──────────────────────────────────────────────────────────────────────────────

const CUSTOMER_STAGES: readonly (readonly [LifecycleStage, number])[] = [
  ["customer", 58],
  ["evangelist", 9],
  ["opportunity", 7],
  ["salesqualifiedlead", 5],
  ["marketingqualifiedlead", 7],
  ["lead", 7],
  ["subscriber", 5],
  ["other", 2],
];

const PROSPECT_STAGES: readonly (readonly [LifecycleStage, number])[] = [
  ["subscriber", 4],
  ["lead", 4],
  ["marketingqualifiedlead", 2],
  ["other", 1],
];

function makeContacts(rng: Rng, ctx: Ctx, companies: Company[]): Contact[] {
  const nextId = idSequence(rng, 1_000_051, 451);
  const usedEmails = new Set<string>();
  const contacts: Contact[] = [];

  const person = (domain: string) => {
    const firstName = rng.pick(C.FIRST_NAMES);
    const lastName = rng.pick(C.LAST_NAMES);
    let email = `${emailLocal(firstName, lastName)}@${domain}`;
    for (let n = 2; usedEmails.has(email); n++) email = `${emailLocal(firstName, lastName)}${n}@${domain}`;
    usedEmails.add(email);
    return { firstName, lastName, email };
  };

  for (const company of companies) {
    if (company.archived) continue;
    const count = rng.int(3, 6);
    for (let i = 0; i < count; i++) {
      const createdAt = between(rng, company.createdAt, ctx.now - HOUR_MS);
      contacts.push({
        id: nextId(),
        ...person(company.domain),
        companyId: company.id,
        lifecycleStage: rng.weighted(CUSTOMER_STAGES),
        ownerId: rng.chance(0.8) ? company.ownerId : null,
        createdAt,
        updatedAt: between(rng, Math.max(createdAt, ctx.now - 120 * DAY_MS), ctx.now),
        archived: false,
      });
    }
  }

  // Webinar and newsletter sign-ups not yet matched to a company.
  const unattached = Math.max(3, Math.round(8 * ctx.scale));
  for (let i = 0; i < unattached; i++) {
    const createdAt = ctx.now - rng.int(1, 300) * DAY_MS - rng.int(0, 20) * HOUR_MS;
    contacts.push({
      id: nextId(),
      ...person(rng.pick(["mail.demo.test", "inbox.demo.test", "k12mail.demo.test"])),
      companyId: null,
      lifecycleStage: rng.weighted(PROSPECT_STAGES),
      ownerId: null,
      createdAt,
      updatedAt: between(rng, createdAt, ctx.now),
      archived: false,
    });
  }

  const archivedCount = Math.max(2, Math.round(contacts.length * 0.02));
  for (const c of rng.sample(contacts, archivedCount)) c.archived = true;
  return contacts;
}

// ── deals ─────────────────────────────────────────────────────────────────────────────────

function fiscalYear(ms: EpochMs): string {
  // US school districts run July-to-June fiscal years.
  const d = new Date(ms);
  const fy = d.getUTCFullYear() + (d.getUTCMonth() >= 6 ? 1 : 0);
  return `FY${String(fy % 100).padStart(2, "0")}`;
}

function openStage(rng: Rng, daysToClose: number): DealStage {
  if (daysToClose < 45) return rng.weighted([["contractsent", 3], ["decisionmakerboughtin", 2], ["presentationscheduled", 1]]);
  if (daysToClose < 120) return rng.weighted([["decisionmakerboughtin", 1], ["presentationscheduled", 2], ["qualifiedtobuy", 2]]);
  return rng.weighted([["qualifiedtobuy", 2], ["appointmentscheduled", 3]]);
}

function makeDeals(rng: Rng, ctx: Ctx, districts: DistrictPlan[]): Deal[] {
  const nextId = idSequence(rng, 9_810_000_000, 7_919);
  const { now } = ctx;
  const deals: Deal[] = [];

  const deal = (name: string, companyId: string | null, amount: number, closeAt: EpochMs, ownerId: string, wonChance: number) => {
    const daysToClose = Math.round((closeAt - now) / DAY_MS);
    const stage: DealStage = daysToClose < 0 ? (rng.chance(wonChance) ? "closedwon" : "closedlost") : openStage(rng, daysToClose);
    const createdAt = Math.min(now - rng.int(1, 90) * DAY_MS, closeAt - rng.int(30, 160) * DAY_MS);
    const updatedAt = stage === "closedwon" || stage === "closedlost" ? Math.min(now, closeAt + rng.int(0, 5) * DAY_MS) : between(rng, Math.max(createdAt, now - 45 * DAY_MS), now);
    deals.push({ id: nextId(), name, companyId, amount, stage, closeDate: isoDate(closeAt), ownerId, createdAt, updatedAt, archived: false });
  };

  for (const d of districts) {
    const c = d.company;
    const churnedSchools = d.schools.filter((s) => s.company.churnedDate !== null).length;
    const base = c.arr ?? roundTo(rng.int(12_000, 60_000), 500);
    const closeAt = now + rng.int(-200, 180) * DAY_MS;
    deal(`${c.name} — Renewal ${fiscalYear(closeAt)}`, c.id, base, closeAt, c.ownerId, churnedSchools > 0 ? 0.6 : 0.88);
    if (rng.chance(0.5)) {
      const kind = rng.pick(C.DEAL_KINDS.filter((k) => k !== "Renewal"));
      const expCloseAt = now + rng.int(-300, 240) * DAY_MS;
      deal(`${c.name} — ${kind}`, c.id, Math.max(2_000, roundTo(base * rng.float(0.1, 0.35), 500)), expCloseAt, c.ownerId, 0.65);
    }
  }

  // Deals not attached to any company: inbound leads that sales never linked.
  const orphanCount = Math.max(2, Math.round(4 * ctx.scale));
  for (let i = 0; i < orphanCount; i++) {
    const base = at(C.ORPHAN_DEALS, i % C.ORPHAN_DEALS.length);
    const name = i < C.ORPHAN_DEALS.length ? base : `${base} (${Math.floor(i / C.ORPHAN_DEALS.length) + 1})`;
    deal(name, null, roundTo(rng.int(3_000, 45_000), 500), now + rng.int(-90, 150) * DAY_MS, rng.pick(ctx.activeOwners).ownerId, 0.4);
  }

  const archivedCount = Math.max(1, Math.round(deals.length * 0.03));
  for (const d of rng.sample(deals, archivedCount)) d.archived = true;
  return deals;
}

// ── engagements ───────────────────────────────────────────────────────────────────────────

const TOUCH_COUNTS: readonly (readonly [number, number])[] = [
  [1, 1], [2, 2], [3, 3], [4, 3], [5, 2], [6, 2], [8, 1], [10, 1],
];

function makeEngagements(rng: Rng, ctx: Ctx, schools: SchoolPlan[], owners: Map<string, Owner>): Engagement[] {
  const { now, departedAt } = ctx;
  const drafts: Omit<Engagement, "id">[] = [];
  const otherActiveCsm = (exclude: string, t: EpochMs): Owner => {
    const pool = ctx.owners.filter((o) => o.ownerId !== exclude && (o.active || t < departedAt));
    return rng.pick(pool.length > 0 ? pool : ctx.activeOwners);
  };

  for (const sp of schools) {
    if (sp.touches === "none") continue;
    const c = sp.company;
    const lo = Math.max(c.createdAt, now - ENGAGEMENT_DAYS * DAY_MS);
    let hi = c.churnedDate !== null ? Math.min(now, parseIsoDate(c.churnedDate) + 12 * HOUR_MS) : now;
    let count = rng.weighted(TOUCH_COUNTS);
    let recentShare = 0.65;
    if (sp.touches === "silent") {
      hi = Math.min(hi, now - SILENT_MIN_DAYS * DAY_MS);
      count = rng.int(1, 4);
      recentShare = 0;
    }
    if (hi <= lo) continue;

    const assigned = owners.get(c.ownerId);
    // Most live accounts are on a monthly-or-better cadence; the rest drift.
    const onCadence = sp.touches === "normal" && rng.chance(0.78);
    for (let i = 0; i < count; i++) {
      const recentLo = Math.max(lo, hi - (i === 0 && onCadence ? 28 : 90) * DAY_MS);
      const t = i === 0 && onCadence ? workingMoment(rng, recentLo, hi) : rng.chance(recentShare) ? workingMoment(rng, recentLo, hi) : workingMoment(rng, lo, hi);
      let logger: Owner;
      if (!assigned || (!assigned.active && t >= departedAt)) logger = otherActiveCsm(c.ownerId, t);
      else if (rng.chance(0.15)) logger = otherActiveCsm(c.ownerId, t); // covering or joint visits
      else logger = assigned;
      const kind = rng.weighted<EngagementKind>([["email", 5], ["call", 2.5], ["meeting", 2.5]]);
      drafts.push({ kind, companyId: c.id, ownerId: logger.ownerId, timestamp: t, subject: rng.pick(C.ENGAGEMENT_SUBJECTS[kind]) });
    }
  }

  // Ids follow logging order, as a CRM's would.
  drafts.sort((a, b) => a.timestamp - b.timestamp || (a.companyId < b.companyId ? -1 : a.companyId > b.companyId ? 1 : 0));
  const nextId = idSequence(rng, 40_120_000_000, 48_611);
  return drafts.map((e) => ({ id: nextId(), ...e }));
}

// ── usage and health ──────────────────────────────────────────────────────────────────────

/** Share of a normal term week's activity, by the calendar of a typical US school year. */
function termFactor(weekStart: EpochMs): number {
  const mid = new Date(weekStart + 2 * DAY_MS);
  const md = (mid.getUTCMonth() + 1) * 100 + mid.getUTCDate();
  if (md >= 612 && md <= 814) return 0.06; // summer break
  if (md >= 815 && md <= 831) return 0.55; // back to school
  if (md >= 1220 || md <= 103) return 0.08; // winter break
  if (md >= 316 && md <= 327) return 0.6; // spring break, staggered across districts
  const year = mid.getUTCFullYear();
  const nov1Dow = new Date(Date.UTC(year, 10, 1)).getUTCDay();
  const thanksgiving = Date.UTC(year, 10, 1 + ((4 - nov1Dow + 7) % 7) + 21);
  if (weekStart === thanksgiving - 3 * DAY_MS) return 0.45;
  if (md >= 901 && md <= 914) return 0.85;
  return 1;
}

function makeUsage(rng: Rng, ctx: Ctx, schools: SchoolPlan[]): UsageWeek[] {
  // Complete weeks only: the reference date's own week is still in progress.
  const lastWeek = mondayOnOrBefore(ctx.now) - 7 * DAY_MS;
  const firstWeek = lastWeek - (USAGE_WEEKS - 1) * 7 * DAY_MS;
  const rows: UsageWeek[] = [];
  for (const sp of schools) {
    const psid = sp.company.productSchoolId;
    if (psid === null) continue;
    const churnAt = sp.company.churnedDate !== null ? parseIsoDate(sp.company.churnedDate) : Infinity;
    for (let w = 0; w < USAGE_WEEKS; w++) {
      const weekStart = firstWeek + w * 7 * DAY_MS;
      if (weekStart + 7 * DAY_MS <= mondayOnOrBefore(sp.liveFrom)) continue;
      let active = 0;
      if (weekStart < churnAt) {
        const progress = w / (USAGE_WEEKS - 1);
        const adoption = Math.max(0.01, sp.adoption * (1 + sp.trend * progress));
        const noise = rng.float(0.88, 1.12);
        active = Math.min(sp.trueEnrolment, Math.round(sp.trueEnrolment * adoption * termFactor(weekStart) * noise));
      }
      rows.push({ productSchoolId: psid, weekStart: isoDate(weekStart), activePersons: active });
    }
  }
  return rows;
}

function makeHealth(rng: Rng, ctx: Ctx, schools: SchoolPlan[]): HealthScore[] {
  const rows: HealthScore[] = [];
  const windowStart = ctx.now - HEALTH_DAYS * DAY_MS;
  for (const sp of schools) {
    const c = sp.company;
    if (sp.health === "none") continue;
    const baseline = 32 + sp.adoption * 62;
    if (sp.health === "single") {
      const day = Math.max(sp.liveFrom, ctx.now - rng.int(0, 5) * DAY_MS);
      rows.push({ companyId: c.id, date: isoDate(day), score: Math.round(Math.min(100, baseline + rng.normal(0, 5))) });
      continue;
    }
    const end = c.churnedDate !== null ? Math.min(ctx.now, parseIsoDate(c.churnedDate)) : ctx.now;
    const start = Math.max(windowStart, sp.liveFrom) + rng.int(0, 6) * DAY_MS;
    for (let t = start; t <= end; t += 7 * DAY_MS) {
      if (rng.chance(0.05)) continue; // a missed weekly run
      const progress = (t - windowStart) / (HEALTH_DAYS * DAY_MS);
      const score = rng.chance(0.03)
        ? null
        : Math.round(Math.max(0, Math.min(100, baseline * (1 + sp.trend * progress) + rng.normal(0, 4))));
      rows.push({ companyId: c.id, date: isoDate(t), score });
    }
  }
  return rows;
}

// ── issue tracker ─────────────────────────────────────────────────────────────────────────

function makeTracker(rng: Rng, ctx: Ctx, staff: StaffMember[]): { projects: TrackerProject[]; issues: TrackerIssue[] } {
  const projects: TrackerProject[] = C.TRACKER_PROJECTS.map((p) => ({ id: rng.uuid(), name: p.name, key: p.key }));
  const byTeam = (team: string) => staff.filter((s) => s.team === team && s.lifecycleStage !== "offboarded").map((s) => s.email);
  const csms = byTeam("Customer Success");
  const pools: Record<string, string[]> = {
    ENG: [...byTeam("Engineering"), DEMO_ADMIN_EMAIL],
    SYNC: [...byTeam("Engineering"), ...byTeam("Support")],
    ESC: [...csms, ...byTeam("Support")],
    DATA: [...byTeam("Data"), DEMO_ADMIN_EMAIL],
    TRI: [...byTeam("Support"), ...byTeam("Product")],
  };
  // Several open issues for each demo user who uses the tracker, whatever the dice say.
  const forced: Record<string, string[]> = {
    ENG: [DEMO_ADMIN_EMAIL, DEMO_ADMIN_EMAIL],
    SYNC: [DEMO_ADMIN_EMAIL],
    ESC: [DEMO_CSM_EMAIL, DEMO_CSM_EMAIL, DEMO_CSM_EMAIL, DEMO_CSM_EMAIL],
    DATA: [DEMO_ADMIN_EMAIL, DEMO_CSM_EMAIL],
  };
  const openStates = C.TRACKER_STATES.filter((s) => s.type !== "completed" && s.type !== "canceled");
  const triage: readonly string[] = [
    "Customer reports blank page after login on Safari",
    "Spike in password reset emails from one district",
    "Sort order of the school list is inconsistent",
  ];

  const issues: TrackerIssue[] = [];
  const groups: { key: string; projectId: string | null; titles: readonly string[] }[] = [
    ...projects.map((p) => ({ key: p.key, projectId: p.id, titles: C.TRACKER_TITLES[p.key] ?? [] })),
    { key: "TRI", projectId: null, titles: triage },
  ];
  for (const g of groups) {
    let number = rng.int(40, 400);
    g.titles.forEach((title, i) => {
      number += rng.int(1, 9);
      const forcedAssignee = forced[g.key]?.[i];
      const state = forcedAssignee
        ? rng.pick(openStates)
        : rng.weighted(C.TRACKER_STATES.map((s) => [s, s.type === "completed" ? 3 : s.type === "canceled" ? 0.5 : 2] as const));
      const pool = pools[g.key] ?? [];
      const assigneeEmail = forcedAssignee ?? (pool.length > 0 && rng.chance(0.85) ? rng.pick(pool) : null);
      const createdAt = ctx.now - rng.int(2, 220) * DAY_MS - rng.int(0, 20) * HOUR_MS;
      const identifier = `${g.key}-${number}`;
      issues.push({
        id: rng.uuid(),
        identifier,
        title,
        url: `https://tracker.demo.test/issue/${identifier}/${slug(title)}`,
        stateName: state.name,
        stateType: state.type,
        priority: forcedAssignee ? rng.pick([1, 2, 3] as const) : rng.weighted([[0, 1], [1, 0.5], [2, 2], [3, 3], [4, 2]] as const),
        assigneeEmail,
        projectId: g.projectId,
        createdAt,
        updatedAt: between(rng, createdAt, ctx.now),
      });
    });
  }
  return { projects, issues };
}

// ── code hosting ──────────────────────────────────────────────────────────────────────────

function makeRepos(rng: Rng, ctx: Ctx): Repository[] {
  const nextId = idSequence(rng, 612_000_000, 250_000);
  const repos = C.REPOS.map((r): Repository => {
    const owner = r.owner ?? "demo-edu";
    const personal = r.owner !== undefined;
    // Admin sees every organisation repository; a personal repository only its owner.
    const visibleTo = personal ? [DEMO_CSM_EMAIL] : r.visibleToCsm ? [DEMO_ADMIN_EMAIL, DEMO_CSM_EMAIL] : [DEMO_ADMIN_EMAIL];
    return {
      id: nextId(),
      owner,
      name: r.name,
      nameWithOwner: `${owner}/${r.name}`,
      url: `https://code.demo.test/${owner}/${r.name}`,
      isPrivate: r.isPrivate,
      pushedAt: isoDateTime(ctx.now - rng.int(10, 120 * 24 * 60) * 60_000),
      description: r.description,
      visibleTo,
    };
  });
  return repos.sort((a, b) => (a.pushedAt < b.pushedAt ? 1 : a.pushedAt > b.pushedAt ? -1 : 0));
}

// ── call recording ────────────────────────────────────────────────────────────────────────

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function makeCalls(
  rng: Rng,
  ctx: Ctx,
  districts: DistrictPlan[],
  schools: SchoolPlan[],
  contacts: Contact[],
  staff: StaffMember[],
  owners: Map<string, Owner>,
): RecordedCall[] {
  const { now } = ctx;
  const contactsByCompany = new Map<string, Contact[]>();
  for (const c of contacts) {
    if (c.archived || c.companyId === null) continue;
    const list = contactsByCompany.get(c.companyId) ?? [];
    list.push(c);
    contactsByCompany.set(c.companyId, list);
  }
  const liveSchools = schools.filter((s) => s.company.churnedDate === null);
  const recentSchools = liveSchools.filter((s) => s.liveFrom >= now - 120 * DAY_MS);
  const decliningSchools = liveSchools.filter((s) => s.trend < -0.15);
  const colleagues = staff.filter((s) => s.lifecycleStage !== "offboarded" && ["Support", "Engineering", "Customer Success"].includes(s.team));
  const scriptsByTitle = new Map(C.CALL_SCRIPTS.map((s) => [s.title, s]));
  const script = (title: string): C.CallScript => {
    const s = scriptsByTitle.get(title);
    if (!s) throw new Error(`no call script ${title}`);
    return s;
  };

  const count = Math.max(10, Math.round(45 * ctx.scale));
  const speakerSeq = idSequence(rng, 3_100_000_000_000, 999_983);
  const partySeq = idSequence(rng, 5_200_000_000_000, 999_979);
  const drafts: Omit<RecordedCall, "id" | "url">[] = [];

  for (let i = 0; i < count; i++) {
    const kind = rng.weighted([
      ["Quarterly check-in", 5],
      ["Renewal planning", 2],
      ["Rostering issue follow-up", 2],
      ["Usage concern", 2],
      ["Onboarding kickoff", recentSchools.length > 0 ? 1 : 0],
      ["Expansion conversation", 1],
      ["Pipeline and renewals review", 1.2],
    ] as const);
    let s = script(kind);

    let company: Company | null = null;
    let district: DistrictPlan | null = null;
    let lo = now - CALL_DAYS * DAY_MS;
    if (kind === "Renewal planning" || kind === "Expansion conversation") {
      district = rng.pick(districts);
      company = district.company;
    } else if (!s.internal) {
      const pool = kind === "Onboarding kickoff" ? recentSchools : kind === "Usage concern" && decliningSchools.length > 0 ? decliningSchools : liveSchools;
      const sp = rng.pick(pool);
      company = sp.company;
      district = sp.district;
      lo = Math.max(lo, sp.liveFrom - 2 * DAY_MS);
    }
    if (kind === "Onboarding kickoff" && company === null) s = script("Quarterly check-in");

    const started = workingMoment(rng, lo, now - HOUR_MS);
    const assigned = company ? owners.get(company.ownerId) : undefined;
    const csm = assigned && assigned.active ? assigned : rng.pick(ctx.activeOwners);

    const parties: CallParty[] = [];
    const speakerOf = new Map<C.ScriptRole, string>();
    const addParty = (role: C.ScriptRole | null, p: Omit<CallParty, "id" | "speakerId">) => {
      const speakerId = role ? speakerSeq() : null;
      if (role && speakerId) speakerOf.set(role, speakerId);
      parties.push({ id: partySeq(), ...p, speakerId });
    };

    addParty("csm", { name: csm.name, emailAddress: csm.email, affiliation: "Internal" });
    const roles = new Set(s.turns.map(([r]) => r));
    const companyPeople = company ? rng.shuffle(contactsByCompany.get(company.id) ?? []) : [];
    const districtPeople = district && company && district.company.id !== company.id ? rng.shuffle(contactsByCompany.get(district.company.id) ?? []) : [];
    const people = [...companyPeople, ...districtPeople];
    for (const role of ["cust", "cust2"] as const) {
      if (!roles.has(role)) continue;
      const p = people.shift();
      if (p) addParty(role, { name: `${p.firstName} ${p.lastName}`, emailAddress: p.email, affiliation: "External" });
      else addParty(role, { name: `Guest ${rng.int(2, 9)}`, emailAddress: null, affiliation: "Unknown" });
    }
    if (roles.has("colleague")) {
      const pool = colleagues.filter((c) => c.email !== csm.email);
      const c = rng.pick(pool);
      addParty("colleague", { name: `${c.firstName} ${c.lastName}`, emailAddress: c.email, affiliation: "Internal" });
    }
    // People on the invite who never spoke: a dial-in number or a listening manager.
    if (rng.chance(0.25)) addParty(null, { name: `+1 555-01${rng.int(10, 99)}`, emailAddress: null, affiliation: "Unknown" });
    if (rng.chance(0.15)) addParty(null, { name: "Avery Admin", emailAddress: DEMO_ADMIN_EMAIL, affiliation: "Internal" });

    const custParty = parties.find((p) => p.speakerId === speakerOf.get("cust"));
    const fill = (text: string) =>
      text
        .replaceAll("{school}", company?.name ?? "")
        .replaceAll("{district}", district?.company.name ?? company?.name ?? "the district")
        .replaceAll("{cust}", custParty ? (custParty.name.split(" ")[0] ?? custParty.name) : "there")
        .replaceAll("{pct}", String(rng.int(25, 85)))
        .replaceAll("{n}", String(district?.schools.length ?? 3))
        .replaceAll("{month}", at(MONTHS, (new Date(started).getUTCMonth() + 1) % 12))
        .replaceAll("{departed}", ctx.departed.name.split(" ")[0] ?? ctx.departed.name);

    const transcript: TranscriptSegment[] = s.turns.map(([role, text]) => ({ speakerId: speakerOf.get(role) ?? null, text: fill(text) }));
    if (rng.chance(0.15)) {
      // Crosstalk the recorder could not attribute.
      transcript.splice(rng.int(1, transcript.length - 1), 0, { speakerId: null, text: "Sorry, you cut out for a second. Could you say that again?" });
    }

    drafts.push({
      title: company ? `${company.name}: ${s.title}` : s.title,
      started: isoDateTime(started),
      durationSec: rng.int(12, 55) * 60 + rng.int(0, 59),
      companyId: company?.id ?? null,
      parties,
      transcript,
    });
  }

  drafts.sort((a, b) => (a.started < b.started ? -1 : a.started > b.started ? 1 : 0));
  const nextId = idSequence(rng, 7_301_000_000_000_000, 9_999_991);
  return drafts.map((d) => {
    const id = nextId();
    return { id, title: d.title, started: d.started, durationSec: d.durationSec, url: `https://calls.demo.test/call?id=${id}`, companyId: d.companyId, parties: d.parties, transcript: d.transcript };
  });
}

// ── customer messaging ────────────────────────────────────────────────────────────────────

function makeConversations(rng: Rng, ctx: Ctx, companies: Company[], staff: StaffMember[]): SupportConversation[] {
  const nowSec = Math.floor(ctx.now / 1000);
  const live = companies.filter((c) => !c.archived);
  const support = staff.filter((s) => s.team === "Support" && s.lifecycleStage !== "offboarded").map((s) => s.email);
  const count = Math.max(120, Math.round(130 * ctx.scale));
  const drafts: Omit<SupportConversation, "id">[] = [];

  for (let i = 0; i < count; i++) {
    const createdAt = nowSec - rng.int(600, CONVERSATION_DAYS * 86_400);
    const ageDays = (nowSec - createdAt) / 86_400;
    const state = ageDays > 14
      ? rng.weighted([["closed", 90], ["open", 7], ["snoozed", 3]] as const)
      : rng.weighted([["closed", 40], ["open", 45], ["snoozed", 15]] as const);
    const updatedAt = Math.min(nowSec, createdAt + rng.int(60, 14 * 86_400));
    const assigneeEmail = rng.weighted<string | null>([
      [rng.pick(support), 62],
      [DEMO_CSM_EMAIL, 15],
      [DEMO_ADMIN_EMAIL, 5],
      [null, state === "closed" ? 6 : 20],
    ]);
    drafts.push({
      title: rng.chance(0.8) ? rng.pick(C.SUPPORT_TITLES) : null,
      state,
      open: state !== "closed",
      createdAt,
      updatedAt,
      companyId: rng.chance(0.85) ? rng.pick(live).id : null,
      assigneeEmail,
    });
  }
  drafts.sort((a, b) => a.createdAt - b.createdAt);
  const nextId = idSequence(rng, 215_400_000_000, 88_883);
  return drafts.map((d) => ({ id: nextId(), ...d }));
}

// ── entry point ───────────────────────────────────────────────────────────────────────────

export function generateTenant(opts: GenerateOptions = {}): Tenant {
  const seed = opts.seed ?? DEFAULT_SEED;
  const scale = opts.scale ?? DEFAULT_SCALE;
  const referenceDate = opts.referenceDate ?? DEFAULT_REFERENCE_DATE;
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  if (!Number.isFinite(scale) || scale <= 0) throw new RangeError(`scale must be a positive number, got ${scale}`);
  const now = parseIsoDate(referenceDate) + TENANT_CLOCK_OFFSET_MS;

  const root = createRng(seed);
  const owners = makeOwners(root.fork("owners"), scale);
  const casey = at(owners, 0);
  const departed = at(owners, owners.length - 1);
  const ctx: Ctx = {
    scale,
    now,
    departedAt: now - DEPARTED_DAYS_AGO * DAY_MS,
    owners,
    casey,
    departed,
    activeOwners: owners.filter((o) => o.active),
  };
  const ownerById = new Map(owners.map((o) => [o.ownerId, o]));

  const staff = makeStaff(root.fork("staff"), ctx);
  const { districts, schools, archived } = makeCompanies(root.fork("companies"), ctx);
  const companies = [...districts.flatMap((d) => [d.company, ...d.schools.map((s) => s.company)]), ...archived];
  const contacts = makeContacts(root.fork("contacts"), ctx, companies);
  const deals = makeDeals(root.fork("deals"), ctx, districts);
  const engagements = makeEngagements(root.fork("engagements"), ctx, schools, ownerById);
  const usage = makeUsage(root.fork("usage"), ctx, schools);
  const health = makeHealth(root.fork("health"), ctx, schools);
  const tracker = makeTracker(root.fork("tracker"), ctx, staff);
  const repos = makeRepos(root.fork("repos"), ctx);
  const calls = makeCalls(root.fork("calls"), ctx, districts, schools, contacts, staff, ownerById);
  const conversations = makeConversations(root.fork("conversations"), ctx, companies, staff);

  return {
    seed,
    scale,
    referenceDate,
    now,
    owners,
    companies,
    contacts,
    deals,
    engagements,
    usage,
    health,
    staff,
    tracker,
    repos,
    calls,
    conversations,
  };
}

interface TenantCounts {
  owners: number;
  districts: number;
  schools: number;
  companies: number;
  contacts: number;
  deals: number;
  engagements: number;
  usage: number;
  health: number;
  staff: number;
  trackerProjects: number;
  trackerIssues: number;
  repos: number;
  calls: number;
  conversations: number;
}

/** Record counts per collection, for logs, seeding markers and sanity checks. */
export function tenantCounts(t: Tenant): TenantCounts {
  return {
    owners: t.owners.length,
    districts: t.companies.filter((c) => c.kind === "district").length,
    schools: t.companies.filter((c) => c.kind === "school").length,
    companies: t.companies.length,
    contacts: t.contacts.length,
    deals: t.deals.length,
    engagements: t.engagements.length,
    usage: t.usage.length,
    health: t.health.length,
    staff: t.staff.length,
    trackerProjects: t.tracker.projects.length,
    trackerIssues: t.tracker.issues.length,
    repos: t.repos.length,
    calls: t.calls.length,
    conversations: t.conversations.length,
  };
}
