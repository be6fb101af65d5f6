import { z } from "zod";
import type { ErrorCode } from "./errors";
import * as r from "./resources";
import { bookBasis } from "./resources";
import { route, type Tag } from "./routes";
import { booleanParam, noQuery, pageQuery, windowShape, withWindowRules } from "./query";

// The endpoint registry: the one source for validation, /endpoints, OpenAPI, /docs and
// client types. Every API path of the interface specification is here.


export type { Tag } from "./routes";

export interface EndpointDef {
  id: string;
  path: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** Values a path parameter may take; any other value answers the code given. */
  params?: Record<string, { values?: readonly string[]; unknown?: ErrorCode; description: string }>;
  query: z.ZodType<Record<string, unknown>, Record<string, string | undefined>>;
  /** A missing required query parameter answers this code instead of `invalid_query`. */
  missingQuery?: Record<string, ErrorCode>;
  /** What a missing required query parameter takes, in the refusal's words ("an ownerId from /cx/owners, as ?owner=<ownerId>"). */
  missingQueryForm?: Record<string, string>;
  response: z.ZodType;
  /** Endpoint-specific errors; the common ones (401, 500, and 400 where there is a query) are added. */
  errors: readonly ErrorCode[];
  /** A permission the caller needs; `{param}` is replaced by that path parameter. */
  permission?: string;
  /** Paged endpoints: the list key, for clients that follow `nextCursor`. */
  pagedList?: string;
}

const crmInstance = {
  instance: {
    values: ["customers", "users"],
    unknown: "no_such_instance",
    description: "`customers` (external, monetary) or `users` (internal staff, admin-only)",
  },
} as const;
const crmErrors = ["forbidden", "no_such_instance"] as const;

/** The window a CX answer was computed for, as it resolved the query: days since contact count to its end. */
const cxWindowEcho = z
  .object({
    sinceIso: z.string().meta({ description: "The window's start (ISO 8601, UTC)" }),
    untilIso: z.string().meta({ description: "The window's end (ISO 8601, UTC): `daysSinceContact` and the like are counted to it" }),
  })
  .meta({ id: "CxWindow" });
const callsErrors = ["calls_not_opted_in", "calls_donor_not_connected", "calls_not_configured", "calls_upstream_error", "upstream_rate_limited"] as const;

