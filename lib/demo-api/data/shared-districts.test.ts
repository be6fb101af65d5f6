import { describe, expect, it } from "vitest";
import { endpointById } from "@/lib/contract/endpoints";
import { demoApiResponse } from "@/lib/demo-api/answers";
import { generateTenant } from "@/demo/tenant";
import { rich, scenarioNamed } from ".";
import { shareDistricts, sharesOf } from "./shared-districts";

// The shared-districts scenario read as a dashboard reads it: the roster, every owner's book
// and the districts, through the demo API. Who owns most of a district is counted from the
// books, and held to what the scenario's description says.

const SCENARIO = "shared-districts";

const get = (path: string, query = "") => {
  const res = demoApiResponse({ path, search: new URLSearchParams(`${query}${query ? "&" : ""}scenario=${SCENARIO}`) });
  expect(res.status, `${path}?${query}`).toBe(200);
  return res.body;
};

/** The `{ok: true, data}` of a CX answer, parsed with the endpoint's own schema. */
function ready<T>(id: "cx.owners" | "cx.book" | "cx.districts", body: unknown): T {
  const parsed = endpointById(id).response.parse(body) as { ok: boolean; data?: T };
  if (!parsed.ok || parsed.data === undefined) throw new Error(`not ready: ${JSON.stringify(body)}`);
  return parsed.data;
}

const owners = (query = "") => ready<{ owners: { ownerId: string; name: string }[] }>("cx.owners", get("/cx/owners", query));
const book = (ownerId: string, query = "") => ready<{ rows: { companyId: string; districtName: string }[] }>("cx.book", get("/cx/book", `owner=${ownerId}${query}`));
const districts = () => ready<{ rows: { name: string }[] }>("cx.districts", get("/cx/districts"));

/** District name → owner name → schools in that owner's book, as a dashboard would count it. */
function ownership(): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const o of owners().owners) {
    for (const r of book(o.ownerId).rows) {
      const counts = out.get(r.districtName) ?? new Map<string, number>();
      counts.set(o.name, (counts.get(o.name) ?? 0) + 1);
      out.set(r.districtName, counts);
    }
  }
  return out;
}

/** The CSMs who own most of a district: one name, or several on a tie. */
function mostOf(counts: ReadonlyMap<string, number>): string[] {
  const top = Math.max(...counts.values());
  return [...counts].filter(([, n]) => n === top).map(([name]) => name);
}

describe("the split of a district", () => {
  it("gives the district's own CSM half (rounded up) and the rest to one or two more, unequally", () => {
    expect([2, 3, 4, 5, 6, 7, 8].map((n) => sharesOf(n, false))).toEqual([[2], [2, 1], [2, 1, 1], [3, 1, 1], [3, 2, 1], [4, 2, 1], [4, 2, 2]]);
    for (let n = 3; n <= 12; n++) {
      const [first = 0, ...rest] = sharesOf(n, false);
      expect(first + rest.reduce((a, b) => a + b, 0)).toBe(n);
      for (const r of rest) expect(first, `n=${n}`).toBeGreaterThan(r);
    }
    expect(sharesOf(2, true)).toEqual([1, 1]);
  });

  it("depends only on the tenant's structure, so the description holds on every day", () => {
    const plan = (referenceDate: string) => shareDistricts(generateTenant({ referenceDate })).districts;
    expect(plan("2026-01-05")).toEqual(plan("2027-08-19"));
    expect(shareDistricts(rich().tenant).districts).toEqual(plan("2026-01-05"));
  });

  it("moves only owners: the tenant it is given is unchanged, and no company, touch or contact is added or lost", () => {
    const t = rich().tenant;
    const before = JSON.stringify(t);
    const shared = shareDistricts(t).tenant;
    expect(JSON.stringify(t)).toBe(before);
    const strip = (xs: readonly { ownerId: string | null }[]) => xs.map((x) => JSON.stringify({ ...x, ownerId: null }));
    expect(strip(shared.companies)).toEqual(strip(t.companies));
    expect(strip(shared.engagements)).toEqual(strip(t.engagements));
    expect(strip(shared.contacts)).toEqual(strip(t.contacts));
    // Districts keep their CSM: only schools are dealt out.
    for (const c of shared.companies) if (c.parentCompanyId === null) expect(c.ownerId).toBe(t.companies.find((x) => x.id === c.id)?.ownerId);
  });

  it("moves a school's touches with it: what its old CSM logged is the new CSM's", () => {
    const t = rich().tenant;
    const shared = shareDistricts(t).tenant;
    const was = new Map(t.companies.map((c) => [c.id, c.ownerId]));
    const now = new Map(shared.companies.map((c) => [c.id, c.ownerId]));
    t.engagements.forEach((e, i) => {
      const after = shared.engagements[i];
      if (e.ownerId === was.get(e.companyId)) expect(after?.ownerId).toBe(now.get(e.companyId));
      else expect(after?.ownerId).toBe(e.ownerId);
    });
  });
});

