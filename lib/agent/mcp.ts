import "server-only";
import {
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type CallToolResult,
  type McpHttpHandler,
  type ToolAnnotations,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { describeShape } from "@/lib/contract/describe";
import { endpoints } from "@/lib/contract/endpoints";
import { mcpToolOf } from "@/lib/contract/operations";
import { renderReports } from "@/lib/contract/reports";
import { renderAnswer, renderInput, type RenderAnswer } from "@/lib/contract/renders";
import { ApiError } from "@/lib/contract/errors";
import { matchPath } from "@/lib/contract/match";
import {
  DRAFT_HTML_MAX_BYTES,
  PLAYGROUND_API_BASE,
  PLAYGROUND_BASE,
  draftCheck,
  draftCreated,
  draftInput,
  draftUpdate,
  draftUpdated,
  draftView,
} from "@/lib/contract/playground";
import { checkBrokerRequest, demoReadPath } from "@/lib/frame/protocol";
import { readTextBody } from "@/lib/http/edge";
import { LOCAL_ADDRESS_HEADER, PEER_HEADER, trustedOrigin } from "@/lib/http/origin";
import { fromThrown, json } from "@/lib/http/respond";
import { scenariosBody } from "@/lib/demo-api/answers";
import { endpointDescriptionSchema, scenariosBodySchema } from "@/lib/contract/playground-bodies";
import { endpointsBody } from "@/lib/demo-api/endpoints-doc";
import { orRefusal, relayedRead } from "@/lib/contract/mcp-outputs";
import { DASHBOARD_VIEW_URI, DRAFT_VIEW_RESOURCE_META, DRAFT_VIEW_TOOL_META, DRAFT_VIEW_URI, MCP_APP_MIME_TYPE, dashboardViewHtml, draftViewHtml } from "./mcp-app";
import { registerDashboardTools, type DashboardSource } from "./mcp-dashboard";
import { OAUTH_SCOPE, bearerIdentity } from "@/lib/auth/oauth";
import { loadUser, type SessionUser } from "@/lib/auth/session";
import type { Db } from "@/lib/db";
import { mcpResourceOf, resourceMetadataUrlOf } from "@/lib/signin/oauth-routes";
import { JSON_BODY_MAX, type Playground } from "@/lib/playground/routes";
import { serverLog } from "@/lib/http/server-log";

// POST /dashboards/playground/mcp: the playground's agent loop as Model Context Protocol tools,
// over Streamable HTTP without sessions (a server per request), in both eras of the protocol: a
// request that names its revision in `_meta` is served by the SDK's 2026-07-28 handler (discover,
// resultType, cache hints, the Mcp-Method and Mcp-Name headers checked against the body, -32022
// for a revision it does not speak); an initialize-era request (2025-11-25 and before) by the
// streamable transport as before, answered as JSON. One server factory serves both.
//
// A tool is not a second implementation of the playground: each one builds the Request the
// matching HTTP route would have received, with the caller's own address, Host and browser
// headers, and hands it to the same Playground function. So an MCP caller spends the same
// per-address allowances, meets the same origin checks and gets the same refusals as an HTTP
// caller; a refusal comes back as a tool result with `isError` and the envelope's code and hint
// as its text, which an agent reads and acts on, rather than as a protocol error it cannot.

export interface McpSource {
  playground: () => Promise<Playground>;
  log?: (line: string) => void;
  /** Saved dashboards on the token's user's data; without it the server has the draft tools alone. */
  dashboards?: DashboardSource & BearerSource;
}

/** What the bearer check needs: storage, and where the request reached the server. */
interface BearerSource {
  db: () => Promise<Db>;
  publicOrigin?: string;
  allowedHosts: readonly string[];
}

/** The tools that act as a person: called without a valid access token, the HTTP answer is the 401 challenge. */
const PERSON_TOOLS = new Set(["show_dashboard", "read_dashboard", "read_live_data", "draw_dashboard"]);

/**
 * The headers the playground decides by: who is asking (the stamped peer address, and
 * X-Forwarded-For, which counts only from a trusted proxy), where the answer's URLs may point
 * (Host, the stamped local address) and whether a browser sent it from another site (Origin,
 * Sec-Fetch-Site). Nothing else of the caller's request reaches it.
 */
const CALLER_HEADERS = ["host", "origin", "sec-fetch-site", "x-forwarded-for", PEER_HEADER, LOCAL_ADDRESS_HEADER] as const;

const SERVER_INFO = { name: "dashboards-playground", version: "1.0.0" };

/**
 * How long a 2026-07-28 client may keep a list or a read, and whether a shared cache may. The
 * tools, the views' HTML and the server's identity are the same for every caller, token or not,
 * and change only with a new deployment: public, for five minutes. Nothing a draft or a person
 * holds is a list or a resource here (drafts are read by tool call, never cached).
 */
const CACHE_HINTS = {
  "server/discover": { ttlMs: 300_000, cacheScope: "public" },
  "tools/list": { ttlMs: 300_000, cacheScope: "public" },
  "resources/list": { ttlMs: 300_000, cacheScope: "public" },
  "resources/templates/list": { ttlMs: 300_000, cacheScope: "public" },
  "resources/read": { ttlMs: 300_000, cacheScope: "public" },
} as const;

const INSTRUCTIONS = [
  "Draft a data dashboard as ONE self-contained HTML document and let a human watch it render live against demo data.",
  "The loop: check_html until its error and warning findings are gone; create_draft; give the human watchUrl (never postUrl, which carries your write token);",
  "update_draft with only what changes; read_draft to see what the watchers see. list_scenarios and describe_endpoint say what data there is.",
  'In the dashboard, read the API base from the page (const API = window.DASHBOARD_API_BASE || "/api"), make GET requests only, check res.ok and show {error, hint},',
  "and render {ok: false, waitingOn} from /cx/* as text, never zeroes.",
  `The whole protocol and the writing rules: GET ${PLAYGROUND_BASE}/llms.txt on this server.`,
  "Saving a dashboard into a person's space is their own signed-in action; nothing here can do it.",
  "show_dashboard(handle, slug) shows a person's saved dashboard (/~/<handle>/<slug>) inline on their own data once they have connected this app to their account;",
  "someone else's is shown drawn by this site on their data (its code runs only in the service's contained browser, never in the host), and runs interactively only on this site, where they decide as themselves: give them its URL for that. Nothing here can trust, agree, save or change anything of theirs.",
].join(" ");

/** The playground's answer to this request, or the envelope: a body that is not JSON-RPC never reaches the SDK. */
export async function mcpAnswer(request: Request, source: McpSource): Promise<Response> {
  const parsedBody = await readJsonRpc(request);
  let viewer: SessionUser | null = null;
  if (source.dashboards) {
    const bearer = await bearerOf(request, source.dashboards);
    if (bearer.kind === "invalid") return challenge(request, source.dashboards, bearer.why);
    if (bearer.kind === "none" && callsPersonTool(parsedBody)) return challenge(request, source.dashboards, null);
    if (bearer.kind === "user") viewer = bearer.user;
  }
  const build = () => mcpServer(request, source, viewer);
  const asked = acceptingJson(request);
  if (await isLegacyRequest(asked, parsedBody)) return legacyAnswer(build(), asked, parsedBody);
  const handler: McpHttpHandler = createMcpHandler(build, { legacy: "reject", maxRequestBodySize: JSON_BODY_MAX, onerror: () => {} });
  try {
    return withLegacyVersions(await handler.fetch(asked, { parsedBody }));
  } finally {
    await handler.close();
  }
}

/** The revisions served after an initialize handshake; 2026-07-28 is served per request (`_meta`). */
const LEGACY_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/**
 * A version refusal (-32022) names every revision this endpoint speaks. The SDK's modern leg
 * knows only its own; a client that cannot speak 2026-07-28 learns here that initialize with
 * 2025-11-25 (or earlier) is served too.
 */
async function withLegacyVersions(response: Response): Promise<Response> {
  if (response.status !== 400 || !response.headers.get("content-type")?.includes("application/json")) return response;
  const text = await response.text();
  let body: { error?: { code?: number; data?: { supported?: unknown } } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return new Response(text, { status: response.status, headers: response.headers });
  }
  const supported = body.error?.data?.supported;
  if (body.error?.code === UNSUPPORTED_VERSION && Array.isArray(supported)) {
    body.error.data!.supported = [...new Set([...supported, ...LEGACY_VERSIONS])];
    return json(body, 400);
  }
  return new Response(text, { status: response.status, headers: response.headers });
}

const UNSUPPORTED_VERSION = -32022;

/**
 * A client of an initialize-era revision (2025-11-25 and before), served as before this revision:
 * statelessly, a server per request, answered as JSON (the SDK's own fallback would stream every
 * answer as events, which no client here needs).
 */
async function legacyAnswer(server: McpServer, request: Request, parsedBody: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
}

/**
 * The request as the SDK's transport wants it: that transport refuses (406, outside the error
 * envelope) a client that does not list both JSON and event streams in Accept, yet every answer
 * here is JSON, so what the client accepts changes nothing. Its body is already read.
 */
function acceptingJson(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set("accept", "application/json, text/event-stream");
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}

const NOT_JSON_RPC =
  `This is a Model Context Protocol server (Streamable HTTP, no sessions): POST JSON-RPC 2.0 messages as application/json, ` +
  `accepting application/json and text/event-stream, as an MCP client does. The protocol without MCP: ${PLAYGROUND_BASE}/llms.txt.`;

async function readJsonRpc(request: Request): Promise<unknown> {
  const text = await readTextBody(request, {
    type: "application/json",
    typeHint: NOT_JSON_RPC,
    // A tool call carries at most a draft, escaped as JSON: the bound of a draft's JSON body.
    max: JSON_BODY_MAX,
    tooLarge: { code: "draft_too_large", hint: `The body is over ${JSON_BODY_MAX} bytes; a draft's html may be at most ${DRAFT_HTML_MAX_BYTES} bytes (2 MiB).` },
    invalid: "invalid_request",
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_request", `The body is not JSON. ${NOT_JSON_RPC}`);
  }
  const messages = Array.isArray(value) ? value : [value];
  if (messages.length === 0 || !messages.every((m) => isJSONRPCRequest(m) || isJSONRPCNotification(m) || isJSONRPCResponse(m))) {
    throw new ApiError("invalid_request", `The body is JSON but not a JSON-RPC 2.0 message. ${NOT_JSON_RPC}`);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Tools

/**
 * MCP wants an object schema at the root of a tool's input and output; a schema the contract
 * names (meta id) is written as a bare $ref, so the tools use an unnamed copy of it.
 */
const unnamed = <S extends z.ZodObject>(schema: S) => schema.extend({});

/** A string argument's refusal in words: what it is when it is missing, and that it is a string otherwise. */
const required = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `required: ${what}` : `must be a string: ${what}`);

/** create_draft and check_html take what POST /draft takes; baseRevision has nothing to guard before a draft exists. */
const draftFields = draftInput.omit({ baseRevision: true });

const updateFields = draftUpdate
  // Fixed at creation: an update may only repeat it, which a tool caller has no reason to do.
  .omit({ dataMode: true })
  .extend({
    postUrl: z
      .string({ error: required("the postUrl create_draft answered, or the write token (its last segment)") })
      .meta({ description: "The postUrl create_draft answered (or the write token, its last segment). Never the watchUrl: a read id never writes." }),
  });

/** A draft to read: its read id or its watchUrl, named for what each is; either one. */
const readBy = {
  readId: z.string({ error: 'must be a string: the draft\'s read id, the `id` create_draft answered' }).optional().meta({ description: "The draft's read id: the `id` create_draft answered" }),
  watchUrl: z.string({ error: "must be a string: the watchUrl create_draft answered" }).optional().meta({ description: "Or the watchUrl create_draft answered" }),
};
const oneDraft = (v: { readId?: string; watchUrl?: string }) => (v.readId === undefined) !== (v.watchUrl === undefined);
const oneDraftMessage = { message: "required: readId (the `id` create_draft answered) or watchUrl, one of the two" };

const readFields = z.object(readBy).strict().refine(oneDraft, oneDraftMessage);

/** The read id a tool was given, by either name. */
const readIdOf = (v: { readId?: string; watchUrl?: string }) =>
  v.readId !== undefined ? capabilityOf(v.readId, READ_URL, "readId: pass the `id` create_draft answered.") : capabilityOf(v.watchUrl ?? "", READ_URL, "watchUrl: pass the watchUrl create_draft answered, or use readId.");

const reportRevision = "must be a positive integer: the revision whose reports to read (e.g. 2)";

const reportFields = z
  .object({
    ...readBy,
    revision: z
      .number({ error: reportRevision })
      .int(reportRevision)
      .min(1, reportRevision)
      .optional()
      .meta({ description: "The revision whose reports to read; the current one when left out" }),
  })
  .strict()
  .refine(oneDraft, oneDraftMessage);

const renderFields = renderInput.extend(readBy).strict().refine(oneDraft, oneDraftMessage);

/** How long show_draft, told a revision the caller has, waits for a newer one before answering the same. */
const FOLLOW_WAIT_MS = 25_000;

const showFields = z
  .object({
    ...readBy,
    afterRevision: z
      .number({ error: "must be a whole number: the revision already shown" })
      .int("must be a whole number: the revision already shown")
      .min(0, "must be a whole number: the revision already shown")
      .optional()
      .meta({ description: `The revision already shown: the answer waits (up to ${FOLLOW_WAIT_MS / 1000} s) for a newer one` }),
  })
  .strict()
  .refine(oneDraft, oneDraftMessage);

const demoReadFields = z
  .object({
    readId: z.string({ error: required("the shown draft's read id") }).meta({ description: "The shown draft's read id" }),
    method: z.string().optional().meta({ description: "The dashboard's method: GET, the only one answered" }),
    path: z.string({ error: required("the path the dashboard read, under its API base") }).meta({ description: "The path and query the dashboard read, under its API base (/dashboards/playground/api/...)" }),
  })
  .strict();

const endpointFields = z
  .object({
    path: z.string({ error: (issue) => (issue.input === undefined ? 'required: an API path such as "/cx/book"' : 'must be an API path, a string such as "/cx/book"') }).meta({
      description: "An API path relative to the API base, as listed (`/cx/book`, `/crm/:instance/companies`) or concrete (`/crm/customers/companies`); a query string is ignored",
    }),
  })
  .strict();

/** show_draft: the draft as watchers see it, without its document. */
const shownDraft = draftView.omit({ html: true }).extend({ htmlBytes: z.number().int().min(0).meta({ description: "The document's size in bytes" }) });

const reading: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const writing: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

const answers = (schema: z.ZodType) => `Answers:\n${describeShape(schema)}`;

type Bearer = { kind: "none" } | { kind: "invalid"; why: string } | { kind: "user"; user: SessionUser };

/** The person an Authorization header speaks for. A token is read from that header alone, never from a query or body. */
async function bearerOf(request: Request, source: BearerSource): Promise<Bearer> {
  const header = request.headers.get("authorization");
  if (header === null) return { kind: "none" };
  const m = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  if (!m) return { kind: "invalid", why: "Send the access token as Authorization: Bearer <token>." };
  const db = await source.db();
  const identity = await bearerIdentity(db, m[1]!, mcpResourceOf(request, source));
  const user = identity ? await loadUser(db, identity.userId) : null;
  return user ? { kind: "user", user } : { kind: "invalid", why: "The access token is unknown, expired, revoked or for another resource." };
}

function callsPersonTool(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).some((m) => {
    const msg = m as { method?: unknown; params?: { name?: unknown } };
    return msg.method === "tools/call" && typeof msg.params?.name === "string" && PERSON_TOOLS.has(msg.params.name);
  });
}

/**
 * The MCP authorization challenge (RFC 6750 §3, RFC 9728 §5.1): 401 naming the protected-resource
 * metadata, from which a client finds the authorization server and starts OAuth. The body is the
 * playground's envelope.
 */
function challenge(request: Request, source: BearerSource, invalid: string | null): Response {
  const params = [`resource_metadata="${resourceMetadataUrlOf(request, source)}"`, `scope="${OAUTH_SCOPE}"`];
  if (invalid !== null) params.push(`error="invalid_token"`, `error_description="${invalid.replace(/"/g, "'")}"`);
  const hint =
    invalid ??
    "show_dashboard acts as a signed-in person: connect this app to your Dashboards account (OAuth; the metadata is named in WWW-Authenticate). The draft tools need no account.";
  return json({ error: "unauthorized", hint }, 401, { "www-authenticate": `Bearer ${params.join(", ")}` });
}

function mcpServer(request: Request, { playground, log, dashboards }: McpSource, viewer: SessionUser | null): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, cacheHints: CACHE_HINTS });
  const say = log ?? ((line: string) => serverLog("error", line, { component: "mcp" }));
  const run = (answer: () => Response | Promise<Response>) => toolResult(answer, say);
  const caller = (path: string, body?: unknown) => callerRequest(request, path, body);

  server.registerTool(
    mcpToolOf("playground.checkDraft"),
    {
      title: "Check a dashboard without publishing it",
      description: [
        "The static check of a draft, creating and publishing nothing: the same fields, validation and findings as create_draft (POST /dashboards/playground/check).",
        "Fix `error` and `warning` findings; `info` is advice. `reads` are the API paths the code fetches: on a viewer's live data only these are answered, so write every path literally.",
        "A blank document is a finding here rather than a refusal.",
        answers(draftCheck),
      ].join(" "),
      inputSchema: draftFields,
      outputSchema: orRefusal(unnamed(draftCheck)),
      annotations: reading,
    },
    (input) => run(async () => (await playground()).check(caller(`${PLAYGROUND_BASE}/check`, input))),
  );

  server.registerTool(
    mcpToolOf("playground.createDraft"),
    {
      title: "Create a draft dashboard",
      description: [
        "Publish a new draft: `html` is ONE self-contained HTML document (inline scripts and styles; data from the API base the page gives it).",
        "It renders live, on demo data unless dataMode is `live`, for whoever opens watchUrl (POST /dashboards/playground/draft).",
        "Keep postUrl to yourself: it carries the write token. Give the human watchUrl: it can only read.",
        "`warnings` are check_html's findings; revision is 1.",
        answers(draftCreated),
      ].join(" "),
      inputSchema: draftFields,
      outputSchema: orRefusal(unnamed(draftCreated)),
      annotations: writing,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    (input) => run(async () => (await playground()).create(caller(`${PLAYGROUND_BASE}/draft`, input))),
  );

  server.registerTool(
    mcpToolOf("playground.updateDraft"),
    {
      title: "Update a draft",
      description: [
        "Change a draft through its postUrl; every watcher sees the new revision at once (POST to postUrl).",
        "Partial: a field sent replaces its value, null clears it (scenario back to `default`, no forced examples, no dash), a field left out keeps its value; send at least one of html, scenario, examples and dash.",
        "Each accepted update is the next revision. A blank document is refused and publishes nothing.",
        "baseRevision refuses the update when someone else updated first (revision_conflict: the hint names the current revision, and the refusal's structured content carries it as currentRevision).",
        answers(draftUpdated),
      ].join(" "),
      inputSchema: updateFields,
      outputSchema: orRefusal(unnamed(draftUpdated)),
      annotations: writing,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    ({ postUrl, ...update }) =>
      run(async () => {
        const token = capabilityOf(postUrl, WRITE_URL, "postUrl: pass the postUrl create_draft answered, or its last segment (the write token). A watchUrl carries only the read id, which never writes.");
        return (await playground()).update(caller(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(token)}`, update), token);
      }),
  );

  server.registerTool(
    mcpToolOf("playground.readDraft"),
    {
      title: "Read a draft as its watchers see it",
      description: ["The current revision of a draft by its watchUrl or read id, with its stored findings and reads (GET /dashboards/playground/draft/<read_id>).", answers(draftView)].join(" "),
      inputSchema: readFields,
      outputSchema: orRefusal(unnamed(draftView)),
      annotations: reading,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    (by) =>
      run(async () => {
        const id = readIdOf(by);
        return (await playground()).read(caller(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}`), id);
      }),
  );

  server.registerTool(
    mcpToolOf("playground.renderReports"),
    {
      title: "Read what browsers saw rendering a draft",
      description: [
        "The render reports of one revision of a demo-mode draft, newest first (GET /dashboards/playground/draft/<read_id>/reports): uncaught errors and rejections with their line and column in your HTML, console.error lines, requests the broker or the frame refused, and the requests made with status and time.",
        "A report arrives when someone opens watchUrl (or watchUrl?static=1, which renders once, e.g. for a screenshot); none yet is an empty list. Live drafts never report (409 reports_demo_only).",
        answers(renderReports),
      ].join(" "),
      inputSchema: reportFields,
      outputSchema: orRefusal(unnamed(renderReports)),
      annotations: reading,
    },
    ({ revision, ...by }) =>
      run(async () => {
        const id = readIdOf(by);
        const query = revision === undefined ? "" : `?revision=${revision}`;
        return (await playground()).reports.list(caller(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}/reports${query}`), id);
      }),
  );

  server.registerTool(
    mcpToolOf("playground.render"),
    {
      title: "Render a draft in the service's own browser, and see it",
      description: [
        "The service draws one revision of a demo-mode draft in its own headless Chromium, through the same frame and broker a watcher gets, and answers a PNG of the whole dashboard (as image content) with the render report (POST /dashboards/playground/draft/<read_id>/render).",
        "Choose the viewport (`desktop` 1280 wide, `phone` 390 wide), the demo state (`scenario`, `examples`) and the page parameters (`params`, what ?p.<name>=<value> gives window.DASHBOARD_PARAMS) to see every state; each revision, viewport, state and parameter set is drawn once and kept.",
        "The report is the service's own (`source.kind` `service`): no report posted from outside displaces it. Live drafts are never rendered (409 render_demo_only); a deployment without a browser answers 503 renderer_not_configured.",
        answers(renderAnswer),
      ].join(" "),
      inputSchema: renderFields,
      outputSchema: orRefusal(unnamed(renderAnswer)),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ readId, watchUrl, ...input }) =>
      renderResult(async () => {
        const id = readIdOf({ readId, watchUrl });
        const p = await playground();
        const response = await p.renders.render(caller(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}/render`, input), id);
        if (!response.ok) return { response };
        const answer = renderAnswer.parse(await response.json());
        const file = new URL(answer.picture.url).pathname.split("/").pop() ?? "";
        const picture = await p.renders.picture(caller(new URL(answer.picture.url).pathname), id, file);
        return { answer, png: picture.ok ? new Uint8Array(await picture.arrayBuffer()) : null };
      }, say),
  );

  server.registerTool(
    mcpToolOf("playground.scenarios"),
    {
      title: "List the demo scenarios and variants",
      description:
        "The demo scenarios (choose one per draft with `scenario`), the default, and every API path with its demo variants (force one per path with `examples`), as GET /dashboards/playground/scenarios answers them.",
      outputSchema: orRefusal(unnamed(scenariosBodySchema)),
      annotations: reading,
    },
    () => run(() => json(scenariosBody())),
  );

  server.registerTool(
    mcpToolOf("playground.endpoints"),
    {
      title: "Describe one API endpoint",
      description: [
        "One API endpoint as GET /dashboards/playground/endpoints describes it: path values, query parameters (JSON Schema; values are sent as strings), the 200 body's JSON Schema, its errors and permission,",
        "with its demo variants, the error envelope and the conventions that apply to it (the CX wrapper, cursor paging).",
        `Paths: ${endpoints.map((e) => e.path).join(", ")}.`,
      ].join(" "),
      inputSchema: endpointFields,
      outputSchema: orRefusal(endpointDescriptionSchema),
      annotations: reading,
    },
    ({ path }) => run(() => json(describeEndpoint(path))),
  );

  server.registerTool(
    mcpToolOf("playground.draftEvents"),
    {
      title: "Show a draft inline",
      description: [
        "Show the human a draft in the conversation, following its revisions: a host that renders MCP Apps draws the dashboard on its demo data under this result, and each later update_draft reaches it within a second.",
        "Hosts without MCP Apps get the draft's revision and state in text; give the human its watchUrl instead. create_draft, update_draft and read_draft show it the same way.",
        `With afterRevision (the inline view passes it), the answer waits up to ${FOLLOW_WAIT_MS / 1000} s for a newer revision.`,
      ].join(" "),
      inputSchema: showFields,
      outputSchema: orRefusal(shownDraft),
      annotations: reading,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    ({ afterRevision, ...by }) =>
      run(async () => {
        const id = readIdOf(by);
        const p = await playground();
        const readNow = () => p.read(caller(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}`), id);
        // Registered before the read, so a revision written in between is not missed; ended with
        // the caller's request, or as soon as the read shows a newer revision already.
        const stop = new AbortController();
        let next: Promise<number | null> | null = null;
        if (afterRevision !== undefined) {
          // Revisions written on other instances reach this one's hub only while it listens.
          await p.listening();
          next = p.hub.nextRevision(id, afterRevision, FOLLOW_WAIT_MS, AbortSignal.any([request.signal, stop.signal]));
        }
        try {
          let read = await readNow();
          if (!read.ok) return read;
          let view = draftView.parse(await read.json());
          if (next && afterRevision !== undefined && view.revision <= afterRevision && (await next) !== null) {
            read = await readNow();
            if (!read.ok) return read;
            view = draftView.parse(await read.json());
          }
          const { html, ...shown } = view;
          return json({ ...shown, htmlBytes: Buffer.byteLength(html) });
        } finally {
          stop.abort();
        }
      }),
  );

  server.registerTool(
    mcpToolOf("playground.demoApi"),
    {
      title: "Read demo data for a shown draft",
      description:
        "For the inline view of a draft (MCP Apps): one read the dashboard makes, checked as the browser's broker checks it and answered from the demo API with the draft's own scenario and variants, as {status, contentType, body}.",
      inputSchema: demoReadFields,
      outputSchema: orRefusal(relayedRead),
      annotations: reading,
      // Called by the view, never by the model.
      _meta: { ui: { visibility: ["app"] } },
    },
    ({ readId, method, path }) => demoDataResult(async () => {
      const check = checkBrokerRequest(method ?? "GET", path, PLAYGROUND_API_BASE);
      if (!check.ok) return envelopeOf(check.status, check.error, check.hint);
      const id = capabilityOf(readId, READ_URL, "readId: pass the draft's read id.");
      const p = await playground();
      const read = await p.read(caller(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}`), id);
      if (!read.ok) return read;
      const view = draftView.parse(await read.json());
      if (view.dataMode !== "demo") return envelopeOf(403, "live_not_granted", "A live draft's data is shown only in a browser whose signed-in viewer agreed to it.");
      const upstream = demoReadPath(check.pathname, check.search, check.endpoint, view);
      const q = upstream.indexOf("?");
      return p.demoApi(caller(`${PLAYGROUND_API_BASE}${upstream}`), q === -1 ? upstream : upstream.slice(0, q));
    }, say),
  );

  if (dashboards) {
    registerDashboardTools(server, request, viewer, dashboards, () => trustedOrigin(request, dashboards.publicOrigin, dashboards.allowedHosts));
    server.registerResource(
      "dashboard-view",
      DASHBOARD_VIEW_URI,
      { title: "Saved dashboard", description: "A saved dashboard inline on the viewer's live data: their own, or a trusted author's, running; anyone else's drawn by this site as an inert document (MCP Apps).", mimeType: MCP_APP_MIME_TYPE, _meta: DRAFT_VIEW_RESOURCE_META },
      () => ({ contents: [{ uri: DASHBOARD_VIEW_URI, mimeType: MCP_APP_MIME_TYPE, text: dashboardViewHtml(), _meta: DRAFT_VIEW_RESOURCE_META }] }),
    );
  }

  server.registerResource(
    "draft-view",
    DRAFT_VIEW_URI,
    { title: "Dashboard draft", description: "A draft dashboard drawn inline on its demo data, following its revisions (MCP Apps).", mimeType: MCP_APP_MIME_TYPE, _meta: DRAFT_VIEW_RESOURCE_META },
    () => ({ contents: [{ uri: DRAFT_VIEW_URI, mimeType: MCP_APP_MIME_TYPE, text: draftViewHtml(), _meta: DRAFT_VIEW_RESOURCE_META }] }),
  );

  return server;
}

