import { DRAFT_VIEW_URI, MCP_APP_MIME_TYPE } from "@/lib/agent/mcp-app";
import { z } from "zod";
import { checkRules } from "@/lib/check";
import { describeShape } from "@/lib/contract/describe";
import { endpoints, errorsOf, type EndpointDef } from "@/lib/contract/endpoints";
import { errorCatalogue } from "@/lib/contract/errors";
import { errorEnvelope } from "@/lib/contract/resources";
import { renderReports } from "@/lib/contract/reports";
import { defaultPlaygroundSettings, type PlaygroundSettings } from "@/lib/playground/settings";
import { RENDER_VIEWPORTS, renderAnswer } from "@/lib/contract/renders";
import { DRAFT_HTML_MAX_BYTES, PLAYGROUND_API_BASE, PLAYGROUND_BASE, SCENARIO_PARAM, VARIANT_PARAM, draftCheck, draftCreated, draftEvent, draftInput, draftUpdated } from "@/lib/contract/playground";
import { SNAPSHOT_ELEMENT_ID, SNAPSHOT_HELPER, SNAPSHOT_TAKEN_AT_ATTRIBUTE } from "@/lib/frame/protocol";
import { scenariosBody } from "@/lib/demo-api/answers";
import { defaultScenario, scenarios, variantsFor } from "@/lib/demo-api/data";
import { RULES_URI } from "@/lib/agent/mcp-app";
import { statesTable, writingRules } from "./agent-rules";
import { Doc, recipesSection, screenshotSection, updateSemanticsSection, workedExampleSection } from "./llms-guide";
import { statesSection } from "./llms-states";
import { snapshotChecks, snapshotElement, snapshotHelper, snapshotLiveViewer, snapshotWhen } from "@/lib/frame/snapshot-policy";
import { docsModel } from "./model";
import { DOCS_PATH, OPENAPI_PATH, docsSections, sectionMarkdownPath } from "./sections";

// /dashboards/playground/llms.txt: the agent protocol, in the llms.txt format (an H1, a
// summary blockquote, then sections). Shapes, endpoints, scenarios, variants and check rules are
// generated from the same registry as /endpoints, so the text cannot drift from the service.

type Json = { [k: string]: unknown };

/** The limits the index names with their numbers: the deployment's own. */
type PlaygroundLimits = Pick<
  PlaygroundSettings,
  "createsPerMinute" | "readsPerMinute" | "demoReadsPerMinute" | "reportsPerMinute" | "rendersPerMinute" | "updatesPerMinute" | "rendersPerDraftPerMinute" | "streamsPerAddress" | "historyKeep" | "draftIdleDays"
>;

/** The index's ceiling: an agent reads it whole before anything else. */
export const LLMS_INDEX_MAX_BYTES = 15 * 1024;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Path values and query parameters of an endpoint, one line each, from the registry. */
function parameterLines(e: EndpointDef): string[] {
  const lines = Object.entries(e.params ?? {}).map(([name, rule]) => {
    const unknown = rule.unknown ? ` Any other value: ${errorCatalogue[rule.unknown].status} \`${rule.unknown}\`.` : "";
    return `- \`:${name}\` (path): ${rule.description}.${unknown}`;
  });
  const query = z.toJSONSchema(e.query, { io: "input", unrepresentable: "any" }) as Json;
  const props = isObj(query.properties) ? query.properties : {};
  const required = new Set(Array.isArray(query.required) ? (query.required as string[]) : []);
  for (const [name, s] of Object.entries(props)) {
    if (!isObj(s)) continue;
    const values = Array.isArray(s.enum) ? `; ${s.enum.map((v) => `\`${String(v)}\``).join(" or ")}` : "";
    const about = typeof s.description === "string" ? `: ${s.description}` : "";
    const missing = e.missingQuery?.[name];
    const whenMissing = missing ? ` Missing: ${errorCatalogue[missing].status} \`${missing}\`.` : "";
    lines.push(`- \`${name}\` (query, ${required.has(name) ? "required" : "optional"}${values})${about}${whenMissing}`);
  }
  return lines;
}

const SUMMARY = `> Draft a data dashboard as ONE self-contained HTML document and let a human watch it render live on realistic demo data (or their own). No credentials needed: you hold a secret write URL, the human a read-only watch URL, and saving it into their space is theirs alone.`;

