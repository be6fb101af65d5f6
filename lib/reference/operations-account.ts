import { z } from "zod";
import {
  dashSlug,
} from "@/lib/contract/playground";
import {
  authorizationServerMetadata,
  authorizeQuery,
  clientRegistration,
  oauthErrorAnswer,
  protectedResourceMetadata,
  registeredClient,
  revocationRequest,
  tokenAnswer,
  tokenRequest,
} from "@/lib/contract/oauth";
import { favourite, home } from "@/lib/contract/resources";
import { SNAPSHOT_DAYS_DEFAULT, SNAPSHOT_DAYS_MAX, SNAPSHOT_VISIBILITIES } from "@/lib/contract/snapshots";
import { favouriteAction, homeAction, snapshotAction, trustAction } from "@/lib/saved/actions";
import { savedDashboard } from "./bodies";
import { SchemaSet, fieldRows, queryParams } from "./json-schema";
import type { BodyDoc, JsonSchema, OperationDoc, ResponseDoc } from "./types";
import { jsonBody, p, pathParam, siteOperation } from "./operation-docs";

// The signed-in person's operations (saving, favourites, home, trust, snapshots), the MCP
// authorization server's, and the operators' (health, readiness, metrics).

const favouritesAnswer = z.object({ favourites: z.array(favourite) });
const trustedAnswer = z.object({
  authors: z.array(
    z.object({
      handle: z.string().meta({ description: "The author's space is /~/<handle>" }),
      name: z.string(),
      since: z.string().meta({ description: "ISO 8601: when the trust was given" }),
    }),
  ),
});

const snapshotSummary = z
  .object({
    id: z.string().meta({ description: "The snapshot's token: 32 characters nobody can guess" }),
    path: z.string().meta({ description: "Its address, /snapshots/<token>" }),
    dashboard: z.string().meta({ description: "The saved dashboard it was drawn from, /~/<handle>/<slug>" }),
    title: z.string(),
    revision: z.number().int(),
    viewport: z.enum(["desktop", "phone"]),
    visibility: z.enum(SNAPSHOT_VISIBILITIES),
    drawnAt: z.string().meta({ description: "ISO 8601: when the service drew it" }),
    createdAt: z.string().meta({ description: "ISO 8601: when it was frozen" }),
    expiresAt: z.string().meta({ description: "ISO 8601: when it ends; its address answers 410 after" }),
    picture: z.boolean().meta({ description: "Whether its picture is kept, at <path>/picture.png" }),
  })
  .meta({ id: "Snapshot" });
const snapshotAnswer = z.union([
  z.object({ snapshot: snapshotSummary }).meta({ description: "`create` (201) and `share`: the snapshot" }),
  z.object({ snapshots: z.array(snapshotSummary) }).meta({ description: "`revoke`: your open snapshots after it" }),
]);
const snapshotOpened = z.object({
  snapshot: snapshotSummary.extend({
    owner: z.object({ handle: z.string(), name: z.string() }),
    html: z.string().meta({ description: "The inert document as it was drawn: no script, no URL but data: images" }),
    height: z.number().int().meta({ description: "The height it was drawn at, in CSS pixels" }),
  }),
});

