import { z } from "zod";
import { endpoints, errorsOf, type Endpoint, type EndpointDef } from "@/lib/contract/endpoints";
import { errorCatalogue, type ErrorCode } from "@/lib/contract/errors";
import {
  PLAYGROUND_BASE,
  REVISIONS_LIMIT_DEFAULT,
  REVISIONS_LIMIT_MAX,
  REVISIONS_PAGE_BYTES,
  dashSlug,
  draftCreated,
  draftCheck,
  draftEvent,
  draftInput,
  draftUpdate,
  draftRevisions,
  draftRevisionsQuery,
  draftUpdated,
  draftView,
} from "@/lib/contract/playground";
import {
  REPORTS_PER_REVISION,
  REPORTS_PER_SOURCE,
  REPORT_REVISIONS,
  REPORT_WAIT_MAX_MS,
  renderReportAccepted,
  renderReportInput,
  renderReports,
  renderReportsQuery,
} from "@/lib/contract/reports";
import { RENDER_VIEWPORTS, drawingAnswer, renderAnswer, renderInput } from "@/lib/contract/renders";
import { siteOperationById, type SiteOperationId } from "@/lib/contract/operations";
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
import { cxWrapper, favourite, home } from "@/lib/contract/resources";
import { SNAPSHOT_DAYS_DEFAULT, SNAPSHOT_DAYS_MAX, SNAPSHOT_VISIBILITIES, favouriteAction, homeAction, snapshotAction, trustAction } from "@/lib/saved/actions";
import { SCENARIO_PARAM, VARIANT_PARAM } from "@/lib/demo-api/answers";
import { endpointsBodySchema, scenariosBodySchema } from "@/lib/contract/playground-bodies";
import { savedDashboard } from "./bodies";
import { endpointExample } from "./examples";
import { COMPONENTS_PREFIX, SchemaSet, fieldRows, limitsOf, queryParams, sentences, typeLabel } from "./json-schema";
import { docsSections, operationAnchor, type SectionSlug } from "./sections";
import type { Block, BodyDoc, ErrorDoc, JsonSchema, OperationDoc, ParamDoc, ResponseDoc, Security } from "./types";

// Every operation the reference documents: the API endpoints from their registry
// (lib/contract/endpoints.ts), and the playground's, saving's, OAuth's and the operators' from theirs
// (lib/contract/operations.ts), with the fields, bodies and prose written here.

export const CX_WAITING = "CxWaiting";

const p = (text: string): Block => ({ kind: "p", text });

function errorDocs(codes: readonly ErrorCode[]): ErrorDoc[] {
  return [...new Set(codes)]
    .map((code) => ({ status: errorCatalogue[code].status, code, description: errorCatalogue[code].description }))
    .sort((a, b) => a.status - b.status);
}

function pathParam(name: string, notes: string, schema: JsonSchema, set: SchemaSet): ParamDoc {
  return { name, in: "path", type: typeLabel(schema, set.components), required: true, limits: limitsOf(schema, set.components), notes, schema };
}

function jsonBody(status: number, description: string, schema: JsonSchema, set: SchemaSet): ResponseDoc {
  return { status, contentType: "application/json", description, schema, fields: fieldRows(schema, set.components) };
}

/** The CX answers' waiting branch becomes one shared component, so the wrapper reads as such. */
function withWaitingRef(schema: JsonSchema, waiting: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.anyOf)) return schema;
  const key = JSON.stringify(waiting);
  return { ...schema, anyOf: schema.anyOf.map((b) => (JSON.stringify(b) === key ? { $ref: `${COMPONENTS_PREFIX}${CX_WAITING}` } : b)) };
}

function sectionOfEndpoint(def: EndpointDef): SectionSlug {
  const found = docsSections.find((s) => "tag" in s && s.tag === def.tag && (!("paths" in s) || s.paths.some((p) => def.path.startsWith(p))));
  if (!found) throw new Error(`No section for ${def.path} (tag ${def.tag}): list its prefix in lib/docs/sections.ts`);
  return found.slug;
}