/** Where the whole protocol is, beside the index. */
export const LLMS_FULL_PATH = `${PLAYGROUND_BASE}/llms-full.txt`;

/**
 * /dashboards/playground/llms.txt: the index an agent reads in one pass (LLMS_INDEX_MAX_BYTES at
 * most, held by a test): the loop in ten steps, every endpoint and route in one line, the rules,
 * the limits with their numbers and the states to render, each pointing at its full detail in
 * llms-full.txt or the reference's Markdown.
 */
export function llmsText(origin: string, limits: PlaygroundLimits = defaultPlaygroundSettings): string {
  const base = `${origin}${PLAYGROUND_BASE}`;
  const doc = new Doc();

  doc.push(`# Dashboards playground`, "", SUMMARY, "");
  doc.push(
    `In full (every shape, recipe and limit): ${origin}${LLMS_FULL_PATH}. JSON Schemas: ${base}/endpoints; OpenAPI: ${origin}${OPENAPI_PATH}.`,
    "",
  );

  doc.push(`## The loop`, "");
  doc.push(
    `1. Write ONE self-contained HTML document that reads its data from the API base. \`GET ${base}/scenarios\` lists the demo states.`,
    `2. \`POST ${base}/check\` with \`{"html": …}\` (or the HTML as \`text/html\`) → \`warnings\` (fix \`error\` and \`warning\`) and \`reads\` (the API paths it fetches). Publishes nothing.`,
    `3. \`POST ${base}/draft\` with \`{html, scenario?, examples?, dash?, dataMode?}\` → 201 \`{id, postUrl, watchUrl, revision, warnings}\`. Keep \`postUrl\` (your write token); give the human \`watchUrl\`.`,
    `4. \`POST ${base}/draft/<id>/render\` with \`{viewport?: "desktop" | "phone", scenario?, examples?, params?}\` → \`report\` (errors with their line, refused requests) and \`picture.url\` (PNG). Look at both viewports, in every state you handle; \`GET …/draft/<id>/reports\` has what browsers saw.`,
    `5. \`POST <postUrl>\` with only what changes (\`html\`, \`scenario\`, \`examples\`, \`dash\`; null clears; \`baseRevision\` refuses a stale update, 409) → the next revision, live for watchers. Repeat 2, 4 and 5; saving is the human's alone.`,
    "",
  );

  doc.push(`## Writing rules`, "", ...writingRules(), "");

  doc.push(`## Endpoints`, "", `GET, relative to the API base. \`?\` marks an optional query parameter; each line links its Markdown page (query limits, answer, errors, example).`, "");
  const model = docsModel();
  const operations = model.sections.flatMap((section) => section.operations);
  const ref = (anchor: string) => `${DOCS_PATH}/${anchor}.md`;
  for (const e of endpoints as readonly EndpointDef[]) {
    const op = operations.find((o) => o.registryId === e.id);
    const query = queryNames(e);
    doc.push(`- [\`${e.path}${query}\`](${op ? ref(op.anchor) : DOCS_PATH}) → ${shapeName(e.response)}: ${e.summary}.${e.permission ? ` Needs \`${e.permission}\`.` : ""}`);
  }
  doc.push("");

  doc.push(`## Limits`, "");
  doc.push(
    `\`html\` at most ${DRAFT_HTML_MAX_BYTES / 1024 / 1024} MiB. Per address per minute: ${limits.createsPerMinute} creations, ${limits.createsPerMinute} checks, ${limits.rendersPerMinute} renders, ${limits.demoReadsPerMinute} demo API reads; ${limits.updatesPerMinute} updates per draft. Past one: 429 with \`Retry-After\`. A draft keeps ${limits.historyKeep} revisions and expires after ${limits.draftIdleDays} idle days.`,
    "",
  );

  doc.push(`## States to render`, "", `Force one with \`examples: {"<path>": "<variant>"}\` or a \`scenario\`.`, "", ...statesTable(), "");

  doc.push(`## MCP`, "", `\`${base}/mcp\` (2026-07-28 and 2025-11-25): the same loop as tools, these rules as the resource \`${RULES_URI}\`; with OAuth, saved dashboards on a person's data.`, "");
  return doc.lines.join("\n");
}

/** The query parameters an endpoint takes, as `?a&b?` reads them: required first, optional marked. */
function queryNames(e: EndpointDef): string {
  const query = z.toJSONSchema(e.query, { io: "input", unrepresentable: "any" }) as Json;
  const props = isObj(query.properties) ? Object.keys(query.properties) : [];
  const required = new Set(Array.isArray(query.required) ? (query.required as string[]) : []);
  if (props.length === 0) return "";
  return `?${props.map((p) => (required.has(p) ? p : `${p}?`)).join("&")}`;
}

/** A response's shape in a few words: its schema's name, or its top-level fields. */
function shapeName(schema: z.ZodType): string {
  const named = (s: z.ZodType) => (z.globalRegistry.get(s) as { id?: string } | undefined)?.id;
  const id = named(schema);
  if (id) return id;
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Json;
  const variants = Array.isArray(json.anyOf) ? (json.anyOf as Json[]) : [json];
  const fields = variants.map((v) => (isObj(v.properties) ? `{${Object.keys(v.properties).join(", ")}}` : "…"));
  return fields.join(" | ");
}

/** /dashboards/playground/llms-full.txt: the whole protocol, every shape and example. */
export function llmsFullText(origin: string): string {
  const base = `${origin}${PLAYGROUND_BASE}`;
  const doc = new Doc();
  const code = (lang: string, text: string) => doc.code(lang, text);

  doc.push(`# Dashboards playground`, "");
  doc.push(SUMMARY, "");
  doc.push(
    `Shapes below are TypeScript-like: \`field?:\` may be absent, \`| null\` may be null, \`integer\` is a number without a fraction, \`Record<K, V>\` is an object whose keys are K, and \`// …\` is the contract's description of the field.`,
    "",
  );

  protocolSection(doc, base);
  workedExampleSection(doc, origin);
  updateSemanticsSection(doc);

  writingSection(doc);
  recipesSection(doc, origin);
  doc.push(`## Seeing it`, "");
  doc.push(
    `Have the service draw a revision itself: \`POST ${base}/draft/<read_id>/render\` with JSON \`{"viewport": "phone", "scenario": "outage", "examples": {...}, "params": {"district": "…"}, "revision": N}\` (every field optional; \`params\` are the page parameters, as \`?p.district=…\` gives them, refused with 400 when the page would drop one; no body draws the current revision as it is, at \`desktop\`). Viewports: ${Object.entries(RENDER_VIEWPORTS).map(([k, v]) => `\`${k}\` ${v.width}×${v.height}`).join(", ")}. It renders in the service's own headless Chromium, through the frame and broker a watcher gets, on demo data, and answers \`report\` (a render report whose \`source.kind\` is \`service\`, which nothing posted from outside can displace) and \`picture.url\`, a PNG of the whole dashboard (as tall as its content). Each revision, viewport and state is drawn once and kept (\`cached: true\`). A demo draft's watch page names the picture of its current revision (\`desktop\`, its own state) as its link preview (\`og:image\`), so a watch link pasted into chat shows the dashboard. Draw every state you built for: each scenario that matters, both viewports. Over MCP, \`render_draft\` answers the picture as image content. Demo drafts only (409 \`render_demo_only\`); 503 \`renderer_not_configured\` where the deployment has no browser (then use a browser of your own, below); 503 \`renderer_busy\` and 429 carry \`Retry-After\`; a dashboard that never finishes drawing is 504 \`render_timed_out\`. The answer:`,
    "",
  );
  code("ts", describeShape(renderAnswer));
  screenshotSection(doc, origin);
  doc.push(`## Render reports`, "");
  doc.push(
    `You cannot see the dashboard render, so the browsers that render it tell you. Each time the watch page (or the editor's preview of a shared draft) renders a revision of a demo-mode draft, it sends one report once the dashboard's requests were answered and it painted (or after 10 s, with \`settled: false\`). Read them with \`GET ${base}/draft/<read_id>/reports\` (\`?revision=N\`; default the current revision): the newest first, at most 10 per revision (3 from one source), kept for the latest 5 revisions. No report yet is an empty list: open \`watchUrl\` (or \`watchUrl?static=1\`, below a screenshot's way) in a browser, or ask the human to.`,
    `\`errors\` carry \`line\` and \`column\` in the HTML you sent; \`refusals\` are requests the broker or the frame refused (a write, a path outside the API, XHR or WebSocket), with the reason; \`requests\` are the API requests made, with status and time. A clean render has no \`errors\` and no \`refusals\`. Anyone with the watch link can send a report, so each names its \`source\` (\`author\`: sent with your write link, as the editor does; \`watcher\`: one id per address), a report with errors is kept over any clean one, and \`sources\` counts how many distinct sources reported and what each says: believe "clean" when the sources agree. Live-mode drafts never report: the viewer's data must not flow back to you (409 \`reports_demo_only\`). The answer:`,
    "",
  );
  code("ts", describeShape(renderReports));

  scenariosSection(doc, base);
  statesSection(doc);

  endpointsSection(doc, base);
  doc.push(`## Static check rules`, "");
  for (const r of checkRules) doc.push(`- \`${r.id}\` (${r.severity}): ${r.description}`);
  doc.push("", `## Limits`, "");
  doc.push(
    `- \`html\` at most ${DRAFT_HTML_MAX_BYTES / 1024 / 1024} MiB (413 \`draft_too_large\`). JSON or text/html only (415 \`unsupported_media_type\`).`,
    `- Creations and checks per client address (each its own allowance), updates per draft and open event streams are rate-limited: 429 \`rate_limited\` with \`Retry-After\`.`,
    `- Drafts expire after a period without updates; an expired draft answers 404 \`no_such_draft\`, like an unknown one.`,
    `- Browsers may not write to a draft from another site (403 \`cross_site_write\`); call from your own process.`,
    "",
  );
  mcpSection(doc, base);
  doc.push(`## API reference`, "", `The reference at ${origin}${DOCS_PATH}, section by section as Markdown:`, "");
  for (const s of docsSections) doc.push(`- [${s.title}](${origin}${sectionMarkdownPath(s.slug)}): ${s.summary}`);
  doc.push(`- [The whole reference](${origin}${sectionMarkdownPath("index")}): every section in one document`, "");
  doc.push(
    `## Optional`,
    "",
    `- [Scenarios as JSON](${base}/scenarios)`,
    `- [Endpoint schemas as JSON](${base}/endpoints)`,
    `- [OpenAPI 3.1 document](${origin}${OPENAPI_PATH})`,
    "",
  );
  return doc.lines.join("\n");
}