export function savingOperations(set: SchemaSet): OperationDoc[] {
  const handle = pathParam("handle", "The signed-in person's handle: the local part of their email, lowercased.", { type: "string" }, set);
  const slugSchema = set.add(dashSlug);
  const slug = pathParam("slug", "The dashboard's name in the space.", { type: "string", pattern: slugSchema.pattern }, set);
  const saved = set.add(savedDashboard);
  const favouriteBody = set.add(favouriteAction);
  const homeBody = set.add(homeAction);
  const trustBody = set.add(trustAction);
  return [
    siteOperation({
      op: "saving.save",
      section: "saving",
      description: [p("The body is the dashboard: one HTML document, `Content-Type: text/html`.")],
      security: "session-same-origin",
      params: [handle, slug],
      requestBodies: [{ contentType: "text/html", description: "The dashboard's HTML.", schema: { type: "string" }, fields: [] }],
      responses: [jsonBody(201, "The first save of this dashboard", saved, set), jsonBody(200, "A later save: a new revision", saved, set)],
      errors: ["unauthorized", "forbidden", "invalid_slug", "empty_dashboard", "invalid_dashboard", "dashboard_uses_webrtc", "payload_too_large", "unsupported_media_type", "method_not_allowed"],
      curl: false,
    }),
    siteOperation({
      op: "saving.show",
      section: "saving",
      description: [
        p(
          "Any signed-in person may open it; it runs in the sandboxed frame with `DASHBOARD_API_BASE = '/api'`, so each viewer sees their own data. Signed-out visitors are sent to sign in and back. `?revision=N` shows an earlier revision; `/~/<handle>/<slug>/source[?revision=N]` answers the HTML as plain text.",
        ),
      ],
      security: "session",
      params: [handle, slug],
      responses: [{ status: 200, contentType: "text/html", description: "The page showing the dashboard", schema: { type: "string" }, fields: [] }],
      errors: [],
      curl: false,
    }),
    siteOperation({
      op: "saving.list",
      section: "saving",
      description: [p("Newest first. Any signed-in person may open it; signed-out visitors are sent to sign in.")],
      security: "session",
      params: [handle],
      responses: [{ status: 200, contentType: "text/html", description: "The page listing the space", schema: { type: "string" }, fields: [] }],
      errors: [],
      curl: false,
    }),
    siteOperation({
      op: "saving.favourites",
      section: "saving",
      description: [p("What `/me/favourites` answers, in render order. Sent by the saved dashboard's star button and the start page's list.")],
      security: "session-same-origin",
      requestBodies: [{ contentType: "application/json", description: "One action.", schema: favouriteBody, fields: fieldRows(favouriteBody, set.components) }],
      responses: [jsonBody(200, "The favourites after the change, in render order", set.add(favouritesAnswer), set)],
      errors: ["unauthorized", "forbidden", "invalid_request", "payload_too_large", "unsupported_media_type", "method_not_allowed"],
      curl: false,
    }),
    siteOperation({
      op: "saving.home",
      section: "saving",
      description: [p("What `/me/home` answers; `/` opens it (`/?start` still shows the start page).")],
      security: "session-same-origin",
      requestBodies: [{ contentType: "application/json", description: "The new home.", schema: homeBody, fields: fieldRows(homeBody, set.components) }],
      responses: [jsonBody(200, "The home path now set", set.add(home), set)],
      errors: ["unauthorized", "forbidden", "invalid_request", "payload_too_large", "unsupported_media_type", "method_not_allowed"],
      curl: false,
    }),
    siteOperation({
      op: "saving.trust",
      section: "saving",
      description: [
        p(
          "A dashboard someone else wrote opens drawn by this site on your data (its code never runs in your browser); made interactive, it runs on your live data only after you agree, on a screen that names its author and the API paths it reads, and then reads only those paths. `add` runs every dashboard in the author's space interactively with no step; `remove` brings back the drawn view and the question. Sent by the saved dashboard's \"Always trust\" button and the lists on `/connections` and your space.",
        ),
      ],
      security: "session-same-origin",
      requestBodies: [{ contentType: "application/json", description: "One action.", schema: trustBody, fields: fieldRows(trustBody, set.components) }],
      responses: [jsonBody(200, "The authors you trust after the change", set.add(trustedAnswer), set)],
      errors: ["unauthorized", "forbidden", "invalid_request", "payload_too_large", "unsupported_media_type", "method_not_allowed"],
      curl: false,
    }),
    ...snapshotOperations(set),
  ];
}

