import { z } from "zod";
import {
  dashSlug,
} from "@/lib/contract/playground";
import { oauthErrorAnswer } from "@/lib/contract/oauth";
import { siteOperationById as declared } from "@/lib/contract/operations";
import { favourite } from "@/lib/contract/resources";
import { SNAPSHOT_VISIBILITIES } from "@/lib/contract/snapshots";
import { favouriteAction, homeAction, snapshotAction, trustAction } from "@/lib/saved/actions";
import { savedDashboard } from "./bodies";
import { SchemaSet, fieldRows, queryParams } from "./json-schema";
import type { BodyDoc, JsonSchema, ResponseDoc } from "./types";
import { jsonBody, pathParam, type SiteSpecs } from "./operation-docs";

// What the reference adds to the declarations (lib/contract/operations/) of the signed-in
// person's operations (saving, favourites, home, trust, snapshots), the MCP authorization
// server's, and the operators' (health, readiness, metrics). Their words and errors are the
// declarations'; the domain's bodies and the answers the contract does not hold are stated here.

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

export function savingOperations(set: SchemaSet) {
  const handle = pathParam("handle", "The signed-in person's handle: the local part of their email, lowercased.", { type: "string" }, set);
  const slugSchema = set.add(dashSlug);
  const slug = pathParam("slug", "The dashboard's name in the space.", { type: "string", pattern: slugSchema.pattern }, set);
  const saved = set.add(savedDashboard);
  const favouriteBody = set.add(favouriteAction);
  const homeBody = set.add(homeAction);
  const trustBody = set.add(trustAction);
  return {
    "saving.save": {
      security: "session-same-origin",
      params: [handle, slug],
      requestBodies: [{ contentType: "text/html", description: "The dashboard's HTML.", schema: { type: "string" }, fields: [] }],
      responses: [jsonBody(201, "The first save of this dashboard", saved, set), jsonBody(200, "A later save: a new revision", saved, set)],
      curl: false,
    },
    "saving.show": {
      security: "session",
      params: [handle, slug],
      responses: [{ status: 200, contentType: "text/html", description: "The page showing the dashboard", schema: { type: "string" }, fields: [] }],
      curl: false,
    },
    "saving.list": {
      security: "session",
      params: [handle],
      responses: [{ status: 200, contentType: "text/html", description: "The page listing the space", schema: { type: "string" }, fields: [] }],
      curl: false,
    },
    "saving.favourites": {
      security: "session-same-origin",
      requestBodies: [{ contentType: "application/json", description: "One action.", schema: favouriteBody, fields: fieldRows(favouriteBody, set.components) }],
      responses: [jsonBody(200, "The favourites after the change, in render order", set.add(favouritesAnswer), set)],
      curl: false,
    },
    "saving.home": {
      security: "session-same-origin",
      requestBodies: [{ contentType: "application/json", description: "The new home.", schema: homeBody, fields: fieldRows(homeBody, set.components) }],
      responses: [jsonBody(200, "The home path now set", set.add(declared("saving.home").answer), set)],
      curl: false,
    },
    "saving.trust": {
      security: "session-same-origin",
      requestBodies: [{ contentType: "application/json", description: "One action.", schema: trustBody, fields: fieldRows(trustBody, set.components) }],
      responses: [jsonBody(200, "The authors you trust after the change", set.add(trustedAnswer), set)],
      curl: false,
    },
    ...snapshotOperations(set),
  } satisfies SiteSpecs;
}

/** Freezing, sharing and opening snapshots. */
function snapshotOperations(set: SchemaSet) {
  return {
    "saving.snapshot": {
      security: "session-same-origin",
      requestBodies: [{ contentType: "application/json", description: "One action.", schema: set.add(snapshotAction), fields: fieldRows(set.add(snapshotAction), set.components) }],
      responses: [jsonBody(200, "The snapshot after `share`, or your open snapshots after `revoke`; `create` answers 201 with the snapshot", set.add(snapshotAnswer), set)],
      curl: false,
    },
    "saving.snapshotShow": {
      security: "none",
      params: [pathParam("token", "The snapshot's token.", { type: "string", pattern: "^[A-Za-z0-9_-]{32,128}$" }, set)],
      responses: [jsonBody(200, "The snapshot and its drawing", set.add(snapshotOpened), set), { status: 200, contentType: "text/html", description: "The snapshot's page, for a browser", schema: { type: "string" }, fields: [] }],
      curl: false,
    },
    "saving.snapshotPicture": {
      security: "none",
      params: [pathParam("token", "The snapshot's token.", { type: "string", pattern: "^[A-Za-z0-9_-]{32,128}$" }, set)],
      responses: [{ status: 200, contentType: "image/png", description: "The snapshot, as drawn", schema: { type: "string", format: "binary" }, fields: [] }],
      curl: false,
    },
  } satisfies SiteSpecs;
}