/** The same loop over the Model Context Protocol (lib/agent/mcp.ts); the tool names are checked against the server's list by tests/integration/agent/mcp.test.ts. */
/** The draft protocol, step by step: create, update, check, watch, and the human saving. */
function protocolSection(doc: Doc, base: string): void {
  const code = (lang: string, text: string) => doc.code(lang, text);
  doc.push(`## Protocol`, "");
  doc.push(`Two names recur: \`read_id\` (the draft's \`id\`, the last segment of \`watchUrl\`; it only reads) and \`write_token\` (the last segment of \`postUrl\`; whoever holds it can update the draft).`, "");
  doc.push(`1. Create a draft: \`POST ${base}/draft\` with \`Content-Type: application/json\` and a body of this shape (only \`html\` is required):`, "");
  code("ts", describeShape(draftInput, "input"));
  doc.push(`   Or send the HTML itself with \`Content-Type: text/html\` (other fields as query parameters: \`scenario\`, \`dash\`, \`dataMode\`, \`baseRevision\`):`, "");
  code("sh", `curl -sS -X POST '${base}/draft?scenario=${defaultScenario}&dash=my-dashboard' -H 'Content-Type: text/html' --data-binary @dashboard.html`);
  doc.push(`2. The answer (201):`, "");
  code("ts", describeShape(draftCreated));
  doc.push(`   Keep \`postUrl\` to yourself: it carries the write token. Give the human \`watchUrl\`; it can only read.`);
  doc.push(`3. Update: \`POST\` to \`postUrl\` (\`${PLAYGROUND_BASE}/draft/<write_token>\`); see "Update semantics" for what each field does. The answer (200):`, "");
  code("ts", describeShape(draftUpdated));
  doc.push(`4. Read \`warnings\` in every answer: the same static check the editor runs. Fix \`error\` and \`warning\` findings; \`info\` is advice.`);
  doc.push(
    `   To try a change without publishing it, \`POST ${base}/check\` with the same body as a creation (JSON or \`text/html\`): nothing is created and no watcher sees it. The answer (200) holds the findings and the API paths the dashboard reads (on a viewer's live data only those are answered):`,
    "",
  );
  code("ts", describeShape(draftCheck));
  doc.push(
    `5. Watch like the human does: \`GET ${base}/draft/<read_id>/events\` is a server-sent event stream. On connect it sends the current revision, then each new one, as a \`draft\` event whose \`id:\` is the revision and whose \`data\` is:`,
    "",
  );
  code("ts", describeShape(draftEvent));
  doc.push(
    `   \`GET ${base}/draft/<read_id>\` answers the current draft as JSON, and \`GET ${base}/draft/<read_id>/revisions\` the kept revisions, newest first, a page at a time (\`?limit=\` 1 to 50, default 10; a page also stops before 8 MiB of JSON): follow \`nextCursor\` as \`?cursor=\` until it is null.`,
  );
  doc.push(`6. When the human likes it, they press "Save to my space" on the watch page. Nothing you hold can save.`, "");
}

