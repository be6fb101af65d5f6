import "server-only";
import type { Repository } from "@/lib/contract/resources";
import type { ProbeResult } from "@/lib/connectors/types";
import type { GhRepo, GhUser } from "./client";

// GitHub's shapes in the API's words.

export function toRepository(r: GhRepo): Repository {
  return { nameWithOwner: r.full_name, url: r.html_url, isPrivate: r.private };
}

function pushedMs(r: GhRepo): number {
  const t = r.pushed_at === null ? Number.NaN : Date.parse(r.pushed_at);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/**
 * Most recently pushed first, never-pushed last, ties by name so the order is stable. A
 * repository can show up on two pages when a push reorders the list mid-paging; it is kept once.
 */
export function byPushedDesc(repos: readonly GhRepo[]): GhRepo[] {
  const seen = new Set<number>();
  const unique = repos.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
  return unique.sort((a, b) => pushedMs(b) - pushedMs(a) || (a.full_name < b.full_name ? -1 : a.full_name > b.full_name ? 1 : 0));
}

export function toRepositories(repos: readonly GhRepo[]): Repository[] {
  return byPushedDesc(repos).map(toRepository);
}

export function probeResultOf(user: GhUser, scopes: string[] | null): ProbeResult {
  const details: ProbeResult["details"] = [{ label: "Login", value: user.login }];
  if (user.name) details.push({ label: "Name", value: user.name });
  if (scopes !== null) details.push({ label: "Scopes", value: scopes.length ? scopes.join(", ") : "(none)" });
  return { summary: `Connected to GitHub as ${user.login}`, details };
}
