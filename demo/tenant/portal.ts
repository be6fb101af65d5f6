import { hashString } from "./prng";
import type { Tenant } from "./types";

// Identifiers the CRM portal gives things the tenant itself has no ids for. The portal's
// stand-in serves them and the playground's canned answers repeat them, so both derive them here.

/** The HubSpot portal id of the customers or the internal users portal. */
export function portalIdOf(tenant: Tenant, portal: "customers" | "users"): number {
  return (portal === "customers" ? 20_000_000 : 30_000_000) + (hashString(`hubspot-portal:${portal}:${tenant.seed}`) % 10_000_000);
}

/** The users portal has one company per staff team: its teams, sorted, each with its company id. */
export function teamCompanies(tenant: Tenant): { teams: string[]; ids: Map<string, string> } {
  const teams = [...new Set(tenant.staff.map((s) => s.team))].sort();
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  for (const team of teams) {
    let n = 8_100_000_000 + (hashString(`hubspot-team:${team}`) % 800_000_000);
    while (taken.has(String(n))) n++;
    taken.add(String(n));
    ids.set(team, String(n));
  }
  return { teams, ids };
}