/** What dashboard code must do and may not, and the snapshot it may carry as a fallback. */
function writingSection(doc: Doc): void {
  const code = (lang: string, text: string) => doc.code(lang, text);
  doc.push(`## Writing the dashboard`, "");
  doc.push(
    `- Read the API base from the page: \`const API = window.DASHBOARD_API_BASE || "/api";\` and fetch \`API + "/me"\`, never a hard-coded \`/api\` or playground URL. On demo data it is \`${PLAYGROUND_API_BASE}\`; on the viewer's own data (a live draft, a saved dashboard) it is \`/api\`.`,
    `- Only GET requests reach the API. Nothing else leaves the dashboard's frame: no external scripts, styles, fonts or images (inline everything), no cookies or storage, no navigation of the top page.`,
    `- Link to what the data names: an \`<a href="…" target="_blank">\` whose href is exactly a URL that an answer this dashboard read carried as a string (a tracker issue's, a call's or a repository's \`url\`; \`a.href = issue.url\`) opens it in a new tab, with no opener and no referrer, when the viewer clicks it. So does a page of this site that only shows something: \`/\`, \`/docs\`, \`/docs/<section>\`, \`/~/<person>\` and \`/~/<person>/<dashboard>\` with \`p.\` parameters and \`kiosk\`. The page around the frame decides, not the dashboard: a link to any other address, \`window.open\`, a script's \`click()\` with no one clicking, and a click while the viewer is using the page rather than the dashboard open nothing, and the editor's console says why. The safe view keeps such links as links and writes every other as its text. The static check warns of a hard-coded address of another site in a link (\`dead-link\`), which can never open.`,
    `- Every non-2xx answer is \`{error, hint?}\`. Check \`res.ok\` before reading data, and show the human the \`hint\`. Signed out (401 \`unauthorized\`), no permission (403 \`forbidden\`), not connected (401 \`<vendor>_not_connected\`), not opted in (403) and not configured (503) are normal states: render them as such (see "States to render").`,
    `- Paged endpoints answer \`nextCursor\`; pass it back as \`cursor\` until it is null (see "Task recipes").`,
    `- The CX endpoints answer \`{ok: true, data}\` or \`{ok: false, waitingOn}\`: when \`ok\` is false, show the \`waitingOn\` text, not zeroes.`,
    `- \`arr\` in CX book rows is DISTRICT grain: the same figure is carried on each school of a district. Never sum it across schools; take one value per \`districtName\`.`,
    `- \`basis=activity\` is a derived stand-in (grouped by who logged a touch): label it "derived" on the page.`,
    `- \`priority\` is a heuristic triage rank, not an SLA, target, guarantee or earned score: show its \`reasons\`.`,
    `- \`daysSinceContact: null\` means no touch within the window, not "never touched".`,
    `- Embedding a data snapshot is allowed, and useful as a fallback beside live fetching: see "Snapshot fallback" below.`,
    `- Never put \`${SCENARIO_PARAM}\` or \`${VARIANT_PARAM}\` in dashboard code: they are playground controls.`,
    "",
  );

  doc.push(`## Snapshot fallback`, "");
  doc.push(snapshotElement, "", snapshotWhen, "", snapshotHelper, "", snapshotLiveViewer, "", snapshotChecks, "");
  code(
    "html",
    [
      `<script type="application/json" id="${SNAPSHOT_ELEMENT_ID}" ${SNAPSHOT_TAKEN_AT_ATTRIBUTE}="2026-11-20T06:00:00Z">{"rows": [{"district": "Lakeview", "health": 72}]}</script>`,
      `<script>`,
      `  const API = window.DASHBOARD_API_BASE || "/api";`,
      `  function fallBack(reason) {`,
      `    const snap = typeof window.${SNAPSHOT_HELPER} === "function" ? window.${SNAPSHOT_HELPER}("Districts") : null;`,
      `    if (!snap) return showState(reason);`,
      `    showNotice(reason + " Showing the snapshot taken " + snap.takenAt + ".");`,
      `    render(snap.data.rows);`,
      `  }`,
      `  fetch(API + "/cx/districts").then(async (res) => {`,
      `    const body = await res.json().catch(() => ({}));`,
      `    // Only an outage falls back: 401, 403, a system not set up or synced here and every other refusal are states.`,
      `    if (res.status >= 500 && !/_not_configured$|_not_synced$/.test(body.error || "")) return fallBack(body.hint || "HTTP " + res.status);`,
      `    if (!res.ok) return showState(body.hint || body.error);`,
      `    if (!body.ok) return showState(body.waitingOn);`,
      `    render(body.data.rows);`,
      `  }, () => fallBack("The API could not be reached."));`,
      `</script>`,
    ].join("\n"),
  );
}

