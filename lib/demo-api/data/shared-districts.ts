import type { Company, Owner, Tenant } from "@/demo/tenant";

// The demo tenant with its districts shared among CSMs, for the `shared-districts` scenario. The
// generated tenant gives every school its district's CSM, so no district has two; a task such
// as "the CSM who owns most of a district" needs districts dealt out unequally. The rule is
// fixed and depends only on the tenant's structure (names, ids and school counts, which do not
// change with the reference date), so the scenario's description can name its outcome:
//
// - districts in /cx/districts order (by name), schools by name then id, CSMs in /cx/owners
//   order (by name, then id);
// - a district of n ≥ 3 schools keeps ⌈n/2⌉ with its own CSM, and the rest go, half and half
//   (rounded to the first), to the next one or two active CSMs after its own in roster order:
//   3 → 2+1, 4 → 2+1+1, 5 → 3+1+1, 6 → 3+2+1, 7 → 4+2+1, 8 → 4+2+2, so one CSM owns most;
// - the first district of exactly two schools is split one and one with the next active CSM
//   (the tie); the other two-school districts keep their single CSM.
//
// A moved school takes its touches and contacts with it: whatever its old CSM logged on it is
// the new CSM's, so the `activity` basis follows the new books as `real` does.

const collator = new Intl.Collator("en", { sensitivity: "base" });
const byNameThenId = <T extends { name: string }>(id: (x: T) => string) => (a: T, b: T) =>
  collator.compare(a.name, b.name) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0);

/** How many schools each CSM of a district of `n` holds, the district's own CSM first. */
export function sharesOf(n: number, tie: boolean): number[] {
  if (tie) return [n / 2, n / 2];
  if (n <= 2) return [n];
  const first = Math.ceil(n / 2);
  const second = Math.ceil((n - first) / 2);
  const third = n - first - second;
  return third > 0 ? [first, second, third] : [first, second];
}

interface SharedDistrict {
  districtId: string;
  name: string;
  /** The split of its schools, the district's own CSM first (the one who owns most, unless a tie). */
  shares: { ownerId: string; schools: number }[];
  tie: boolean;
}

interface SharedTenant {
  tenant: Tenant;
  /** Every district, by name, with how its schools are split. */
  districts: SharedDistrict[];
}

/** The tenant with its schools dealt out as above. Pure: the input is not changed. */
export function shareDistricts(t: Tenant): SharedTenant {
  const roster = [...t.owners].sort(byNameThenId((o: Owner) => o.ownerId));
  const nextActive = (ownerId: string, count: number): Owner[] => {
    const at = roster.findIndex((o) => o.ownerId === ownerId);
    const after = [...roster.slice(at + 1), ...roster.slice(0, at)];
    return after.filter((o) => o.active).slice(0, count);
  };

  const live = t.companies.filter((c) => !c.archived);
  const districts = live.filter((c) => c.parentCompanyId === null).sort(byNameThenId((c: Company) => c.id));
  const schoolsOf = (d: Company) => live.filter((c) => c.parentCompanyId === d.id).sort(byNameThenId((c: Company) => c.id));
  let tieTaken = false;

  const ownerOf = new Map<string, string>();
  const plan = districts.map((d): SharedDistrict => {
    const schools = schoolsOf(d);
    const tie = !tieTaken && schools.length === 2;
    tieTaken ||= tie;
    const counts = sharesOf(schools.length, tie);
    const owners = [d.ownerId, ...nextActive(d.ownerId, counts.length - 1).map((o) => o.ownerId)];
    let next = 0;
    const shares = counts.map((n, i) => {
      const ownerId = owners[i] ?? d.ownerId;
      for (const s of schools.slice(next, next + n)) ownerOf.set(s.id, ownerId);
      next += n;
      return { ownerId, schools: n };
    });
    return { districtId: d.id, name: d.name, shares, tie };
  });

  const assigned = new Map(t.companies.map((c) => [c.id, c.ownerId]));
  const moved = <O extends string | null>(companyId: string | null, ownerId: O): O | string => {
    const to = companyId === null ? undefined : ownerOf.get(companyId);
    return to !== undefined && ownerId === assigned.get(companyId ?? "") ? to : ownerId;
  };
  const tenant: Tenant = {
    ...t,
    companies: t.companies.map((c) => ({ ...c, ownerId: ownerOf.get(c.id) ?? c.ownerId })),
    engagements: t.engagements.map((e) => ({ ...e, ownerId: moved(e.companyId, e.ownerId) })),
    contacts: t.contacts.map((c) => ({ ...c, ownerId: moved(c.companyId, c.ownerId) })),
  };
  return { tenant, districts: plan };
}