/** Freezing, sharing and opening snapshots. */
function snapshotOperations(set: SchemaSet): OperationDoc[] {
  return [
    siteOperation({
      op: "saving.snapshot",
      section: "saving",
      description: [
        p(
          `\`create\` draws one of your own saved dashboards on your data, as the safe view draws someone else's (in the service's browser, reading only the paths its code names), and keeps that drawing at an address nobody can guess. It is private to you until you \`share\` it with anyone signed in (\`signed_in\`) or anyone holding the address (\`link\`); it expires after \`expiresInDays\` (${SNAPSHOT_DAYS_DEFAULT} unless you say, ${SNAPSHOT_DAYS_MAX} at most), and \`revoke\` ends it sooner. An ended snapshot's drawing is deleted and its address answers 410 \`snapshot_gone\`.`,
        ),
        p(
          "A human action, like saving: only your browser at this site's own pages can make, share or revoke one. A bearer token, an MCP call or another site's form is refused. Sent by \"Freeze a snapshot\" on your saved dashboard and the Share and Revoke buttons on the snapshot and on `/account`; a form post is answered with a redirect (to the new snapshot, or to `next`).",
        ),
      ],
      security: "session-same-origin",
      requestBodies: [{ contentType: "application/json", description: "One action.", schema: set.add(snapshotAction), fields: fieldRows(set.add(snapshotAction), set.components) }],
      responses: [jsonBody(200, "The snapshot after `share`, or your open snapshots after `revoke`; `create` answers 201 with the snapshot", set.add(snapshotAnswer), set)],
      errors: ["unauthorized", "forbidden", "not_found", "snapshot_gone", "invalid_request", "renderer_busy", "render_timed_out", "drawing_failed", "renderer_not_configured", "payload_too_large", "unsupported_media_type", "method_not_allowed"],
      curl: false,
    }),
    siteOperation({
      op: "saving.snapshotShow",
      section: "saving",
      description: [
        p(
          "A browser (`Accept: text/html`) gets a page showing the drawing in a frame that may run no script, under a policy that allows nothing but inline styles and `data:` images; the page itself has no script. It says whose data it was drawn on, when, and when it expires, and runs no code and reads nobody's data when opened. Anything else gets JSON. Whoever may not open it (signed out for a `signed_in` snapshot, anyone but its owner for a `private` one) gets 404, as for an address that never was.",
        ),
      ],
      security: "none",
      params: [pathParam("token", "The snapshot's token.", { type: "string", pattern: "^[A-Za-z0-9_-]{32,128}$" }, set)],
      responses: [jsonBody(200, "The snapshot and its drawing", set.add(snapshotOpened), set), { status: 200, contentType: "text/html", description: "The snapshot's page, for a browser", schema: { type: "string" }, fields: [] }],
      errors: ["not_found", "snapshot_gone"],
      curl: false,
    }),
    siteOperation({
      op: "saving.snapshotPicture",
      section: "saving",
      description: [
        p(
          "The snapshot's drawing as a PNG at the width it was drawn at, made when it was frozen from the stored document itself (no script ran), as an attachment: the snapshot page's \"Download picture\". The same people may fetch it as may open the snapshot, on the same terms (404, 410); only this site's pages may show it (`Cross-Origin-Resource-Policy: same-origin`). A snapshot frozen while no picture could be made (`picture: false`) answers 404.",
        ),
      ],
      security: "none",
      params: [pathParam("token", "The snapshot's token.", { type: "string", pattern: "^[A-Za-z0-9_-]{32,128}$" }, set)],
      responses: [{ status: 200, contentType: "image/png", description: "The snapshot, as drawn", schema: { type: "string", format: "binary" }, fields: [] }],
      errors: ["not_found", "snapshot_gone"],
      curl: false,
    }),
  ];
}

/** Metrics /metrics exposes beside the process's defaults (lib/ops/metrics.ts; a test keeps the two lists one). */
export const documentedMetrics = [
  ["http_requests_total", "requests answered, by method, route template and status"],
  ["http_request_duration_seconds", "request latency histogram, by method and route template"],
  ["http_requests_in_flight", "requests being answered now"],
  ["playground_event_streams_open", "open draft event streams on this instance"],
  ["playground_event_streams_on_socket", "of those, the streams written straight to their sockets; below the open count means the hand-over stopped happening"],
  ["playground_fanout_delay_seconds", "from an update's commit to its frame being handed to this instance's watchers"],
  ["crm_sync_runs_total", "CRM sync runs, by portal instance and outcome: `ok`, `failed`, or `skipped` while another run (on any instance) held the portal's lease"],
  ["crm_sync_errors_total", "CRM sync runs that failed, by portal instance"],
  ["crm_sync_duration_seconds", "CRM sync run duration histogram, by portal instance"],
  ["rate_limit_refusals_total", "requests refused by a rate limit or stream cap, by limit"],
  ["db_statements_total", "statements this instance sent to storage since it opened it (on SQLite, statements run): divided by the requests answered, what a request costs the database"],
] as const;