/** The demo API's scenarios and variants, and what live data mode reads. */
function scenariosSection(doc: Doc, base: string): void {
  const usage = scenariosBody().usage;
  doc.push(`## Scenarios and variants`, "");
  doc.push(
    `Demo mode (the default) answers canned responses. Pick a scenario per draft (\`scenario\`), and a variant per API path (\`examples\`: path → variant); variants mix freely. Default scenario: \`${defaultScenario}\` (every endpoint at its richest variant). A path with no example answers 404 \`no_example\`. Full list as JSON: ${base}/scenarios`,
    "",
    `The demo API is \`${base}/api/<api path>\`: the API's paths and query rules, no sign-in. To try a scenario or a variant on a single request, add \`?${SCENARIO_PARAM}=<name>\` or \`?${VARIANT_PARAM}=<name>\` (e.g. \`${base}/api/cx/districts?${SCENARIO_PARAM}=first-sync\`, \`${base}/api/me?${VARIANT_PARAM}=signed_out\`). Which answer wins: ${usage.precedence} Both are for the playground only and never belong in dashboard code.`,
    "",
  );
  for (const s of scenarios) doc.push(`- \`${s.name}\`: ${s.description}`);
  doc.push("", `Variants by path:`, "");
  for (const e of endpoints) doc.push(`- \`${e.path}\`: ${variantsFor(e.path).map((v) => `\`${v}\``).join(", ")}`);
  doc.push(
    "",
    `\`live\` data mode reads the watching human's own API as them, GET only; a signed-out watcher sees their own 401s. Only demo mode can show empty, not-connected and outage states.`,
    "",
    `Someone else's saved dashboard, a live draft's watch link opened by a signed-in human in a browser other than the one the draft was made in, and \`show_dashboard\` of someone else's dashboard over MCP open drawn by this site on the viewer's own data: the service runs your code in its own contained browser, answering only the API paths your code names, and shows them an inert copy of what it drew (no script runs in their browser, so tooltips, sorting and other interaction wait until they choose "Make it interactive"); a live draft is drawn again as its revisions arrive, one drawing at a time. Draw everything that matters into the page itself. Before a live draft or someone else's saved dashboard, made interactive, runs on a signed-in human's data in their browser, they are asked, and shown the API paths your code reads; nothing runs until they agree, and they may choose demo data instead. After they agree, only those paths are answered: any other read gets 403 \`read_not_agreed\`. The paths are read from your code, so write every API path literally (\`API + "/crm/customers/companies"\`, or \`"/cx/book"\` handed to a helper); a path built at run time (from data, atob, arrays joined) cannot be shown and is refused. \`GET ${base}/draft/<read_id>\` answers the list as \`reads\` (\`paths\`, and \`complete: false\` when some request's path cannot be read ahead). A revision that reads more than was agreed asks again. WebRTC is removed from the frame.`,
    "",
  );
}