const envelopeOf = (status: number, error: string, hint: string) => json({ error, hint }, status);

/** The route's answer, or the envelope an unexpected failure answers over HTTP (logged with its stack). */
async function responseOf(answer: () => Response | Promise<Response>, log: (line: string) => void): Promise<Response> {
  try {
    return await answer();
  } catch (err) {
    return fromThrown(err, (e) => log(`unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
  }
}

/** A demo read for the inline view: the demo API's answer, whatever its status, as fields the view hands to the dashboard. */
async function demoDataResult(answer: () => Response | Promise<Response>, log: (line: string) => void): Promise<CallToolResult> {
  const response = await responseOf(answer, log);
  const body = await response.text();
  const read = { status: response.status, contentType: response.headers.get("content-type") ?? "application/json", body };
  return { content: [{ type: "text", text: `${read.status} ${body.slice(0, 200)}` }], structuredContent: read };
}

/** A route's answer as a tool result: the body as JSON text and structured content, or the envelope as `code: hint`. */
async function toolResult(answer: () => Response | Promise<Response>, log: (line: string) => void): Promise<CallToolResult> {
  const response = await responseOf(answer, log);
  // Read to the end: a large read holds one of the caller's read slots until its last byte.
  const text = await response.text();
  if (!response.ok) {
    const envelope = JSON.parse(text) as { error: string; hint?: string };
    const words = envelope.hint ? `${envelope.error}: ${envelope.hint}` : envelope.error;
    // What a refusal names as a number in its headers is a field too, so an agent need not read
    // it out of words; every tool's output schema admits the refusal (orRefusal).
    const current = Number(response.headers.get("x-current-revision") ?? NaN);
    const retryAfter = Number(response.headers.get("retry-after") ?? NaN);
    const refusal = {
      ...envelope,
      ...(Number.isInteger(current) && current >= 1 ? { currentRevision: current } : {}),
      ...(Number.isInteger(retryAfter) && retryAfter >= 0 ? { retryAfter } : {}),
    };
    const said = Object.keys(refusal).length === Object.keys(envelope).length ? words : `${words}\n${JSON.stringify(refusal)}`;
    return { content: [{ type: "text", text: said }], structuredContent: refusal, isError: true };
  }
  return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
}

/** A render as a tool result: the picture as image content beside the answer, or the envelope as text. */
async function renderResult(
  render: () => Promise<{ response: Response } | { answer: RenderAnswer; png: Uint8Array | null }>,
  log: (line: string) => void,
): Promise<CallToolResult> {
  let done: Awaited<ReturnType<typeof render>>;
  try {
    done = await render();
  } catch (err) {
    done = { response: fromThrown(err, (e) => log(`unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)) };
  }
  if ("response" in done) return toolResult(() => done.response, log);
  const { answer, png } = done;
  const summary = `Revision ${answer.revision} at ${answer.viewport} (${answer.picture.width}×${answer.picture.height}), scenario ${answer.scenario}: ${answer.report.errors.length} error(s), ${answer.report.refusals.length} refusal(s), ${answer.report.settled ? "settled" : "not settled"}. Picture: ${answer.picture.url}`;
  return {
    content: [
      ...(png ? [{ type: "image" as const, data: Buffer.from(png).toString("base64"), mimeType: "image/png" }] : []),
      { type: "text", text: `${summary}\n${JSON.stringify(answer)}` },
    ],
    structuredContent: answer as unknown as Record<string, unknown>,
  };
}