export function oauthOperations(set: SchemaSet): OperationDoc[] {
  // OAuth clients read OAuth's own error format; the envelope's hint repeats its words.
  const oauthError = (what: string) => jsonBody(400, `${what}: \`{error, error_description, hint}\`, OAuth's format with the envelope's hint in the same words (401 for an unknown client, 429 with \`Retry-After\` past the allowance)`, set.add(oauthErrorAnswer), set);
  const form = (schema: JsonSchema, description: string): BodyDoc => ({ contentType: "application/x-www-form-urlencoded", description, schema, fields: fieldRows(schema, set.components) });
  const tokenBody = set.add(tokenRequest);
  const registration = set.add(clientRegistration);
  const page = (description: string): ResponseDoc => ({ status: 200, contentType: "text/html", description, schema: { type: "string" }, fields: [] });
  return [
    siteOperation({
      op: "oauth.protectedResource",
      section: "oauth",
      description: [
        p("The MCP endpoint answers a person's tool without a valid token with `401` and `WWW-Authenticate: Bearer resource_metadata=\"…\"` naming this document; a host reads it to find the authorization server. The root form, `/.well-known/oauth-protected-resource`, answers the same. Any origin may read it (CORS)."),
      ],
      security: "none",
      responses: [jsonBody(200, "The resource's metadata", set.add(protectedResourceMetadata), set)],
      errors: [],
    }),
    siteOperation({
      op: "oauth.authorizationServer",
      section: "oauth",
      description: [p("The service's own sign-in is the authorization server. Any origin may read it (CORS).")],
      security: "none",
      responses: [jsonBody(200, "The server's metadata", set.add(authorizationServerMetadata), set)],
      errors: [],
    }),
    siteOperation({
      op: "oauth.register",
      section: "oauth",
      description: [
        p("Deprecated for hosts that can identify themselves by a Client ID Metadata Document (an https `client_id`, below): they need not register. Open to any host, ten registrations a minute per address. Clients are public and prove themselves with PKCE: no secret is issued. A client nobody approves within a day is forgotten."),
        p(
          "No one address can use up registration for everyone. An address (an IPv6 /64) may hold 100 registered clients that nobody has approved yet (`OAUTH_UNAPPROVED_PER_ADDRESS`); past that it is answered `429` `temporarily_unavailable` with `Retry-After`, the seconds until its oldest is forgotten, and a client approved (or with a code waiting) stops counting. The server keeps 10,000 clients (`OAUTH_CLIENTS_MAX`); when full, the oldest unapproved client of the address holding the most is forgotten to make room, so a flood from many addresses pushes out its own registrations first. An approved client is never forgotten: only when every client kept is approved or being approved is the answer `503` `temporarily_unavailable`.",
        ),
        p("`client_name` is shown to people as written, so control, bidirectional and zero-width characters in it (or in a redirect URI) are refused: `400` `invalid_client_metadata` naming the field and the character."),
      ],
      security: "none",
      requestBodies: [{ contentType: "application/json", description: "The client's metadata (RFC 7591); only `redirect_uris` is required.", schema: registration, fields: fieldRows(registration, set.components) }],
      responses: [jsonBody(201, "The registered client", set.add(registeredClient), set), oauthError("Metadata that cannot be registered (429 past an address's bounds, 503 when every client kept is approved)")],
      errors: [],
      curl: false,
    }),
    siteOperation({
      op: "oauth.authorize",
      section: "oauth",
      description: [
        p("The host opens it in the person's browser. Signed out, the person signs in first and comes back. The page names the app, what it may do and where it sends the person back; nothing is granted until they choose Approve. A request that cannot be trusted to go back (an unknown client, a redirect URI it did not register) is shown as an error on the page and never redirected; other refusals go back to the redirect URI as `error`, with `state` and `iss`."),
        p("`client_id` is either a registered client's id or, for a host identified by a Client ID Metadata Document, the https URL of that document: JSON with `client_id` equal to its own URL, `client_name` and `redirect_uris` (the registration's fields). The server fetches it from public addresses only (`OAUTH_CLIENT_METADATA_PRIVATE` allows loopback and private ones for closed networks), with no redirects, at most 5 KB within 5 s, keeps it as its `Cache-Control` says (a minute to a day, 5 minutes when it says nothing), shows the document's host on the consent page and accepts only the redirect URIs it lists. A document that cannot be used is shown as an error page saying why."),
      ],
      security: "session",
      params: queryParams(authorizeQuery, set),
      responses: [
        page("The consent page"),
        { status: 303, contentType: "text/plain", description: "Signed out: to the sign-in page, which comes back here. A refusal that can go back: to the redirect URI with `error`, `error_description`, `state` and `iss`", schema: { type: "string" }, fields: [] },
        { status: 400, contentType: "text/html", description: "A request that cannot be trusted to go back, shown as a page saying why: no or an unknown `client_id`, a parameter sent twice or too long, a redirect URI the client did not register or its metadata document does not list, a metadata document that cannot be used", schema: { type: "string" }, fields: [] },
      ],
      errors: [],
      curl: false,
    }),
    siteOperation({
      op: "oauth.answer",
      section: "oauth",
      description: [
        p("Sent by the consent page's form, from this origin only. Approve sends the person to the redirect URI with `code` (used once, within a minute), `state` and `iss`; Deny sends `error=access_denied`."),
      ],
      security: "session-same-origin",
      responses: [{ status: 303, contentType: "text/plain", description: "Back to the host's redirect URI", schema: { type: "string" }, fields: [] }],
      errors: [],
      curl: false,
    }),
    siteOperation({
      op: "oauth.token",
      section: "oauth",
      description: [
        p("`authorization_code` redeems the consent page's code with its PKCE verifier; `refresh_token` turns the last refresh token into a new pair. Access tokens live 15 minutes and are bound to the MCP endpoint. A refresh token is used once: presenting a spent one ends the grant, as a stolen token's would. Sixty requests a minute per address."),
      ],
      security: "none",
      requestBodies: [form(tokenBody, "The grant, as a form.")],
      responses: [jsonBody(200, "The tokens (`Cache-Control: no-store`)", set.add(tokenAnswer), set), oauthError("A grant that cannot be honoured")],
      errors: [],
      curl: false,
    }),
    siteOperation({
      op: "oauth.revoke",
      section: "oauth",
      description: [p("Either of the client's tokens ends its grant. The answer is the same `200` whether or not the token existed or was another client's, so it tells a guesser nothing.")],
      security: "none",
      requestBodies: [form(set.add(revocationRequest), "The token to give up, as a form.")],
      responses: [{ status: 200, contentType: "text/plain", description: "Done (an empty body)", schema: { type: "string" }, fields: [] }, oauthError("A request missing its token or client")],
      errors: [],
      curl: false,
    }),
    siteOperation({
      op: "oauth.disconnect",
      section: "oauth",
      description: [p("Sent by the Connected apps list on `/account`, from this origin only, with the form field `grant`: the app's tokens stop working at once. The person's other apps are untouched.")],
      security: "session-same-origin",
      responses: [{ status: 303, contentType: "text/plain", description: "Back to /account#connected-apps", schema: { type: "string" }, fields: [] }],
      errors: [],
      curl: false,
    }),
  ];
}

