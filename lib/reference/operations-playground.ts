import { z } from "zod";
import { type ErrorCode } from "@/lib/contract/errors";
import {
  PLAYGROUND_BASE,
  SCENARIO_PARAM,
  VARIANT_PARAM,
  REVISIONS_LIMIT_DEFAULT,
  REVISIONS_LIMIT_MAX,
  REVISIONS_PAGE_BYTES,
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
import { endpointsBodySchema, scenariosBodySchema } from "@/lib/contract/playground-bodies";
import { SchemaSet, fieldRows, queryParams, sentences } from "./json-schema";
import type { BodyDoc, OperationDoc, ParamDoc } from "./types";
import { jsonBody, p, pathParam, siteOperation } from "./operation-docs";

// The playground's operations: drafts, their reports and renders, the demo API and the
// documents beside it, and a draft's event stream.

export function playgroundOperations(set: SchemaSet): OperationDoc[] {
  const readId = pathParam("read_id", "The draft's read id: `id` of the creation answer, and the last segment of `watchUrl`. It only reads.", { type: "string" }, set);
  return [...draftOperations(set, readId), ...reportOperations(set, readId), ...renderOperations(set, readId), ...demoApiOperations(set), draftEventsOperation(set, readId)];
}

/** Writing, checking, reading and drawing a draft. */
function draftOperations(set: SchemaSet, readId: ParamDoc): OperationDoc[] {
  const writeToken = pathParam("write_token", "The draft's write token: the last segment of `postUrl`. Whoever holds it can update the draft.", { type: "string" }, set);
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
  ];
}

/** The demo API and the documents an agent reads beside it. */
function demoApiOperations(set: SchemaSet): OperationDoc[] {
  const base = PLAYGROUND_BASE;
  return [
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
  ];
}

function draftEventsOperation(set: SchemaSet, readId: ParamDoc): OperationDoc {
  return siteOperation({
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
  });
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