/** The Request the playground's route would have received from this caller. */
function callerRequest(request: Request, path: string, body?: unknown): Request {
  const headers = new Headers();
  for (const name of CALLER_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  if (body === undefined) return new Request(new URL(path, request.url), { method: "GET", headers });
  headers.set("content-type", "application/json");
  return new Request(new URL(path, request.url), { method: "POST", headers, body: JSON.stringify(body) });
}

const WRITE_URL = new RegExp(`^${PLAYGROUND_BASE}/draft/([^/]+)$`);
const READ_URL = new RegExp(`^${PLAYGROUND_BASE}/(?:watch/([^/]+)|draft/([^/]+)(?:/events|/revisions)?)$`);

/**
 * The capability a URL the playground handed out carries (its path's token segment), or the
 * value itself when it is not a URL. The playground then decides, as for any request, whether
 * the draft exists; no origin is checked, since the address an agent was given may be a proxy's.
 */
function capabilityOf(value: string, shape: RegExp, hint: string): string {
  const trimmed = value.trim();
  if (!trimmed.includes("/")) return trimmed;
  const match = shape.exec(new URL(trimmed, "http://localhost").pathname);
  const segment = match?.slice(1).find((s) => s !== undefined);
  if (segment === undefined) throw new ApiError("invalid_request", hint);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

// ---------------------------------------------------------------------------------------------
// describe_endpoint

function describeEndpoint(raw: string) {
  let path = new URL(raw.trim(), "http://localhost/").pathname;
  for (const base of [PLAYGROUND_API_BASE, "/api"]) {
    if (path.startsWith(`${base}/`)) {
      path = path.slice(base.length);
      break;
    }
  }
  const body = endpointsBody();
  const id = endpoints.find((e) => e.path === path)?.id ?? matchPath(path)?.endpoint.id;
  const endpoint = body.endpoints.find((e) => e.id === id);
  if (!endpoint) {
    throw new ApiError("not_found", `No API endpoint at ${JSON.stringify(raw.slice(0, 200))}. The endpoints: ${endpoints.map((e) => e.path).join(", ")}.`);
  }
  const notes = [
    ...(endpoint.tag === "cx" ? [body.cxWrapper] : []),
    ...(endpoint.pagedList !== undefined ? [body.paging] : []),
    body.snapshot,
  ];
  return {
    apiBase: body.apiBase,
    liveApiBase: body.liveApiBase,
    endpoint,
    demoVariants: scenariosBody().paths.find((p) => p.path === endpoint.path)?.variants ?? [],
    errorEnvelope: body.errorEnvelope,
    notes,
  };
}