/** Each endpoint of the API: its parameters, permission, answer and errors, then the error envelope. */
function endpointsSection(doc: Doc, base: string): void {
  const code = (lang: string, text: string) => doc.code(lang, text);
  doc.push(`## Endpoints`, "", `All GET, relative to the API base. Full JSON Schemas: ${base}/endpoints`);
  for (const e of endpoints as readonly EndpointDef[]) {
    doc.push("", `### GET ${e.path}`, "", `${e.summary}.`);
    const params = parameterLines(e);
    if (params.length) doc.push("", ...params);
    if (e.permission) doc.push("", `Needs the permission \`${e.permission}\`; without it, 403 \`forbidden\`.`);
    if (e.pagedList) doc.push("", `Paged: follow \`nextCursor\` as \`cursor\` until it is null.`);
    doc.push("");
    code("ts", describeShape(e.response));
    doc.push(`Errors: ${errorsOf(e).map((c) => `${errorCatalogue[c].status} \`${c}\``).join(", ")}.`);
  }
  doc.push("", `The error envelope of every non-2xx answer:`, "");
  code("ts", describeShape(errorEnvelope));
}

function mcpSection(doc: { push(...lines: string[]): unknown; code(lang: string, text: string): unknown }, base: string): void {
  doc.push(
    `## MCP`,
    "",
    `The same loop is a Model Context Protocol server at \`${base}/mcp\` (Streamable HTTP, no sessions: POST JSON-RPC, JSON answers; GET and DELETE answer 405). It speaks revision 2026-07-28 to a request that names it in \`_meta\` (\`server/discover\` lists it; send \`Mcp-Method\` and \`Mcp-Name\` as the revision asks) and 2025-11-25 or earlier after \`initialize\`; a revision it does not speak is answered -32022 with the list it does. Tools:`,
    "",
    `- \`check_html\` (html, scenario?, examples?, dash?, dataMode?): the static check's \`warnings\` and the \`reads\` (API paths your code fetches); publishes nothing.`,
    `- \`create_draft\` (the same fields): creates the draft; answers id, postUrl, watchUrl, eventsUrl, revision, warnings. Keep postUrl; give the human watchUrl.`,
    `- \`update_draft\` (postUrl or the write token; html?, scenario?, examples?, dash?, baseRevision?): partial, as in "Update semantics". Answers the new revision and warnings.`,
    `- \`read_draft\` (\`readId\`, the \`id\` create_draft answered, or \`watchUrl\`): the current draft, as watchers see it.`,
    `- \`list_scenarios\`: the scenarios, the default, and every path's variants.`,
    `- \`describe_endpoint\` (path, e.g. \`/cx/book\`): that endpoint's query parameters, response schema, errors and demo variants.`,
    `- \`read_render_reports\` (readId or watchUrl; revision?): what browsers saw rendering that revision, as in "Render reports".`,
    `- \`render_draft\` (readId or watchUrl; revision?, viewport?, scenario?, examples?, params?): the service draws the revision in its own browser and answers the picture (image content) with its render report, as in "Seeing it".`,
    `- \`show_draft\` (readId or watchUrl): shows the human the draft in the conversation, as below; answers its revision, state and size, without the document.`,
    `- \`read_demo_data\` (readId, path, method?): the inline view's reads, below; a host shows it to the view only, and you have no need of it.`,
    `- \`show_dashboard\` (handle, slug): shows the signed-in person a saved dashboard, /~/<handle>/<slug>, in the conversation on their own live data; needs their authorization, below. Answers its title, author, revision, URL, whether it runs here (\`live: "run"\`: theirs, or a trusted author's) or is shown drawn by this site (\`"drawn"\`: anyone else's, whose code runs only in the service's own contained browser, on the person's data; interactive only on this site), and the API paths it reads.`,
    `- \`read_dashboard\` (handle, slug): the saved dashboard's view reads its code with it, when it runs here; the view's alone.`,
    `- \`draw_dashboard\` (handle, slug, viewport?): the saved dashboard's view gets someone else's dashboard with it, drawn by the service on the person's data as an inert document (no script, no address but \`data:\` images), which it shows in a frame that runs no script; the view's alone. Busy, 503 \`renderer_busy\` as text with \`retryAfter\`.`,
    `- \`read_live_data\` (handle, slug, path, method?): the saved dashboard's reads, answered by the API as the person, only for dashboards that run here and only on the paths their code reads; the view's alone, held to the browser broker's pace (10 a second, bursts of 30, 8 at once).`,
    "",
    `### Saved dashboards on the person's data (authorization)`,
    "",
    `The draft tools need no account. \`show_dashboard\` and its view's tools act as a signed-in person, so the endpoint follows the MCP authorization specification: called without an access token (or with an expired or revoked one) it answers HTTP 401 with \`WWW-Authenticate: Bearer resource_metadata="<origin>/.well-known/oauth-protected-resource${base}/mcp"\`. MCP hosts (Claude, ChatGPT, VS Code, the MCP SDK's client) take it from there: the protected-resource metadata names this service as the authorization server (\`/.well-known/oauth-authorization-server\`), the host registers itself (\`/oauth/register\`, public clients, https or loopback redirect URIs), sends the person to \`/oauth/authorize\` to sign in and approve, and exchanges the code at \`/oauth/token\` (PKCE S256, \`resource\` = the MCP endpoint). Access tokens last 15 minutes and refresh tokens rotate; the person can disconnect an app on /account. You never handle the token: the host sends it.`,
    "",
    `The browser's consent rules decide, and only the person answers them, at this site's own pages: their own dashboards, and those of authors they trust, run here at once; someone else's code does not run in the conversation at all. Its view shows it drawn by this site on the person's own data, with no question (the safe view: the service runs the code in its own contained browser, where nothing it reads can leave, and the view gets an inert document), says so in plain words, and offers "Open on Dashboards" (\`ui/open-link\`) for it interactive, where the person decides as themselves. No tool, token or argument trusts an author, agrees to a read or saves anything for them: an access token is an app's, not the person's. A host without MCP Apps gets the dashboard's URL: give it to the person.`,
    "",
    `### The draft in the conversation (MCP Apps)`,
    "",
    `\`create_draft\`, \`update_draft\`, \`read_draft\` and \`show_draft\` name a view (\`_meta.ui.resourceUri\`, the resource \`${DRAFT_VIEW_URI}\`, \`${MCP_APP_MIME_TYPE}\`), so a host that renders MCP Apps (Claude, ChatGPT, VS Code, Goose, Postman) draws the dashboard inline under the tool's result, on its demo data, and follows its revisions: each later \`update_draft\` shows there within about a second. The dashboard's code runs unchanged: its reads go through the host to \`read_demo_data\`, a tool only the view calls, checked as the browser's broker checks them and answered with the draft's scenario and variants. The view asks for no network access; a live draft is not drawn there (its data is shown only to a signed-in person who agreed, in a browser). A host without MCP Apps shows the tools' text as before: give the human watchUrl.`,
    "",
    `Each tool is the HTTP route it names, called as you: the same validation, rate limits and refusals. A successful result carries its answer as \`structuredContent\` (the tool's output schema) beside the text. A refusal is a tool result with \`isError\` whose text is \`<code>: <hint>\` (e.g. \`invalid_draft: html: the document is empty…\`): fix what the hint says and call again. Its \`structuredContent\` is the envelope \`{error, hint, currentRevision?, retryAfter?}\` (each tool's output schema is its answer or that refusal): a \`revision_conflict\` carries \`currentRevision\` (over HTTP, the \`X-Current-Revision\` header), and a 429 or 503 \`retryAfter\` in seconds.`,
    "",
    `Connect a client by URL; no credentials or headers are needed. Claude Code: \`claude mcp add --transport http dashboards-playground ${base}/mcp\`. Clients configured by JSON:`,
    "",
  );
  doc.code("json", JSON.stringify({ mcpServers: { "dashboards-playground": { type: "http", url: `${base}/mcp` } } }, null, 2));
  doc.push(`(VS Code names the key \`servers\`; some clients take \`url\` alone, without \`type\`.)`, "");
}
