import type { CxDistrictRow } from "@/lib/contract/resources";
import { cadenceOf, type Touch } from "./cadence";
import { districtHealthOf, type HealthPoint } from "./health";
import type { CompanyRow } from "./load";
import type { Wiring } from "./ready";
import type { CxWindow } from "./window";

interface DistrictInputs {
  companies: readonly CompanyRow[];
  touches: ReadonlyMap<string, readonly Touch[]>;
  health: ReadonlyMap<string, readonly HealthPoint[]>;
}

const collator = new Intl.Collator("en", { sensitivity: "base" });

/**
 * One row per district (every company without a parent, with or without schools), by name.
 * Health aggregates the district's schools (`districtHealthOf`); cadence pools the touches on
 * its schools and on the district itself. Pure.
 */
export function districtRows(inputs: DistrictInputs, w: CxWindow, wiring: Wiring): CxDistrictRow[] {
  const schoolsOf = new Map<string, string[]>();
  for (const c of inputs.companies) {
    if (c.parentId === null) continue;
    const list = schoolsOf.get(c.parentId);
    if (list) list.push(c.id);
    else schoolsOf.set(c.parentId, [c.id]);
  }
  const districts = inputs.companies
    .filter((c) => c.parentId === null)
    .sort((a, b) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return districts.map((d) => {
    const schools = schoolsOf.get(d.id) ?? [];
    return {
      name: d.name,
      health: wiring.health ? districtHealthOf(schools.map((id) => inputs.health.get(id) ?? []), w) : null,
      cadence: wiring.engagements ? cadenceOf([d.id, ...schools].flatMap((id) => inputs.touches.get(id) ?? []), w) : null,
    };
  });
}
