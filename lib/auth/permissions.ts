// Groups grant permissions; handlers and the endpoint registry speak only of permissions.

const byGroup: Record<string, readonly string[]> = {
  admin: ["crm.users.read", "calls.donor.manage"],
  cx: ["cx.read"],
};

/** Every signed-in person may read the customers CRM instance. */
const everyone = ["crm.customers.read"] as const;

export function permissionsFor(groups: readonly string[]): string[] {
  const set = new Set<string>(everyone);
  for (const g of groups) for (const p of byGroup[g] ?? []) set.add(p);
  return [...set].sort();
}

export function handleFromEmail(email: string): string {
  return (email.split("@")[0] ?? email).toLowerCase();
}
