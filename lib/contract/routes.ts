// The API's addresses, apart from their schemas: each endpoint's id, path template, tag, summary,
// the permission it needs and, for a paged one, its list key. The registry (endpoints.ts) takes each entry from here by
// id and adds the query, answer and errors; what runs in the browser (the frame's broker, the
// consent gate, the static check) reads this alone and never loads a schema library for it.

export type Tag = "me" | "connections" | "crm" | "vendors" | "cx";

interface RouteDef {
  id: string;
  path: string;
  tag: Tag;
  summary: string;
  /** A permission the caller needs; `{param}` is replaced by that path parameter. */
  permission?: string;
  /** Paged endpoints: the list key, for clients that follow `nextCursor`. */
  pagedList?: string;
}

export const routes = [
  { id: "me", path: "/me", tag: "me", summary: "The signed-in user's profile" },
  { id: "me.favourites", path: "/me/favourites", tag: "me", summary: "The signed-in user's favourites, in render order" },
  { id: "me.home", path: "/me/home", tag: "me", summary: "The signed-in user's home path; null means the built-in landing page" },
  { id: "connections.check", path: "/connections/:slug/check", tag: "connections", summary: "Runs one connector's read-only probe as the calling user" },
  { id: "crm.companies", path: "/crm/:instance/companies", tag: "crm", permission: "crm.{instance}.read", summary: "Normalised CRM companies, with ARR and hierarchy, keyset-paged", pagedList: "companies" },
  { id: "crm.contacts", path: "/crm/:instance/contacts", tag: "crm", permission: "crm.{instance}.read", summary: "Normalised CRM contacts, keyset-paged", pagedList: "contacts" },
  { id: "crm.deals", path: "/crm/:instance/deals", tag: "crm", permission: "crm.{instance}.read", summary: "Normalised CRM deals, keyset-paged; empty for a non-monetary instance", pagedList: "deals" },
  { id: "crm.summary", path: "/crm/:instance/summary", tag: "crm", permission: "crm.{instance}.read", summary: "Totals, contacts by lifecycle stage, and (monetary instances) the pipeline by stage" },
  { id: "crm.sources", path: "/crm/:instance/sources", tag: "crm", permission: "crm.{instance}.read", summary: "Sync state of each connector feeding the instance: how fresh the numbers are" },
  { id: "vendors.tracker.issues", path: "/vendors/tracker/issues", tag: "vendors", summary: "The signed-in user's assigned issues; with `project`, every issue in that project" },
  { id: "vendors.tracker.projects", path: "/vendors/tracker/projects", tag: "vendors", summary: "The tracker's projects, by name: what `project` on /vendors/tracker/issues takes" },
  { id: "vendors.coderepo.repos", path: "/vendors/coderepo/repos", tag: "vendors", summary: "Repositories the user can see, most recently pushed first" },
  { id: "vendors.calls.calls", path: "/vendors/calls/calls", tag: "vendors", summary: "Recorded calls from the trailing 30 days" },
  { id: "vendors.calls.detailed", path: "/vendors/calls/calls/detailed", tag: "vendors", summary: "Recorded calls from the trailing 30 days, with participants" },
  { id: "vendors.calls.transcript", path: "/vendors/calls/calls/:id/transcript", tag: "vendors", summary: "One call's transcript, as speaker turns" },
  { id: "vendors.support.conversations", path: "/vendors/support/conversations", tag: "vendors", summary: "Support conversations, cursor-paged", pagedList: "conversations" },
  { id: "vendors.support.conversation", path: "/vendors/support/conversations/:id", tag: "vendors", summary: "One support conversation with what was said: the opening message, replies, notes and the close" },
  { id: "vendors.crmportal.companies", path: "/vendors/crmportal/companies", tag: "vendors", summary: "CRM portal companies, read directly; the whole list in one response" },
  { id: "vendors.crmportal.contacts", path: "/vendors/crmportal/contacts", tag: "vendors", summary: "CRM portal contacts, read directly; the whole list in one response" },
  { id: "vendors.crmportal.deals", path: "/vendors/crmportal/deals", tag: "vendors", summary: "CRM portal deals, read directly; the whole list in one response" },
  { id: "cx.owners", path: "/cx/owners", tag: "cx", permission: "cx.read", summary: "The CSM roster" },
  { id: "cx.book", path: "/cx/book", tag: "cx", permission: "cx.read", summary: "One CSM's book of business: a row per company, with health, cadence, reach and priority" },
  { id: "cx.districts", path: "/cx/districts", tag: "cx", permission: "cx.read", summary: "One row per district, across every district, for the window" },
] as const satisfies readonly RouteDef[];

type Route = (typeof routes)[number];
type RouteId = Route["id"];

/** The route `id`, with its literal types, for the registry's entry of that id. */
export function route<Id extends RouteId>(id: Id): Extract<Route, { id: Id }> {
  const found = routes.find((r) => r.id === id);
  if (!found) throw new Error(`no route ${id}`);
  return found as Extract<Route, { id: Id }>;
}

interface Compiled {
  route: Route;
  regex: RegExp;
  names: string[];
  literalSegments: number;
}

const compiled: Compiled[] = routes
  .map((r) => {
    const names: string[] = [];
    const segs = r.path.split("/").slice(1);
    const pattern = segs
      .map((s) => {
        if (s.startsWith(":")) {
          names.push(s.slice(1));
          return "([^/]+)";
        }
        return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/");
    return { route: r, regex: new RegExp(`^/${pattern}$`), names, literalSegments: segs.filter((s) => !s.startsWith(":")).length };
  })
  // Literal paths win over parameterised ones (`/calls/detailed` before `/calls/:id/...`).
  .sort((a, b) => b.literalSegments - a.literalSegments);

/** Matches a path relative to the API base (leading slash, no query) to its route and path values. */
export function matchRoute(path: string): { route: Route; params: Record<string, string> } | null {
  for (const c of compiled) {
    const m = c.regex.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    let ok = true;
    c.names.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(m[i + 1] ?? "");
      } catch {
        ok = false;
      }
    });
    if (ok) return { route: c.route, params };
  }
  return null;
}