export const endpoints = [
  {
    ...route("me"),
    query: noQuery,
    response: r.me,
    errors: [],
  },
  {
    ...route("me.favourites"),
    query: noQuery,
    response: z.object({ favourites: z.array(r.favourite) }),
    errors: [],
  },
  {
    ...route("me.home"),
    query: noQuery,
    response: r.home,
    errors: [],
  },
  {
    ...route("connections.check"),
    params: {
      slug: {
        values: ["tracker", "coderepo", "calls", "support", "crmportal"],
        unknown: "no_connection_check",
        description: "Connector slug: tracker, coderepo, calls, support or crmportal",
      },
    },
    query: noQuery,
    response: r.connectionCheck,
    errors: ["no_connection_check"],
  },
  {
    ...route("crm.companies"),
    params: crmInstance,
    query: pageQuery,
    response: z.object({ companies: z.array(r.crmCompany), nextCursor: z.string().nullable() }),
    errors: [...crmErrors, "invalid_cursor", "crm_not_synced"],
  },
  {
    ...route("crm.contacts"),
    params: crmInstance,
    query: pageQuery,
    response: z.object({ contacts: z.array(r.crmContact), nextCursor: z.string().nullable() }),
    errors: [...crmErrors, "invalid_cursor", "crm_not_synced"],
  },
  {
    ...route("crm.deals"),
    params: crmInstance,
    query: pageQuery,
    response: z.object({ deals: z.array(r.crmDeal), nextCursor: z.string().nullable() }),
    errors: [...crmErrors, "invalid_cursor", "crm_not_synced"],
  },
  {
    ...route("crm.summary"),
    params: crmInstance,
    query: noQuery,
    response: r.crmSummary,
    errors: [...crmErrors, "crm_not_synced"],
  },
  {
    ...route("crm.sources"),
    params: crmInstance,
    query: noQuery,
    response: z.object({ sources: z.array(r.crmSource) }),
    errors: [...crmErrors],
  },
  {
    ...route("vendors.tracker.issues"),
    query: z.object({
      project: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .meta({ description: "A project's id or name (any case), as /vendors/tracker/projects lists them; one the tracker does not have answers 404 `no_such_project`" }),
    }),
    response: z.object({ issues: z.array(r.trackerIssue) }),
    errors: ["tracker_not_connected", "tracker_not_configured", "tracker_upstream_error", "upstream_rate_limited", "no_such_project"],
  },
  {
    ...route("vendors.tracker.projects"),
    query: noQuery,
    response: z.object({ projects: z.array(r.trackerProject) }),
    errors: ["tracker_not_connected", "tracker_not_configured", "tracker_upstream_error", "upstream_rate_limited"],
  },
  {
    ...route("vendors.coderepo.repos"),
    query: noQuery,
    response: z.object({ repos: z.array(r.repository) }),
    errors: ["coderepo_not_connected", "coderepo_not_configured", "coderepo_upstream_error", "upstream_rate_limited"],
  },
  {
    ...route("vendors.calls.calls"),
    query: noQuery,
    response: z.object({ calls: z.array(r.call) }),
    errors: callsErrors,
  },
  {
    ...route("vendors.calls.detailed"),
    query: noQuery,
    response: z.object({ calls: z.array(r.callDetailed) }),
    errors: callsErrors,
  },
  {
    ...route("vendors.calls.transcript"),
    params: { id: { description: "Call id" } },
    query: noQuery,
    response: r.transcript,
    errors: [...callsErrors, "not_found"],
  },
  {
    ...route("vendors.support.conversations"),
    query: z.object({ cursor: pageQuery.shape.cursor }),
    response: z.object({ conversations: z.array(r.supportConversation), nextCursor: z.string().nullable() }),
    errors: ["support_not_connected", "support_not_configured", "support_upstream_error", "upstream_rate_limited", "invalid_cursor"],
  },
  {
    ...route("vendors.support.conversation"),
    params: { id: { description: "Conversation id, as /vendors/support/conversations lists them" } },
    query: noQuery,
    response: r.supportConversationDetail,
    errors: ["support_not_connected", "support_not_configured", "support_upstream_error", "upstream_rate_limited", "not_found"],
  },
  {
    ...route("vendors.crmportal.companies"),
    query: noQuery,
    response: z.object({ companies: z.array(r.portalCompany) }),
    errors: ["crmportal_not_configured", "crmportal_upstream_error", "upstream_rate_limited"],
  },
  {
    ...route("vendors.crmportal.contacts"),
    query: noQuery,
    response: z.object({ contacts: z.array(r.portalContact) }),
    errors: ["crmportal_not_configured", "crmportal_upstream_error", "upstream_rate_limited"],
  },
  {
    ...route("vendors.crmportal.deals"),
    query: noQuery,
    response: z.object({ deals: z.array(r.portalDeal) }),
    errors: ["crmportal_not_configured", "crmportal_upstream_error", "upstream_rate_limited"],
  },
  {
    ...route("cx.owners"),
    query: z.object({
      activeOnly: booleanParam.meta({ description: "`true` drops departed owners" }),
    }),
    response: r.cxWrapper(z.object({ owners: z.array(r.cxOwner) })),
    errors: ["forbidden"],
  },
  {
    ...route("cx.book"),
    query: withWindowRules(
      z.object({
        owner: z.string().min(1).max(200).meta({ description: "An `ownerId` from /cx/owners (required)" }),
        ...windowShape,
        basis: bookBasis
          .optional()
          .meta({ description: "`real` (default): the CRM portal's assignment; `activity`: derived from who logged touches" }),
      }),
    ),
    missingQuery: { owner: "owner_required" },
    missingQueryForm: { owner: "an ownerId from /cx/owners, as ?owner=<ownerId>" },
    response: r.cxWrapper(
      z.object({
        ownerId: z.string(),
        basis: bookBasis,
        window: cxWindowEcho,
        rows: z.array(r.cxBookRow).meta({ description: "One per company of the book, highest priority first (then by district and school name)" }),
      }),
    ),
    errors: ["owner_required", "forbidden"],
  },
  {
    ...route("cx.districts"),
    query: withWindowRules(z.object({ ...windowShape })),
    response: r.cxWrapper(z.object({ window: cxWindowEcho, rows: z.array(r.cxDistrictRow).meta({ description: "Every district, by name (alphabetical, ignoring case), whether or not it was touched in the window" }) })),
    errors: ["forbidden"],
  },
] as const satisfies readonly EndpointDef[];

export type Endpoint = (typeof endpoints)[number];
export type EndpointId = Endpoint["id"];
export type ResponseOf<Id extends EndpointId> = z.infer<Extract<Endpoint, { id: Id }>["response"]>;
export type QueryOf<Id extends EndpointId> = z.output<Extract<Endpoint, { id: Id }>["query"]>;

export function endpointById<Id extends EndpointId>(id: Id): Extract<Endpoint, { id: Id }> {
  const found = endpoints.find((e) => e.id === id);
  if (!found) throw new Error(`no endpoint ${id}`);
  return found as Extract<Endpoint, { id: Id }>;
}

/** Every error an endpoint may answer, common ones included, in status order. */
export function errorsOf(e: EndpointDef): ErrorCode[] {
  const hasQuery = Object.keys((e.query as unknown as z.ZodObject).shape ?? {}).length > 0;
  const all = new Set<ErrorCode>(["unauthorized", ...(hasQuery ? (["invalid_query"] as const) : []), ...e.errors, "internal_error"]);
  return [...all];
}