function apiOperation(e: Endpoint, set: SchemaSet, waiting: JsonSchema): OperationDoc {
  const def: EndpointDef = e;
  const response = withWaitingRef(set.add(def.response, "output"), waiting);
  const params: ParamDoc[] = [];
  for (const [name, rule] of Object.entries(def.params ?? {})) {
    const schema: JsonSchema = rule.values ? { type: "string", enum: [...rule.values] } : { type: "string" };
    const unknown = rule.unknown ? `Any other value answers ${errorCatalogue[rule.unknown].status} \`${rule.unknown}\`.` : "";
    params.push(pathParam(name, sentences(rule.description, unknown), schema, set));
  }
  for (const q of queryParams(def.query, set)) {
    const missing = def.missingQuery?.[q.name];
    params.push(missing ? { ...q, notes: sentences(q.notes, `Missing: ${errorCatalogue[missing].status} \`${missing}\`.`) } : q);
  }
  const description: Block[] = [];
  if (def.description) description.push(p(def.description));
  if (def.permission) description.push(p(`Needs the permission \`${def.permission}\`${def.permission.includes("{") ? " (the path value in braces)" : ""}; without it: 403 \`forbidden\`.`));
  if (def.pagedList) description.push(p(`Paged: the list is \`${def.pagedList}\`; pass \`nextCursor\` back as \`cursor\` until it is \`null\` (see [cursor paging](#cursor-paging)).`));
  const isCx = def.tag === "cx";
  return {
    anchor: operationAnchor("GET", def.path),
    operationId: def.id,
    method: "GET",
    path: def.path,
    base: "api",
    section: sectionOfEndpoint(def),
    registryId: e.id,
    summary: def.summary,
    description,
    ...(def.permission !== undefined ? { permission: def.permission } : {}),
    ...(def.pagedList !== undefined ? { pagedList: def.pagedList } : {}),
    security: "session",
    params,
    requestBodies: [],
    responses: [
      jsonBody(200, isCx ? "`{ok: true, data}`, or `{ok: false, waitingOn}` while the deployment cannot answer yet" : def.summary, response, set),
    ],
    errors: errorDocs(errorsOf(def)),
    example: endpointExample(e),
    curl: true,
  };
}

interface SiteSpec {
  /** The operation's entry in lib/contract/operations.ts: its method, path and summary. */
  op: SiteOperationId;
  section: SectionSlug;
  description?: Block[];
  security: Security;
  params?: ParamDoc[];
  requestBodies?: BodyDoc[];
  responses: ResponseDoc[];
  errors: ErrorCode[];
  curl?: boolean;
}

function siteOperation(s: SiteSpec): OperationDoc {
  const op = siteOperationById(s.op);
  return {
    anchor: operationAnchor(op.method, op.path),
    operationId: op.id,
    method: op.method,
    path: op.path,
    base: "origin",
    section: s.section,
    summary: op.summary,
    description: s.description ?? [],
    security: s.security,
    params: s.params ?? [],
    requestBodies: s.requestBodies ?? [],
    responses: s.responses,
    errors: errorDocs(s.errors),
    curl: s.curl ?? true,
  };
}