describe("the shared-districts scenario", () => {
  it("is a scenario over the three CX views", () => {
    expect(scenarioNamed(SCENARIO)?.examples).toEqual({ "/cx/owners": "shared_districts", "/cx/book": "shared_districts", "/cx/districts": "shared_districts" });
  });

  it("gives every school to exactly one owner's book, and the books add up to the CRM's districts", () => {
    const seen = new Map<string, string>();
    for (const o of owners().owners) {
      for (const r of book(o.ownerId).rows) {
        expect(seen.get(r.companyId), r.companyId).toBeUndefined();
        seen.set(r.companyId, r.districtName);
      }
    }
    // The same schools, under the same districts, as the CRM's companies and /cx/districts name.
    const companies = rich().crm.companies.customers;
    const names = new Map(companies.map((c) => [c.id, c.name]));
    const schools = companies.filter((c) => c.parentCompanyId !== null && c.parentCompanyId !== undefined);
    expect(new Map([...seen].sort())).toEqual(new Map(schools.map((c) => [c.id, names.get(c.parentCompanyId ?? "") ?? ""] as const).sort()));
    expect(districts().rows.map((d) => d.name).sort()).toEqual([...new Set(companies.filter((c) => c.parentCompanyId === null).map((c) => c.name))].sort());
  });

  it("shares every district of three or more schools among two or three CSMs, one of whom owns most", () => {
    const shares = ownership();
    const plan = shareDistricts(rich().tenant).districts;
    const nameOf = new Map(rich().owners.map((o) => [o.ownerId, o.name]));
    expect(plan.length).toBe(districts().rows.length);
    for (const d of plan) {
      const counts = shares.get(d.name);
      // What the books say is what the plan dealt: no more, no fewer schools per owner.
      expect(counts, d.name).toEqual(new Map(d.shares.map((s) => [nameOf.get(s.ownerId) ?? "", s.schools])));
      const total = [...(counts ?? new Map<string, number>()).values()].reduce((a, b) => a + b, 0);
      if (d.tie) continue;
      if (total >= 3) {
        expect(counts?.size, d.name).toBeGreaterThanOrEqual(2);
        expect(counts?.size, d.name).toBeLessThanOrEqual(3);
        expect(mostOf(counts ?? new Map()), d.name).toEqual([nameOf.get(d.shares[0]?.ownerId ?? "")]);
      } else expect(counts?.size, d.name).toBe(1);
    }
    expect(plan.filter((d) => d.tie)).toHaveLength(1);
    expect(plan.filter((d) => d.shares.length === 3).length).toBeGreaterThan(10);
  });

  it("answers what its description says", () => {
    const description = scenarioNamed(SCENARIO)?.description ?? "";
    const shares = ownership();
    const counts = (district: string) => Object.fromEntries(shares.get(district) ?? []);

    expect(description).toContain("Clear Crossing Independent School District is Marcus Bell 4, Priya Raman 2, Casey Morgan 2");
    expect(counts("Clear Crossing Independent School District")).toEqual({ "Marcus Bell": 4, "Priya Raman": 2, "Casey Morgan": 2 });

    expect(description).toContain("Lakefield Public Schools is a tie, one school each for Casey Morgan and Elena Voss");
    expect(counts("Lakefield Public Schools")).toEqual({ "Casey Morgan": 1, "Elena Voss": 1 });
    expect(mostOf(shares.get("Lakefield Public Schools") ?? new Map()).sort()).toEqual(["Casey Morgan", "Elena Voss"]);

    expect(description).toContain("Oak Falls Public Schools and Pine Park Community Schools keep one CSM");
    for (const d of ["Oak Falls Public Schools", "Pine Park Community Schools"]) expect(shares.get(d)?.size, d).toBe(1);

    expect(description).toContain("Dana Whitfield, who has left (gone from /cx/owners?activeOnly=true), still owns most of Lake Valley Unified School District and Silver Grove Public Schools");
    for (const d of ["Lake Valley Unified School District", "Silver Grove Public Schools"]) {
      expect(mostOf(shares.get(d) ?? new Map()), d).toEqual(["Dana Whitfield"]);
      expect(shares.get(d)?.size, d).toBeGreaterThan(1);
    }
    expect(owners().owners.map((o) => o.name)).toContain("Dana Whitfield");
    expect(owners("activeOnly=true").owners.map((o) => o.name)).not.toContain("Dana Whitfield");

    // Every district with more than one CSM: the rest of the description's promise.
    for (const [district, c] of shares) {
      const total = [...c.values()].reduce((a, b) => a + b, 0);
      if (total >= 3) expect(mostOf(c), district).toHaveLength(1);
    }
  });

  it("has books that span several districts and overlap one another", () => {
    const roster = owners("activeOnly=true").owners;
    const districtsOf = new Map(roster.map((o) => [o.name, new Set(book(o.ownerId).rows.map((r) => r.districtName))]));
    for (const [name, ds] of districtsOf) {
      expect(ds.size, name).toBeGreaterThanOrEqual(5);
      const others = [...districtsOf].filter(([n]) => n !== name);
      // Each active CSM shares districts with at least two others.
      expect(others.filter(([, theirs]) => [...ds].some((d) => theirs.has(d))).length, name).toBeGreaterThanOrEqual(2);
    }
  });

  it("moves a school's touches with it on the activity basis: its old CSM's touches count for the new one", () => {
    const plain = (ownerId: string, query = "") =>
      ready<{ rows: { companyId: string }[] }>("cx.book", demoApiResponse({ path: "/cx/book", search: new URLSearchParams(`owner=${ownerId}${query}`) }).body).rows;
    const activity = "&basis=activity&days=90";
    const roster = owners().owners;
    const ownerBefore = new Map(roster.flatMap((o) => plain(o.ownerId).map((r) => [r.companyId, o.ownerId] as const)));
    const ownerNow = new Map(roster.flatMap((o) => book(o.ownerId).rows.map((r) => [r.companyId, o.ownerId] as const)));
    const touchedNow = new Map(roster.map((o) => [o.ownerId, new Set(book(o.ownerId, activity).rows.map((r) => r.companyId))]));
    let moved = 0;
    for (const o of roster) {
      for (const r of plain(o.ownerId, activity)) {
        const to = ownerNow.get(r.companyId);
        if (ownerBefore.get(r.companyId) !== o.ownerId || to === undefined || to === o.ownerId) continue;
        moved += 1;
        expect(touchedNow.get(o.ownerId)?.has(r.companyId), `${o.name} ${r.companyId}`).toBe(false);
        expect(touchedNow.get(to)?.has(r.companyId), `${to} ${r.companyId}`).toBe(true);
      }
    }
    expect(moved).toBeGreaterThan(10);
  });

  it("leaves the default answers as they were", () => {
    const casey = rich().owners.find((o) => o.name === "Casey Morgan")?.ownerId ?? "";
    const plain = (path: string, query = "") => demoApiResponse({ path, search: new URLSearchParams(query) });
    const before = [plain("/cx/book", `owner=${casey}`), plain("/cx/districts"), plain("/cx/owners")];
    get("/cx/book", `owner=${casey}`);
    expect([plain("/cx/book", `owner=${casey}`), plain("/cx/districts"), plain("/cx/owners")]).toEqual(before);
    // The districts themselves do not depend on who owns the schools.
    expect(get("/cx/districts")).toEqual(plain("/cx/districts").body);
    expect(get("/cx/book", `owner=${casey}`)).not.toEqual(plain("/cx/book", `owner=${casey}`).body);
  });
});
