import { describe, expect, it } from "vitest";
import { demoUsers } from "../users";
import {
  DAY_MS,
  DEFAULT_REFERENCE_DATE,
  DEMO_ADMIN_EMAIL,
  DEMO_CSM_EMAIL,
  DEMO_MEMBER_EMAIL,
  DEAL_STAGES,
  LIFECYCLE_STAGES,
  createRng,
  generateTenant,
  parseIsoDate,
  tenantCounts,
  type Company,
  type Tenant,
} from "./index";

/** Milliseconds of this process's CPU time since `since` (process.cpuUsage()). */
function cpuMs(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

const t1 = generateTenant();
const t10 = generateTenant({ scale: 10 });

function byId<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((x) => [x.id, x]));
}

function expectUnique(values: readonly string[], what: string): void {
  const seen = new Set<string>();
  const dupes = values.filter((v) => seen.size === seen.add(v).size);
  expect(dupes, `duplicate ${what}`).toEqual([]);
}

function schoolsOf(t: Tenant): Company[] {
  return t.companies.filter((c) => c.kind === "school" && !c.archived);
}

/** Everything the edge-case tests look for, computed from the public records only. */
function edgeCases(t: Tenant, ownerId?: string) {
  const inBook = (c: Company) => ownerId === undefined || c.ownerId === ownerId;
  const schools = schoolsOf(t).filter(inBook);
  const touches = new Map<string, number[]>();
  for (const e of t.engagements) touches.set(e.companyId, [...(touches.get(e.companyId) ?? []), e.timestamp]);
  const healthCount = new Map<string, number>();
  for (const h of t.health) healthCount.set(h.companyId, (healthCount.get(h.companyId) ?? 0) + 1);
  const cutoff30 = t.now - 30 * DAY_MS;
  const departed = t.owners.filter((o) => !o.active);
  return {
    nullArrDistrict: t.companies.filter((c) => c.kind === "district" && c.arr === null && inBook(c)),
    nullEnrolment: schools.filter((c) => c.enrolment === null),
    noTouches: schools.filter((c) => c.churnedDate === null && !touches.has(c.id)),
    silent: schools.filter((c) => {
      const ts = touches.get(c.id);
      return c.churnedDate === null && ts !== undefined && ts.length > 0 && Math.max(...ts) < cutoff30;
    }),
    churned: schools.filter((c) => c.churnedDate !== null),
    singleHealth: schools.filter((c) => healthCount.get(c.id) === 1),
    noHealth: schools.filter((c) => !healthCount.has(c.id)),
    noProductId: schools.filter((c) => c.productSchoolId === null),
    orphanDeals: t.deals.filter((d) => d.companyId === null),
    departedWithCompanies: departed.filter((o) => t.companies.some((c) => c.ownerId === o.ownerId && !c.archived)),
    archivedCompanies: t.companies.filter((c) => c.archived),
    archivedContacts: t.contacts.filter((c) => c.archived),
    archivedDeals: t.deals.filter((d) => d.archived),
  };
}