function playgroundOperations(set: SchemaSet): OperationDoc[] {
  const writeToken = pathParam("write_token", "The draft's write token: the last segment of `postUrl`. Whoever holds it can update the draft.", { type: "string" }, set);
  const readId = pathParam("read_id", "The draft's read id: `id` of the creation answer, and the last segment of `watchUrl`. It only reads.", { type: "string" }, set);
  const input = set.add(draftInput, "input");
  const htmlQuery = queryParams(
    z.object({ scenario: draftInput.shape.scenario, dash: draftInput.shape.dash, dataMode: draftInput.shape.dataMode, baseRevision: draftInput.shape.baseRevision }),
    set,
  ).map((q) => ({ ...q, notes: sentences(q.notes, "With a `text/html` body only.") }));
  const bodies: BodyDoc[] = [
    { contentType: "application/json", description: "The draft; only `html` is required.", schema: input, fields: fieldRows(input, set.components) },
    { contentType: "text/html", description: "The HTML itself; the other fields go in the query string.", schema: { type: "string" }, fields: [] },
  ];
  const update = set.add(draftUpdate, "input");
  const updateBodies: BodyDoc[] = [
    {
      contentType: "application/json",
      description: "What changes: every field is optional. A field sent replaces its value, `null` clears it (scenario back to `default`, no examples, no dash), a field left out keeps its value.",
      schema: update,
      fields: fieldRows(update, set.components),
    },
    { contentType: "text/html", description: "New HTML alone; scenario, examples and dash keep their values (or set them in the query string).", schema: { type: "string" }, fields: [] },
  ];
  const writeErrors: ErrorCode[] = ["cross_site_write", "untrusted_host", "rate_limited", "unsupported_media_type", "invalid_draft", "unknown_scenario", "unknown_example", "draft_too_large", "internal_error"];
  const base = PLAYGROUND_BASE;
  return [
    siteOperation({
      op: "playground.createDraft",
      section: "playground",
      description: [p("Send the draft as JSON, or the HTML itself as `text/html` with the other fields in the query string.")],
      security: "none",
      params: htmlQuery,
      requestBodies: bodies,
      responses: [jsonBody(201, "The new draft: keep `postUrl`, hand the human `watchUrl`", set.add(draftCreated), set)],
      errors: writeErrors,
    }),
    siteOperation({
      op: "playground.checkDraft",
      section: "playground",
      description: [
        p("Takes the same bodies as creating a draft and answers the static check's findings and the API paths the dashboard reads. Nothing is created, stored or sent to any watcher; a blank document is a finding here rather than a refusal. Rate limited like creations, with an allowance of its own."),
      ],
      security: "none",
      params: htmlQuery,
      requestBodies: bodies,
      responses: [jsonBody(200, "The findings and the reads", set.add(draftCheck), set)],
      errors: ["cross_site_write", "rate_limited", "unsupported_media_type", "invalid_draft", "unknown_scenario", "unknown_example", "draft_too_large", "internal_error"],
    }),
    siteOperation({
      op: "playground.updateDraft",
      section: "playground",
      description: [p("Re-checks the draft and pushes it to every watcher at once. `write_token` is the last segment of `postUrl`; the read id never authorises a write.")],
      security: "none",
      params: [writeToken, ...htmlQuery],
      requestBodies: updateBodies,
      responses: [jsonBody(200, "The accepted revision", set.add(draftUpdated), set)],
      errors: [...writeErrors, "no_such_draft", "data_mode_fixed", "revision_conflict"],
    }),
    siteOperation({
      op: "playground.readDraft",
      section: "playground",
      security: "none",
      params: [readId],
      responses: [jsonBody(200, "The current draft", set.add(draftView), set)],
      errors: ["no_such_draft", "rate_limited", "internal_error"],
    }),
    siteOperation({
      op: "playground.draftRevisions",
      section: "playground",
      description: [
        p(
          `At most \`limit\` revisions (default ${REVISIONS_LIMIT_DEFAULT}, at most ${REVISIONS_LIMIT_MAX}), and a page stops before ${REVISIONS_PAGE_BYTES / 1024 / 1024} MiB of JSON, so it may hold fewer, but never none. Pass \`nextCursor\` back as \`cursor\` until it is null; a cursor works only for the draft it came from.`,
        ),
      ],
      security: "none",
      params: [readId, ...queryParams(draftRevisionsQuery, set)],
      responses: [jsonBody(200, "One page of the kept revisions", set.add(draftRevisions), set)],
      errors: ["no_such_draft", "invalid_query", "invalid_cursor", "rate_limited", "internal_error"],
    }),
    siteOperation({
      op: "playground.drawDraft",
      section: "playground",
      description: [
        p(
          "The watch page's safe view of a live draft, for a signed-in watcher who did not write it: the service draws the revision in its own contained browser, its reads answered by `/api` as the viewer on the paths the code names (GET only), and answers what it drew as an inert document, which the page shows in a frame that runs no script. Nothing the draft's code does reaches anything but those answers, so nothing is asked. A drawing is remembered per viewer, draft, revision and viewport while every read it made answers the same (`remembered: true`); one viewer has one drawing of one draft under way at a time, and another asked for meanwhile is `503` `renderer_busy` with `Retry-After`. Demo drafts are refused (`409` `draw_live_only`): their watchers see demo data.",
        ),
      ],
      security: "session",
      params: [readId, ...queryParams(z.object({ viewport: renderInput.shape.viewport, revision: z.string().optional().meta({ description: "The revision to draw; the current one when left out" }) }), set)],
      responses: [jsonBody(200, "The drawing", set.add(drawingAnswer), set)],
      errors: ["unauthorized", "no_such_draft", "no_such_revision", "draw_live_only", "invalid_request", "renderer_not_configured", "renderer_busy", "render_timed_out", "drawing_failed"],
      curl: false,
    }),
    ...reportOperations(set, readId),
    ...renderOperations(set, readId),
    siteOperation({
      op: "playground.demoApi",
      section: "demo-api",
      description: [
        p(
          `The same paths, path values and query rules as the API, with no sign-in. The answer is the variant chosen by \`?${VARIANT_PARAM}\`, \`?${SCENARIO_PARAM}\`, the draft's choices or the default scenario, and may be any answer the endpoint documents, errors included. A path without an example answers 404 \`no_example\`.`,
        ),
      ],
      security: "none",
      params: [
        pathParam("apiPath", "An API path without the base, e.g. `crm/customers/companies`; it may contain slashes.", { type: "string" }, set),
        ...queryParams(
          z.object({
            [SCENARIO_PARAM]: z.string().optional().meta({ description: "A scenario for this one request; playground only, never in dashboard code" }),
            [VARIANT_PARAM]: z.string().optional().meta({ description: "A variant of this path for this one request" }),
          }),
          set,
        ),
      ],
      responses: [{ status: 200, contentType: "application/json", description: "The endpoint's own answer (see that endpoint)", schema: {}, fields: [] }],
      errors: ["no_example", "unknown_scenario", "unknown_example", "invalid_query", "invalid_cursor", "rate_limited"],
    }),
    siteOperation({
      op: "playground.scenarios",
      section: "demo-api",
      security: "none",
      responses: [jsonBody(200, "Scenarios and variants", set.add(scenariosBodySchema), set)],
      errors: [],
    }),
    siteOperation({
      op: "playground.endpoints",
      section: "demo-api",
      security: "none",
      responses: [jsonBody(200, "The endpoints", set.add(endpointsBodySchema), set)],
      errors: [],
    }),
    siteOperation({
      op: "playground.llms",
      section: "demo-api",
      description: [p("Read in one pass (at most 15 KB). Each line links its reference page as Markdown; llms-full.txt holds the whole protocol.")],
      security: "none",
      responses: [{ status: 200, contentType: "text/plain", description: "The index", schema: { type: "string" }, fields: [] }],
      errors: [],
    }),
    siteOperation({
      op: "playground.llmsFull",
      section: "demo-api",
      security: "none",
      responses: [{ status: 200, contentType: "text/plain", description: "The protocol", schema: { type: "string" }, fields: [] }],
      errors: [],
    }),
    siteOperation({
      op: "playground.mcp",
      section: "demo-api",
      description: [
        p(
          "An MCP server over Streamable HTTP, without sessions: each POST carries JSON-RPC 2.0 messages and is answered with JSON (`202` with no body for notifications alone); `GET` and `DELETE` answer 405, since there is no session stream. It speaks two eras of the protocol: revision 2026-07-28 to a request that names it in `_meta` (`server/discover` answers the revision, capabilities and identity; `Mcp-Method` and `Mcp-Name` must match the body, or `400` with -32020; a revision it does not speak is `400` with -32022 and the list it does), and 2025-11-25 or earlier to a client that opens with `initialize`. Tools: `check_html`, `create_draft`, `update_draft`, `read_draft`, `show_draft`, `list_scenarios`, `describe_endpoint`, `read_render_reports`, `render_draft`, `read_demo_data`, `show_dashboard`, `read_dashboard`, `read_live_data`, `draw_dashboard`; their input schemas are the draft bodies, the reports query and the render body above. `render_draft` answers the picture as image content beside the render's answer. The draft tools name a view as an MCP App (the resource `ui://dashboards-playground/draft.html`): hosts that render MCP Apps draw the dashboard inline on its demo data and follow its revisions, its reads relayed to `read_demo_data`, a tool only the view calls.",
        ),
        p(
          "`show_dashboard` (handle, slug) draws a saved dashboard inline on the signed-in person's live data (the resource `ui://dashboards/saved-dashboard.html`); its view reads the code with `read_dashboard` and each of the dashboard's reads with `read_live_data`, answered by the API as that person. Only the person's own dashboards and those of authors they trust (the list on /account, written only by the person at this site's pages) run there; someone else's is shown drawn by this site on the person's data, with no question: the view gets it from `draw_dashboard`, the service's own drawing as an inert document (no script, no address but `data:` images), and shows it in a frame that runs no script, with a link to its page on this site for it interactive, where the person decides; its reads through `read_live_data` answer `403` `live_not_granted`. Nothing over MCP trusts, agrees or saves. These four act as a person: without a valid access token the HTTP answer is `401` `unauthorized` with `WWW-Authenticate: Bearer resource_metadata=\"…/.well-known/oauth-protected-resource/dashboards/playground/mcp\"` (and `error=\"invalid_token\"` for a bad one), from which an MCP host runs OAuth 2.1 against this service's sign-in: `/.well-known/oauth-authorization-server`, `/oauth/register`, `/oauth/authorize`, `/oauth/token` (PKCE S256, `resource` the MCP endpoint). The draft tools stay public.",
        ),
        p(
          "Each tool goes through the same operation as the route it names, as the same caller (address, Host, browser headers), so validation, rate limits and refusals are those of the routes. A refusal is a tool result with `isError` and the text `<code>: <hint>` (`invalid_draft: html: the document is empty…`), not a protocol error. The envelope below answers only requests that are not MCP.",
        ),
        { kind: "code", lang: "json", label: "An MCP client's configuration", text: `{\n  "mcpServers": {\n    "dashboards-playground": { "type": "http", "url": "{origin}${base}/mcp" }\n  }\n}` },
        {
          kind: "code",
          lang: "sh",
          label: "The tool list with curl",
          text: `curl -sS -X POST '{origin}${base}/mcp' -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\\n  --data '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'`,
        },
      ],
      security: "none",
      requestBodies: [{ contentType: "application/json", description: "A JSON-RPC 2.0 message of MCP, or a batch of them.", schema: { type: "object" }, fields: [] }],
      responses: [{ status: 200, contentType: "application/json", description: "The JSON-RPC answer: a tool's result, the tool list, the server's capabilities", schema: { type: "object" }, fields: [] }],
      errors: ["unauthorized", "unsupported_media_type", "invalid_request", "draft_too_large", "method_not_allowed", "internal_error"],
      curl: false,
    }),
    siteOperation({
      op: "playground.draftEvents",
      section: "events",
      security: "none",
      params: [readId, { name: "Last-Event-ID", in: "header", type: "string", required: false, limits: "", notes: "The last revision received; sent by EventSource when it reconnects.", schema: { type: "string" } }],
      responses: [
        (() => {
          const data = set.add(draftEvent);
          return { status: 200, contentType: "text/event-stream", description: "`draft` events; the fields below are each event's `data`", schema: data, fields: fieldRows(data, set.components) };
        })(),
      ],
      errors: ["no_such_draft", "rate_limited", "shutting_down", "internal_error"],
    }),
  ];
}