export function operationsOperations(set: SchemaSet): OperationDoc[] {
  const ok = set.add(z.object({ ok: z.literal(true) }));
  return [
    siteOperation({
      op: "operations.healthz",
      section: "operations",
      description: [p("Checks nothing else, so a proxy or orchestrator restarts an instance only when it has stopped answering, not when storage is briefly away (that is `/readyz`).")],
      security: "none",
      responses: [jsonBody(200, "The process answers", ok, set)],
      errors: ["method_not_allowed"],
    }),
    siteOperation({
      op: "operations.readyz",
      section: "operations",
      description: [
        p(
          "200 once storage answers, every migration this build knows is applied, and, on PostgreSQL, the listener that carries other instances' draft updates is connected. Otherwise 503 `not_ready` with `Retry-After: 5` and a hint naming which of the three is missing. During a graceful shutdown (SIGTERM) the instance stops accepting connections, so a proxy moves on.",
        ),
      ],
      security: "none",
      responses: [jsonBody(200, "Ready for traffic", ok, set)],
      errors: ["not_ready", "method_not_allowed"],
    }),
    siteOperation({
      op: "operations.metrics",
      section: "operations",
      description: [
        p("The Prometheus text format, one instance's figures: scrape every instance, not the proxy. Beside Node's process metrics (CPU, memory, event-loop lag, garbage collection):"),
        { kind: "list", items: documentedMetrics.map(([name, help]) => `\`${name}\`: ${help}`) },
        p("Route labels are templates (`/api/crm/:instance/companies`), never a path value, a draft id or a token."),
      ],
      security: "operator",
      responses: [{ status: 200, contentType: "text/plain; version=0.0.4", description: "The metrics", schema: { type: "string" }, fields: [] }],
      errors: ["unauthorized", "not_found", "method_not_allowed"],
      curl: false,
    }),
  ];
}