describe("prng", () => {
  it("repeats the same sequence for the same seed and differs for another", () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const seqA = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(seqA);
    for (const v of seqA) expect(v >= 0 && v < 1).toBe(true);
  });

  it("keeps int() inside inclusive bounds and reaches both ends", () => {
    const r = createRng(7);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = r.int(3, 6);
      expect(v >= 3 && v <= 6).toBe(true);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
    expect(() => r.int(5, 4)).toThrow();
  });

  it("never picks a zero-weight entry and shuffles into a permutation", () => {
    const r = createRng(9);
    for (let i = 0; i < 500; i++) expect(r.weighted([["a", 1], ["b", 0], ["c", 3]])).not.toBe("b");
    const items = Array.from({ length: 50 }, (_, i) => i);
    const shuffled = r.shuffle(items);
    expect(shuffled).not.toEqual(items);
    expect([...shuffled].sort((x, y) => x - y)).toEqual(items);
  });

  it("derives forks by label, independent of draws already made", () => {
    const a = createRng(1);
    const b = createRng(1);
    b.next();
    b.next();
    expect(a.fork("x").next()).toBe(b.fork("x").next());
    expect(a.fork("x").next()).not.toBe(a.fork("y").next());
    expect(a.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("determinism", () => {
  it("gives deep-equal output for the same options", () => {
    expect(generateTenant()).toEqual(t1);
    expect(JSON.stringify(generateTenant({ seed: 20261121, scale: 1, referenceDate: DEFAULT_REFERENCE_DATE }))).toBe(
      JSON.stringify(t1),
    );
  });

  it("gives different data for a different seed", () => {
    const other = generateTenant({ seed: 7 });
    expect(other.companies.map((c) => c.name)).not.toEqual(t1.companies.map((c) => c.name));
    expect(other.engagements).not.toEqual(t1.engagements);
  });

  it("anchors every date to the reference date", () => {
    expect(t1.referenceDate).toBe("2026-11-20");
    expect(t1.now).toBe(Date.UTC(2026, 10, 20, 12));
    const later = generateTenant({ referenceDate: "2027-03-02" });
    expect(later.now).toBe(Date.UTC(2027, 2, 2, 12));
    // Same dice, shifted calendar: the structure is unchanged.
    expect(later.companies.map((c) => c.name)).toEqual(t1.companies.map((c) => c.name));
    for (const t of [t1, later]) {
      for (const e of t.engagements) expect(e.timestamp).toBeLessThanOrEqual(t.now);
      for (const c of t.companies) expect(c.updatedAt).toBeLessThanOrEqual(t.now);
      const lastWeek = t.usage.reduce((m, u) => (u.weekStart > m ? u.weekStart : m), "");
      expect(parseIsoDate(lastWeek) + 7 * DAY_MS).toBeLessThanOrEqual(t.now);
    }
  });

  it("rejects bad options", () => {
    expect(() => generateTenant({ scale: 0 })).toThrow();
    expect(() => generateTenant({ scale: Number.NaN })).toThrow();
    expect(() => generateTenant({ referenceDate: "2026-02-30" })).toThrow();
    expect(() => generateTenant({ referenceDate: "20/11/2026" })).toThrow();
    expect(() => generateTenant({ seed: 1.5 })).toThrow();
  });
});

describe("unique ids", () => {
  it.each([
    ["scale 1", t1],
    ["scale 10", t10],
  ] as const)("has no duplicate ids at %s", (_label, t) => {
    expectUnique(t.owners.map((o) => o.ownerId), "owner ids");
    expectUnique(t.owners.map((o) => o.email), "owner emails");
    expectUnique(t.companies.map((c) => c.id), "company ids");
    expectUnique(t.contacts.map((c) => c.id), "contact ids");
    expectUnique(t.contacts.map((c) => c.email), "contact emails");
    expectUnique(t.deals.map((d) => d.id), "deal ids");
    expectUnique(t.engagements.map((e) => e.id), "engagement ids");
    expectUnique(t.staff.map((s) => s.id), "staff ids");
    expectUnique(t.staff.map((s) => s.email), "staff emails");
    expectUnique(t.tracker.issues.map((i) => i.id), "issue ids");
    expectUnique(t.tracker.issues.map((i) => i.identifier), "issue identifiers");
    expectUnique(t.repos.map((r) => r.nameWithOwner), "repositories");
    expectUnique(t.calls.map((c) => c.id), "call ids");
    expectUnique(t.conversations.map((c) => c.id), "conversation ids");
    expectUnique(
      t.companies.filter((c) => c.productSchoolId !== null).map((c) => c.productSchoolId as string),
      "product school ids",
    );
    expectUnique(t.usage.map((u) => `${u.productSchoolId}/${u.weekStart}`), "usage weeks");
    expectUnique(t.health.map((h) => `${h.companyId}/${h.date}`), "health points");
    for (const c of t.companies) expect(c.id).toMatch(/^\d+$/);
    for (const c of t.calls) expect(c.id).toMatch(/^\d+$/);
  });
});

describe("referential integrity", () => {
  const t = t1;
  const companies = byId(t.companies);
  const ownerIds = new Set(t.owners.map((o) => o.ownerId));

  it("links companies into a district → school hierarchy with district-grain ARR", () => {
    for (const c of t.companies) {
      expect(ownerIds.has(c.ownerId), `owner of ${c.id}`).toBe(true);
      if (c.kind === "district") {
        expect(c.parentCompanyId).toBeNull();
        expect(c.productSchoolId).toBeNull();
        expect(c.enrolment).toBeNull();
        continue;
      }
      const parent = companies.get(c.parentCompanyId ?? "");
      expect(parent?.kind, `parent of ${c.id}`).toBe("district");
      expect(c.arr).toBe(parent?.arr);
      expect(c.tier).toBe(parent?.tier);
      expect(c.ownerId).toBe(parent?.ownerId);
      expect(c.domain.endsWith(`.${parent?.domain}`)).toBe(true);
    }
    for (const d of t.companies.filter((c) => c.kind === "district")) {
      const n = t.companies.filter((c) => c.parentCompanyId === d.id && !c.archived).length;
      expect(n).toBeGreaterThanOrEqual(2);
      expect(n).toBeLessThanOrEqual(8);
    }
  });

  it("resolves contact, deal and engagement references", () => {
    for (const c of t.contacts) {
      if (c.companyId !== null) expect(companies.has(c.companyId)).toBe(true);
      if (c.ownerId !== null) expect(ownerIds.has(c.ownerId)).toBe(true);
      expect(LIFECYCLE_STAGES).toContain(c.lifecycleStage);
      expect(c.email).toMatch(/^[a-z0-9.]+@[a-z0-9.-]+\.test$/);
    }
    for (const d of t.deals) {
      if (d.companyId !== null) expect(companies.get(d.companyId)?.kind).toBe("district");
      expect(ownerIds.has(d.ownerId)).toBe(true);
      expect(DEAL_STAGES).toContain(d.stage);
      expect(d.closeDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // Only closed deals have a close date before the reference date.
      const closed = d.stage === "closedwon" || d.stage === "closedlost";
      expect(closed).toBe(d.closeDate < t.referenceDate);
    }
    for (const e of t.engagements) {
      expect(companies.get(e.companyId)?.kind).toBe("school");
      expect(ownerIds.has(e.ownerId)).toBe(true);
      expect(e.timestamp).toBeGreaterThanOrEqual(t.now - 365 * DAY_MS);
      expect(["call", "meeting", "email"]).toContain(e.kind);
    }
  });

  it("keeps a departed CSM off touches logged after they left", () => {
    const departed = t.owners.find((o) => !o.active);
    const theirs = t.engagements.filter((e) => e.ownerId === departed?.ownerId);
    expect(theirs.length).toBeGreaterThan(0);
    const lastTheirs = Math.max(...theirs.map((e) => e.timestamp));
    const coveredAfter = t.engagements.filter(
      (e) => companies.get(e.companyId)?.ownerId === departed?.ownerId && e.timestamp > lastTheirs,
    );
    expect(coveredAfter.length).toBeGreaterThan(0);
    for (const e of coveredAfter) expect(e.ownerId).not.toBe(departed?.ownerId);
  });

  it("has touches logged by someone other than the assigned owner (activity basis differs)", () => {
    const mismatched = t.engagements.filter((e) => companies.get(e.companyId)?.ownerId !== e.ownerId);
    expect(mismatched.length).toBeGreaterThan(t.engagements.length * 0.05);
    expect(mismatched.length).toBeLessThan(t.engagements.length * 0.5);
  });

  it("ties usage and health to provisioned schools within their windows", () => {
    const byProductId = new Map(t.companies.filter((c) => c.productSchoolId !== null).map((c) => [c.productSchoolId, c]));
    const weeks = new Set<string>();
    for (const u of t.usage) {
      const school = byProductId.get(u.productSchoolId);
      expect(school?.kind).toBe("school");
      expect(new Date(parseIsoDate(u.weekStart)).getUTCDay()).toBe(1);
      expect(u.activePersons).toBeGreaterThanOrEqual(0);
      if (school?.enrolment != null) expect(u.activePersons).toBeLessThanOrEqual(school.enrolment);
      weeks.add(u.weekStart);
    }
    expect(weeks.size).toBe(26);
    for (const h of t.health) {
      expect(companies.get(h.companyId)?.kind).toBe("school");
      if (h.score !== null) expect(h.score >= 0 && h.score <= 100 && Number.isInteger(h.score)).toBe(true);
      expect(parseIsoDate(h.date)).toBeGreaterThanOrEqual(t.now - 181 * DAY_MS);
      expect(parseIsoDate(h.date)).toBeLessThanOrEqual(t.now);
    }
    expect(t.health.some((h) => h.score === null)).toBe(true);
    // Roughly weekly: a school with a full series has 20-27 points over 180 days.
    const perSchool = new Map<string, number>();
    for (const h of t.health) perSchool.set(h.companyId, (perSchool.get(h.companyId) ?? 0) + 1);
    const median = [...perSchool.values()].sort((a, b) => a - b)[Math.floor(perSchool.size / 2)];
    expect(median).toBeGreaterThanOrEqual(20);
    expect(median).toBeLessThanOrEqual(27);
  });

  it("resolves tracker projects and assignees, and repository visibility", () => {
    const projects = byId(t.tracker.projects);
    const staffEmails = new Set(t.staff.map((s) => s.email));
    for (const i of t.tracker.issues) {
      if (i.projectId !== null) {
        const p = projects.get(i.projectId);
        expect(p).toBeDefined();
        expect(i.identifier.startsWith(`${p?.key}-`)).toBe(true);
      }
      if (i.assigneeEmail !== null) expect(staffEmails.has(i.assigneeEmail)).toBe(true);
      expect(i.url.startsWith("https://tracker.demo.test/")).toBe(true);
      expect(i.identifier).toMatch(/^[A-Z]+-\d+$/);
      expect([0, 1, 2, 3, 4]).toContain(i.priority);
    }
    for (const email of [DEMO_ADMIN_EMAIL, DEMO_CSM_EMAIL]) {
      const open = t.tracker.issues.filter(
        (i) => i.assigneeEmail === email && i.stateType !== "completed" && i.stateType !== "canceled",
      );
      expect(open.length, `open issues of ${email}`).toBeGreaterThanOrEqual(3);
    }
    const demoEmails = new Set(demoUsers.map((u) => u.email));
    for (const r of t.repos) {
      expect(r.nameWithOwner).toBe(`${r.owner}/${r.name}`);
      expect(r.url).toBe(`https://code.demo.test/${r.owner}/${r.name}`);
      for (const e of r.visibleTo) expect(demoEmails.has(e)).toBe(true);
      expect(r.visibleTo).not.toContain(DEMO_MEMBER_EMAIL);
    }
    expect(t.repos.filter((r) => r.visibleTo.includes(DEMO_ADMIN_EMAIL)).length).toBeGreaterThan(3);
    expect(t.repos.filter((r) => r.visibleTo.includes(DEMO_CSM_EMAIL)).length).toBeGreaterThan(2);
    const pushed = t.repos.map((r) => r.pushedAt);
    expect(pushed).toEqual([...pushed].sort().reverse());
  });

  it("joins every transcript speaker to a party of the same call", () => {
    let unattributed = 0;
    let silentParties = 0;
    for (const call of t.calls) {
      const speakers = call.parties.map((p) => p.speakerId).filter((s): s is string => s !== null);
      expectUnique(speakers, `speakers of call ${call.id}`);
      expect(call.transcript.length).toBeGreaterThan(2);
      for (const seg of call.transcript) {
        if (seg.speakerId === null) unattributed++;
        else expect(speakers, `speaker ${seg.speakerId} of call ${call.id}`).toContain(seg.speakerId);
        expect(seg.text).not.toMatch(/[{}]/);
      }
      silentParties += call.parties.filter((p) => p.speakerId === null).length;
      for (const p of call.parties) expect(["Internal", "External", "Unknown"]).toContain(p.affiliation);
      expect(call.parties.some((p) => p.affiliation === "Internal")).toBe(true);
      if (call.companyId !== null) expect(companies.has(call.companyId)).toBe(true);
      expect(call.url).toBe(`https://calls.demo.test/call?id=${call.id}`);
    }
    expect(unattributed).toBeGreaterThan(0);
    expect(silentParties).toBeGreaterThan(0);
  });

  it("spreads calls over 60 days so the trailing-30-day filter matters", () => {
    const started = t.calls.map((c) => Date.parse(c.started));
    for (const s of started) {
      expect(s).toBeLessThanOrEqual(t.now);
      expect(s).toBeGreaterThanOrEqual(t.now - 60 * DAY_MS);
    }
    const recent = started.filter((s) => s >= t.now - 30 * DAY_MS).length;
    expect(recent).toBeGreaterThan(5);
    expect(started.length - recent).toBeGreaterThan(5);
    expect(t.calls.some((c) => c.companyId === null)).toBe(true);
  });

  it("keeps support conversations in unix seconds with a consistent open flag", () => {
    const nowSec = t.now / 1000;
    expect(t.conversations.length).toBeGreaterThanOrEqual(120);
    for (const c of t.conversations) {
      expect(Number.isInteger(c.createdAt)).toBe(true);
      expect(c.createdAt).toBeLessThan(1e11);
      expect(c.createdAt).toBeLessThanOrEqual(c.updatedAt);
      expect(c.updatedAt).toBeLessThanOrEqual(nowSec);
      expect(c.open).toBe(c.state !== "closed");
      if (c.companyId !== null) expect(companies.has(c.companyId)).toBe(true);
    }
    const states = new Set(t.conversations.map((c) => c.state));
    expect([...states].sort()).toEqual(["closed", "open", "snoozed"]);
    expect(t.conversations.some((c) => c.title === null)).toBe(true);
    expect(t.conversations.some((c) => c.assigneeEmail === DEMO_CSM_EMAIL)).toBe(true);
  });

  it("puts the demo users and every CSM among staff", () => {
    const staff = new Map(t.staff.map((s) => [s.email, s]));
    for (const u of demoUsers) expect(staff.has(u.email), u.email).toBe(true);
    for (const o of t.owners) {
      expect(staff.get(o.email)?.team).toBe("Customer Success");
      expect(staff.get(o.email)?.lifecycleStage).toBe(o.active ? "active" : "offboarded");
    }
  });
});

describe("edge cases", () => {
  it("has every edge case at scale 1", () => {
    const e = edgeCases(t1);
    for (const [name, list] of Object.entries(e)) expect(list.length, name).toBeGreaterThan(0);
    expect(e.nullArrDistrict.every((d) => t1.companies.filter((c) => c.parentCompanyId === d.id).every((s) => s.arr === null))).toBe(true);
    expect(t1.owners.filter((o) => !o.active)).toHaveLength(1);
    // Silent schools were touched, just not lately; untouched ones never were.
    for (const s of e.silent) expect(t1.engagements.some((x) => x.companyId === s.id)).toBe(true);
    for (const s of e.noTouches) expect(t1.engagements.some((x) => x.companyId === s.id)).toBe(false);
    for (const s of e.noProductId) expect(t1.usage.some((u) => u.productSchoolId === s.productSchoolId)).toBe(false);
  });

  it("shows the interesting cases in the demo CSM's own book", () => {
    const casey = t1.owners.find((o) => o.email === DEMO_CSM_EMAIL);
    expect(casey?.name).toBe("Casey Morgan");
    expect(casey?.active).toBe(true);
    const e = edgeCases(t1, casey?.ownerId);
    for (const key of ["nullArrDistrict", "nullEnrolment", "noTouches", "silent", "churned", "singleHealth", "noHealth", "noProductId"] as const) {
      expect(e[key].length, key).toBeGreaterThan(0);
    }
  });

  it.each([1, 2, 3, 99])("does not depend on luck (seed %i, and at scale 10)", (seed) => {
    for (const t of [generateTenant({ seed }), seed === 1 ? t10 : generateTenant({ seed, scale: 0.3 })]) {
      const e = edgeCases(t);
      for (const [name, list] of Object.entries(e)) expect(list.length, `${name} (seed ${seed}, scale ${t.scale})`).toBeGreaterThan(0);
      expect(t.owners.filter((o) => !o.active)).toHaveLength(1);
      expect(t.companies.some((c) => c.ownerId === t.owners.find((o) => o.email === DEMO_CSM_EMAIL)?.ownerId)).toBe(true);
    }
  });
});

describe("counts and scale", () => {
  it("matches the intended size at scale 1", () => {
    const n = tenantCounts(t1);
    expect(n.owners).toBe(6);
    expect(n.districts).toBe(25);
    expect(n.schools).toBeGreaterThanOrEqual(25 * 2);
    expect(n.schools).toBeLessThanOrEqual(25 * 8 + 10);
    expect(n.contacts).toBeGreaterThanOrEqual(3 * (n.companies - 10));
    expect(n.deals).toBeGreaterThanOrEqual(30);
    expect(n.deals).toBeLessThanOrEqual(60);
    expect(n.engagements).toBeGreaterThanOrEqual(200);
    expect(n.engagements).toBeLessThanOrEqual(900);
    expect(n.calls).toBeGreaterThanOrEqual(20);
    expect(n.conversations).toBeGreaterThanOrEqual(120);
    for (const c of schoolsOf(t1)) {
      if (c.enrolment !== null) expect(c.enrolment >= 200 && c.enrolment <= 2500).toBe(true);
    }
    for (const c of t1.companies) if (c.arr !== null) expect(c.arr >= 8_000 && c.arr <= 400_000).toBe(true);
    const perCompany = new Map<string, number>();
    for (const c of t1.contacts) if (c.companyId) perCompany.set(c.companyId, (perCompany.get(c.companyId) ?? 0) + 1);
    for (const c of t1.companies.filter((x) => !x.archived)) {
      const k = perCompany.get(c.id) ?? 0;
      expect(k >= 3 && k <= 6, `contacts of ${c.id}: ${k}`).toBe(true);
    }
  });

  it("grows about linearly with scale and stays fast", () => {
    const a = tenantCounts(t1);
    // CPU time, not the clock's: a busy machine stretches the clock, not the work.
    const started = process.cpuUsage();
    const b = tenantCounts(generateTenant({ scale: 10 }));
    expect(cpuMs(started)).toBeLessThan(2000);
    expect(b.districts).toBe(10 * a.districts);
    for (const key of ["schools", "companies", "contacts", "deals", "engagements", "usage", "health", "calls", "conversations"] as const) {
      const ratio = b[key] / a[key];
      expect(ratio, key).toBeGreaterThan(8);
      expect(ratio, key).toBeLessThan(12);
    }
    expect(t10.owners.filter((o) => !o.active)).toHaveLength(1);
    expect(t10.owners[0]?.email).toBe(DEMO_CSM_EMAIL);
  });
});