export function oauthOperations(set: SchemaSet) {
  // OAuth clients read OAuth's own error format; the envelope's hint repeats its words.
  const oauthError = (what: string) => jsonBody(400, `${what}: \`{error, error_description, hint}\`, OAuth's format with the envelope's hint in the same words (401 for an unknown client, 429 with \`Retry-After\` past the allowance)`, set.add(oauthErrorAnswer), set);
  const form = (schema: JsonSchema, description: string): BodyDoc => ({ contentType: "application/x-www-form-urlencoded", description, schema, fields: fieldRows(schema, set.components) });
  const tokenBody = set.add(declared("oauth.token").input);
  const registration = set.add(declared("oauth.register").input);
  const page = (description: string): ResponseDoc => ({ status: 200, contentType: "text/html", description, schema: { type: "string" }, fields: [] });
  return {
    "oauth.protectedResource": {
      security: "none",
      responses: [jsonBody(200, "The resource's metadata", set.add(declared("oauth.protectedResource").answer), set)],
    },
    "oauth.authorizationServer": {
      security: "none",
      responses: [jsonBody(200, "The server's metadata", set.add(declared("oauth.authorizationServer").answer), set)],
    },
    "oauth.register": {
      security: "none",
      requestBodies: [{ contentType: "application/json", description: "The client's metadata (RFC 7591); only `redirect_uris` is required.", schema: registration, fields: fieldRows(registration, set.components) }],
      responses: [jsonBody(201, "The registered client", set.add(declared("oauth.register").answer), set), oauthError("Metadata that cannot be registered (429 past an address's bounds, 503 when every client kept is approved)")],
      curl: false,
    },
    "oauth.authorize": {
      security: "session",
      params: queryParams(declared("oauth.authorize").query, set),
      responses: [
        page("The consent page"),
        { status: 303, contentType: "text/plain", description: "Signed out: to the sign-in page, which comes back here. A refusal that can go back: to the redirect URI with `error`, `error_description`, `state` and `iss`", schema: { type: "string" }, fields: [] },
        { status: 400, contentType: "text/html", description: "A request that cannot be trusted to go back, shown as a page saying why: no or an unknown `client_id`, a parameter sent twice or too long, a redirect URI the client did not register or its metadata document does not list, a metadata document that cannot be used", schema: { type: "string" }, fields: [] },
      ],
      curl: false,
    },
    "oauth.answer": {
      security: "session-same-origin",
      responses: [{ status: 303, contentType: "text/plain", description: "Back to the host's redirect URI", schema: { type: "string" }, fields: [] }],
      curl: false,
    },
    "oauth.token": {
      security: "none",
      requestBodies: [form(tokenBody, "The grant, as a form.")],
      responses: [jsonBody(200, "The tokens (`Cache-Control: no-store`)", set.add(declared("oauth.token").answer), set), oauthError("A grant that cannot be honoured")],
      curl: false,
    },
    "oauth.revoke": {
      security: "none",
      requestBodies: [form(set.add(declared("oauth.revoke").input), "The token to give up, as a form.")],
      responses: [{ status: 200, contentType: "text/plain", description: "Done (an empty body)", schema: { type: "string" }, fields: [] }, oauthError("A request missing its token or client")],
      curl: false,
    },
    "oauth.disconnect": {
      security: "session-same-origin",
      responses: [{ status: 303, contentType: "text/plain", description: "Back to /account#connected-apps", schema: { type: "string" }, fields: [] }],
      curl: false,
    },
  } satisfies SiteSpecs;
}

export function operationsOperations(set: SchemaSet) {
  const ok = set.add(z.object({ ok: z.literal(true) }));
  return {
    "operations.healthz": {
      security: "none",
      responses: [jsonBody(200, "The process answers", ok, set)],
    },
    "operations.readyz": {
      security: "none",
      responses: [jsonBody(200, "Ready for traffic", ok, set)],
    },
    "operations.metrics": {
      security: "operator",
      responses: [{ status: 200, contentType: "text/plain; version=0.0.4", description: "The metrics", schema: { type: "string" }, fields: [] }],
      curl: false,
    },
  } satisfies SiteSpecs;
}
