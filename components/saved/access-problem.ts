import { matchRoute } from "@/lib/contract/routes";
import type { RequestLogEntry } from "@/components/dashboard-frame/DashboardFrame";

// Why a saved dashboard shows less than it should, in the viewer's words: read from the answers
// its requests got (the frame's request log), never from what the dashboard itself prints.

export type AccessProblem =
  | { kind: "permission"; reads: string; permission: string }
  | { kind: "connection"; reads: string }
  | { kind: "forbidden" };

/** What a tag's endpoints hold, as the person reading the dashboard would call it. */
const TAG_WORDS: Record<string, (params: Record<string, string>) => string> = {
  cx: () => "customer-success views",
  crm: (p) => (p.instance ? `${p.instance} CRM records` : "CRM records"),
  vendors: () => "data from a connected tool",
  me: () => "your account",
  connections: () => "your connections",
};

/** The problem one answered request shows, or null when it is not about access. */
export function accessProblemOf(entry: Pick<RequestLogEntry, "path" | "status" | "mode" | "refused">): AccessProblem | null {
  // The broker's own refusals (paths the viewer did not agree to, rate limits) and demo data say
  // nothing about the viewer's account.
  if (entry.mode !== "live" || entry.refused || (entry.status !== 401 && entry.status !== 403)) return null;
  const q = entry.path.indexOf("?");
  const match = matchRoute(q < 0 ? entry.path : entry.path.slice(0, q));
  if (!match) return entry.status === 403 ? { kind: "forbidden" } : null;
  const { params } = match;
  const endpoint: { tag: string; summary: string; permission?: string } = match.route;
  const reads = (TAG_WORDS[endpoint.tag] ?? (() => "data"))(params);
  // "Support conversations, cursor-paged": what it reads, without how it pages.
  if (endpoint.tag === "vendors") return { kind: "connection", reads: (endpoint.summary.split(",")[0] ?? endpoint.summary).toLowerCase() };
  if (entry.status === 403 && endpoint.permission) {
    const permission = endpoint.permission.replace(/\{(\w+)\}/g, (whole: string, name: string) => params[name] ?? whole);
    return { kind: "permission", reads, permission };
  }
  return entry.status === 403 ? { kind: "forbidden" } : null;
}

/** The problems of a request log, each told once, in the order they first happened. */
export function accessProblems(entries: readonly Pick<RequestLogEntry, "path" | "status" | "mode" | "refused">[]): AccessProblem[] {
  const seen = new Set<string>();
  const out: AccessProblem[] = [];
  for (const e of entries) {
    const p = accessProblemOf(e);
    if (!p) continue;
    const key = JSON.stringify(p);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}