/** The service's own renders of demo drafts (lib/drafts/renders.ts). */
function renderOperations(set: SchemaSet, readId: ParamDoc): OperationDoc[] {
  const input = set.add(renderInput, "input");
  const sizes = Object.entries(RENDER_VIEWPORTS)
    .map(([name, v]) => `\`${name}\` (${v.width}×${v.height})`)
    .join(" and ");
  return [
    siteOperation({
      op: "playground.render",
      section: "renders",
      description: [
        p(
          `The service opens the revision in its own headless Chromium, through the same frame and broker a watcher gets, on the demo API with the scenario and variants you name (the revision's own by default), at ${sizes}, waits until the dashboard settles, and answers the render report with a PNG of the whole dashboard (the frame sized to its content, so the picture is as tall as the dashboard). Each revision, viewport and state is drawn once and kept: asked again, the stored render is answered (\`cached: true\`) and costs nothing.`,
        ),
        p(
          "`params` draws it with page parameters: `{\"district\": \"Northwind\"}` reaches the dashboard as `window.DASHBOARD_PARAMS`, as `?p.district=Northwind` on the watch page would. They are checked by the page's own rules, but a parameter the page would drop is refused here (`400` `invalid_render`, naming it and why) rather than drawn without. Each parameter set is its own render and its own report: the revision's reports say which parameters each was drawn with (`params`), and a source keeps its reports per parameter set.",
        ),
        p(
          "The report is the service's own (`source.kind` `service`): drawn in the revision's own state, it is also among the revision's render reports, where nothing posted from outside displaces it. A dashboard that never finishes drawing (a script that never yields) is answered 504 `render_timed_out`, and the service's report says so.",
        ),
        p(
          "Demo-mode drafts only (409 `render_demo_only`): a live draft reads each viewer's own data, and the server has no viewer. Without a browser in the deployment, 503 `renderer_not_configured`. Renders are bounded: a few at a time with a short queue (503 `renderer_busy` with `Retry-After` past it), a time limit, and renders per address and per draft per minute (429 `rate_limited`).",
        ),
      ],
      security: "none",
      params: [readId],
      requestBodies: [{ contentType: "application/json", description: "What to draw; every field is optional, and no body draws the current revision as it is.", schema: input, fields: fieldRows(input, set.components) }],
      responses: [jsonBody(200, "The render: its report and where its picture is", set.add(renderAnswer), set)],
      errors: [
        "no_such_draft",
        "no_such_revision",
        "render_demo_only",
        "unknown_scenario",
        "unknown_example",
        "invalid_render",
        "unsupported_media_type",
        "cross_site_write",
        "renderer_not_configured",
        "renderer_busy",
        "render_timed_out",
        "rate_limited",
        "internal_error",
      ],
      curl: true,
    }),
    siteOperation({
      op: "playground.renderPicture",
      section: "renders",
      description: [
        p("The address a render answered as `picture.url`. The same address always answers the same bytes, so it may be cached for as long as the revision is kept."),
        p("A demo draft's watch page names the picture of its current revision, at `desktop` in the revision's own scenario and variants, as its link preview (`og:image`). That one address (and its `phone` twin) is drawn on its first GET when nobody has rendered it yet, under the renders' allowances and the renderer's bounds; any other address that was never rendered is 404. A live draft's never is: it would need a viewer's data."),
      ],
      security: "none",
      params: [readId, { name: "file", in: "path", type: "string", required: true, limits: "<revision>-<key>.png", notes: "As the render's `picture.url` names it", schema: { type: "string" } }],
      responses: [{ status: 200, contentType: "image/png", description: "The dashboard, as drawn", schema: { type: "string", format: "binary" }, fields: [] }],
      errors: ["not_found", "rate_limited", "renderer_not_configured", "renderer_busy", "render_timed_out", "internal_error"],
    }),
  ];
}

/** Render reports: what browsers saw when they rendered a demo draft (lib/drafts/reports.ts). */
function reportOperations(set: SchemaSet, readId: ParamDoc): OperationDoc[] {
  const input = set.add(renderReportInput, "input");
  const demoOnly = p(
    "Demo-mode drafts only: a live draft renders each viewer's own data, which must not flow back to its author, so its pages send no reports and the server refuses them (409 `reports_demo_only`).",
  );
  return [
    siteOperation({
      op: "playground.renderReports",
      section: "renders",
      description: [
        p(
          `The watch page (and the editor's preview of a shared draft) sends one report per revision each time it is opened, once the dashboard's requests have been answered and it has painted, or after ${REPORT_WAIT_MAX_MS / 1000} s. Read them after handing the watch link to a human, or after rendering it yourself with \`?static=1\`. \`line\` and \`column\` of an error are positions in the HTML you sent.`,
        ),
        p(
          `Anyone with the watch link may send a report, so each says where it came from, as the server saw it: \`source.kind\` is \`author\` when it was sent with the write link (you, or the editor that shared the draft) and \`watcher\` otherwise, with one \`source.id\` per watcher's address. At most ${REPORTS_PER_REVISION} are kept for each of the latest ${REPORT_REVISIONS} revisions and ${REPORTS_PER_SOURCE} from one source; a report with errors is kept over a clean one, so no number of clean reports hides an error. \`sources\` counts the distinct sources and what each says (failing if any of its reports found errors): trust a revision as clean when the sources that rendered it agree, and your own (\`author\`) is among them.`,
        ),
        demoOnly,
      ],
      security: "none",
      params: [readId, ...queryParams(renderReportsQuery, set)],
      responses: [jsonBody(200, "The revision's reports, newest first", set.add(renderReports), set)],
      errors: ["no_such_draft", "reports_demo_only", "invalid_query", "rate_limited", "internal_error"],
    }),
    siteOperation({
      op: "playground.sendRenderReport",
      section: "renders",
      description: [
        p(
          "Sent by the playground's own pages; an agent has no need to. Anyone with the read id may send one, so a report says what some browser said, and is counted as a watcher's. Sent to the write link's path instead (`POST <postUrl>/reports`), it is the author's own.",
        ),
        demoOnly,
      ],
      security: "none",
      params: [readId],
      requestBodies: [{ contentType: "application/json", description: "One render of one revision.", schema: input, fields: fieldRows(input, set.components) }],
      responses: [jsonBody(201, "The report was stored", set.add(renderReportAccepted), set)],
      errors: ["no_such_draft", "reports_demo_only", "revision_not_recent", "invalid_report", "report_too_large", "unsupported_media_type", "cross_site_write", "rate_limited", "internal_error"],
      curl: false,
    }),
  ];
}

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

function savingOperations(set: SchemaSet): OperationDoc[] {
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
] as const;

function oauthOperations(set: SchemaSet): OperationDoc[] {
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

function operationsOperations(set: SchemaSet): OperationDoc[] {
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

export function buildOperations(set: SchemaSet): OperationDoc[] {
  const waiting = set.add(cxWrapper(z.unknown()).options[1]);
  set.define(CX_WAITING, waiting);
  return [...endpoints.map((e) => apiOperation(e, set, waiting)), ...playgroundOperations(set), ...savingOperations(set), ...oauthOperations(set), ...operationsOperations(set)];
}
