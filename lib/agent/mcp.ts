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
import { queryFacts } from "@/lib/contract/query-facts";
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
import { readTextBody, withHeaders } from "@/lib/http/edge";
import { trustedOrigin } from "@/lib/http/origin";
import { JSON_CONTENT_TYPE, fromThrown, json, stringify } from "@/lib/http/respond";
import { demoApiResponse, scenariosBody } from "@/lib/demo-api/answers";
import { defaultScenario } from "@/lib/demo-api/data";
import { endpointDescriptionSchema, scenariosBodySchema } from "@/lib/contract/playground-bodies";
import { endpointsBody } from "@/lib/demo-api/endpoints-doc";
import { orRefusal, plainInput, relayedRead } from "@/lib/contract/mcp-outputs";
import { DASHBOARD_VIEW_URI, DRAFT_VIEW_RESOURCE_META, DRAFT_VIEW_TOOL_META, DRAFT_VIEW_URI, MCP_APP_MIME_TYPE, RULES_URI, STATES_URI, dashboardViewHtml, draftViewHtml } from "./mcp-app";
import { registerDashboardTools, type DashboardSource } from "./mcp-dashboard";
import { OAUTH_SCOPE, bearerIdentity } from "@/lib/auth/oauth";
import { loadUser, type SessionUser } from "@/lib/auth/session";
import type { Db } from "@/lib/db";
import { mcpResourceOf, resourceMetadataUrlOf } from "@/lib/signin/oauth-routes";
import type { Playground } from "@/lib/playground/service";
import { JSON_BODY_MAX, draftInputOf, draftUpdateOf, renderInputOf, reportsQuery } from "@/lib/playground/stages";
import { serverLog } from "@/lib/http/server-log";

// POST /dashboards/playground/mcp: the playground's agent loop as Model Context Protocol tools,
// over Streamable HTTP without sessions (a server per request), in both eras of the protocol: a
// request that names its revision in `_meta` is served by the SDK's 2026-07-28 handler (discover,
// resultType, cache hints, the Mcp-Method and Mcp-Name headers checked against the body, -32022
// for a revision it does not speak); an initialize-era request (2025-11-25 and before) by the
// streamable transport as before, answered as JSON. One server factory serves both.
//
// A tool is not a second implementation of the playground: each one runs its operation's stages
// (lib/playground/stages.ts) on the MCP request, whose address, Host and browser headers are the
// caller's, reads its arguments into the operation's typed input as the route reads a body, and
// calls the same Playground operation. So an MCP caller spends the same per-address allowances,
// meets the same origin checks and gets the same refusals as an HTTP caller; a refusal comes
// back as a tool result with `isError` and the envelope's code and hint as its text, which an
// agent reads and acts on, rather than as a protocol error it cannot.

export interface McpSource {
  playground: () => Promise<Playground>;
  log?: (line: string) => void;
  /** The writing rules and the states table (Markdown), served as resources (the rules also as the write_dashboard prompt): the text llms.txt prints. */
  rules: { rules: () => string; states: () => string };
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
  `Read the writing rules first: the resource ${RULES_URI} (or the prompt write_dashboard).`,
  "The loop: check_html until no error or warning finding is left; create_draft; give the human watchUrl (never postUrl, your write token); render_draft at desktop and phone; update_draft with only what changes.",
  "Saving into a person's space is their own action.",
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
  const asked = acceptingJson(request);
  const legacy = await isLegacyRequest(asked, parsedBody);
  const build = () => mcpServer(request, source, viewer, legacy);
  if (legacy) return legacyAnswer(build(), asked, parsedBody);
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
  return withHeaders(request, { accept: "application/json, text/event-stream" });
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
      .meta({ description: "The postUrl create_draft answered (or its last segment, the write token)" }),
  });

/** A draft to read: its read id or its watchUrl, named for what each is; either one. */
const readBy = {
  readId: z.string({ error: 'must be a string: the draft\'s read id, the `id` create_draft answered' }).optional().meta({ description: "The `id` create_draft answered" }),
  watchUrl: z.string({ error: "must be a string: the watchUrl create_draft answered" }).optional().meta({ description: "Or its watchUrl" }),
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
    readId: z.string({ error: "must be a string: the draft's read id" }).optional().meta({ description: "A draft's id: its demo state answers" }),
    scenario: z.string({ error: "must be a string: a scenario list_scenarios names" }).optional().meta({ description: "Or a scenario" }),
    method: z.string().optional().meta({ description: "GET" }),
    path: z.string({ error: required("the API path and query, as the dashboard writes it") }).meta({ description: "As after the API base: `/cx/book?owner=…`" }),
    asFetched: z.boolean().optional().meta({ description: "The inline view's: path as fetched" }),
  })
  .strict()
  .refine((v) => !(v.readId !== undefined && v.scenario !== undefined), { message: "readId or scenario, not both: a draft's read answers with its own scenario" });

const endpointFields = z
  .object({
    path: z.string({ error: (issue) => (issue.input === undefined ? 'required: an API path such as "/cx/book"' : 'must be an API path, a string such as "/cx/book"') }).meta({
      description: "As listed (`/crm/:instance/companies`) or concrete (`/crm/customers/companies`)",
    }),
    schemas: z.boolean({ error: "must be true or false" }).optional().meta({ description: "Add the JSON Schemas" }),
  })
  .strict();

/** show_draft: the draft as watchers see it, without its document. */
const shownDraft = draftView.omit({ html: true }).extend({ htmlBytes: z.number().int().min(0).meta({ description: "The document's size in bytes" }) });

const reading: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const writing: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

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

function mcpServer(request: Request, { playground, log, dashboards, rules }: McpSource, viewer: SessionUser | null, legacy: boolean): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, cacheHints: CACHE_HINTS });
  const say = log ?? ((line: string) => serverLog("error", line, { component: "mcp" }));
  // A 2026-07-28 client reads structuredContent, so the text beside it is a summary rather than
  // a second copy of the answer; an initialize-era client may read the text alone and gets it whole.
  const run = (answer: () => Promise<ToolAnswer>) => toolResult(answer, say, legacy);
  /** A draft as its watchers read it: one of the caller's reads, the same as GET /draft/<read_id>. */
  const readDraft = async (p: Playground, id: string) => {
    await p.stages.read(request, id);
    const held = await p.read(id, p.stages.address(request));
    try {
      return new TextDecoder().decode(held.bytes);
    } finally {
      held.release();
    }
  };

  server.registerTool(
    mcpToolOf("playground.checkDraft"),
    {
      title: "Check a dashboard without publishing it",
      description:
        "The static check, publishing nothing: `warnings` (fix `error` and `warning`; `info` is advice) and `reads`, the API paths the code fetches.",
      inputSchema: plainInput(draftFields),
      outputSchema: orRefusal(unnamed(draftCheck)),
      annotations: reading,
    },
    (input) =>
      run(async () => {
        const p = await playground();
        p.stages.draftCheck(request);
        await p.stages.spend("checks", request);
        return { value: p.check(draftInputOf(input)) };
      }),
  );

  server.registerTool(
    mcpToolOf("playground.createDraft"),
    {
      title: "Create a draft dashboard",
      description:
        "Publish a new draft (revision 1) of ONE self-contained HTML document, on demo data unless dataMode is `live`. Answers postUrl (your write token: keep it) and watchUrl (give it to the human), with the check's `warnings`.",
      inputSchema: plainInput(draftFields),
      outputSchema: orRefusal(unnamed(draftCreated)),
      annotations: writing,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    (input) =>
      run(async () => {
        const p = await playground();
        const origin = p.stages.draftWrite(request);
        await p.stages.spend("creates", request);
        return { value: await p.create(draftInputOf(input), origin) };
      }),
  );

  server.registerTool(
    mcpToolOf("playground.updateDraft"),
    {
      title: "Update a draft",
      description:
        "The next revision of a draft, through its postUrl; watchers see it at once. A field sent replaces its value, null clears it, one left out is kept; baseRevision refuses a stale update.",
      inputSchema: plainInput(updateFields),
      outputSchema: orRefusal(unnamed(draftUpdated)),
      annotations: writing,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    ({ postUrl, ...update }) =>
      run(async () => {
        const token = capabilityOf(postUrl, WRITE_URL, "postUrl: pass the postUrl create_draft answered, or its last segment (the write token). A watchUrl carries only the read id, which never writes.");
        const p = await playground();
        const origin = p.stages.draftWrite(request);
        await p.stages.update(token);
        return { value: await p.update(token, draftUpdateOf(update), origin) };
      }),
  );

  server.registerTool(
    mcpToolOf("playground.readDraft"),
    {
      title: "Read a draft as its watchers see it",
      description:
        "The current revision of a draft by its watchUrl or read id, with its findings and reads.",
      inputSchema: plainInput(readFields),
      outputSchema: orRefusal(unnamed(draftView)),
      annotations: reading,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    (by) =>
      run(async () => {
        const id = readIdOf(by);
        return { text: await readDraft(await playground(), id) };
      }),
  );

  server.registerTool(
    mcpToolOf("playground.renderReports"),
    {
      title: "Read what browsers saw rendering a draft",
      description:
        "What browsers saw rendering a revision of a demo draft: errors with their line in your HTML, console.error lines, refused requests, requests made.",
      inputSchema: plainInput(reportFields),
      outputSchema: orRefusal(unnamed(renderReports)),
      annotations: reading,
    },
    ({ revision, ...by }) =>
      run(async () => {
        const id = readIdOf(by);
        const p = await playground();
        await p.stages.read(request, id);
        // The revision as GET …/reports?revision= takes it, so it is refused in the same words.
        const query = reportsQuery(new URLSearchParams(revision === undefined ? "" : `revision=${revision}`));
        return { value: await p.reports.list(id, query) };
      }),
  );

  server.registerTool(
    mcpToolOf("playground.render"),
    {
      title: "Render a draft in the service's own browser, and see it",
      description:
        "The service draws one revision of a demo draft in its own browser and answers a PNG of the whole dashboard (image content) with the render report. Choose `viewport` (`desktop`, `phone`), the state (`scenario`, `examples`) and page `params`; each combination is drawn once and kept.",
      inputSchema: plainInput(renderFields),
      outputSchema: orRefusal(unnamed(renderAnswer)),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ readId, watchUrl, ...input }) =>
      renderResult(async () => {
        const id = readIdOf({ readId, watchUrl });
        const p = await playground();
        const origin = p.stages.render(request);
        p.stages.capability(id);
        const address = p.stages.address(request);
        // In the contract's field order, as the route's answer reads back.
        const answer = renderAnswer.parse(await p.renders.render(id, renderInputOf(input), { origin, address }));
        // Its picture, read as GET on its url is: one of the caller's reads.
        const file = new URL(answer.picture.url).pathname.split("/").pop() ?? "";
        await p.stages.spend("reads", request);
        const { png } = await p.renders.picture(id, file, address);
        return { answer, png };
      }, say, legacy),
  );

  server.registerTool(
    mcpToolOf("playground.scenarios"),
    {
      title: "List the demo scenarios and variants",
      description:
        "The demo scenarios (a draft's `scenario`), the default, and every API path with its variants (a draft's `examples`).",
      outputSchema: orRefusal(unnamed(scenariosBodySchema)),
      annotations: reading,
    },
    () => run(async () => ({ value: scenariosBody() })),
  );

  server.registerTool(
    mcpToolOf("playground.endpoints"),
    {
      title: "Describe one API endpoint",
      description:
        `An API endpoint's query parameters with their limits, its answer's shape, errors and demo variants. Paths: ${endpoints.map((e) => e.path).join(", ")}.`,
      inputSchema: plainInput(endpointFields),
      outputSchema: orRefusal(endpointDescriptionSchema),
      annotations: reading,
    },
    ({ path, schemas }) => run(async () => ({ value: describeEndpoint(path, schemas === true) })),
  );

  server.registerTool(
    mcpToolOf("playground.draftEvents"),
    {
      title: "Show a draft inline",
      description:
        `Show the human a draft inline, following its revisions (MCP Apps; elsewhere give them watchUrl). afterRevision waits up to ${FOLLOW_WAIT_MS / 1000} s for a newer one.`,
      inputSchema: plainInput(showFields),
      outputSchema: orRefusal(shownDraft),
      annotations: reading,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    ({ afterRevision, ...by }) =>
      run(async () => {
        const id = readIdOf(by);
        const p = await playground();
        const readNow = async () => draftView.parse(JSON.parse(await readDraft(p, id)));
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
          let view = await readNow();
          if (next && afterRevision !== undefined && view.revision <= afterRevision && (await next) !== null) view = await readNow();
          const { html, ...shown } = view;
          return { value: { ...shown, htmlBytes: Buffer.byteLength(html) } };
        } finally {
          stop.abort();
        }
      }),
  );

  server.registerTool(
    mcpToolOf("playground.demoApi"),
    {
      title: "Read demo data",
      description:
        "One demo-API read as a dashboard makes it, in a draft's demo state (readId) or a scenario's: {status, contentType, body}.",
      inputSchema: plainInput(demoReadFields),
      outputSchema: orRefusal(relayedRead),
      annotations: reading,
      // The inline view relays its dashboard's reads here; an agent may look at the data too.
      _meta: { ui: { visibility: ["model", "app"] } },
    },
    ({ readId, scenario, method, path, asFetched }) => demoDataResult(async () => {
      // The view relays a dashboard's read as the watch page's broker would answer it, so the
      // inline view shows what a watcher sees; an agent may leave out the API base.
      const check = checkBrokerRequest(method ?? "GET", asFetched ? path : underApiBase(path), PLAYGROUND_API_BASE);
      if (!check.ok) return envelopeOf(check.status, check.error, check.hint);
      const p = await playground();
      let state: { scenario?: string; examples?: Readonly<Record<string, string>> };
      if (readId !== undefined) {
        const id = capabilityOf(readId, READ_URL, "readId: pass the draft's read id.");
        const view = draftView.parse(JSON.parse(await readDraft(p, id)));
        if (view.dataMode !== "demo") return envelopeOf(403, "live_not_granted", "A live draft's data is shown only in a browser whose signed-in viewer agreed to it.");
        state = view;
      } else {
        state = { scenario: scenario ?? defaultScenario };
      }
      const upstream = demoReadPath(check.pathname, check.search, check.endpoint, state);
      const q = upstream.indexOf("?");
      // The same allowance as GET /api/<path>: the app's demo-API route spends it too.
      p.demoReads.spend(request);
      return { relayed: demoApiResponse({ path: q === -1 ? upstream : upstream.slice(0, q), search: new URL(`${PLAYGROUND_API_BASE}${upstream}`, "http://localhost").searchParams }) };
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

  server.registerResource(
    "rules",
    RULES_URI,
    { title: "Writing a dashboard", description: "The rules a dashboard follows: read before the first check_html.", mimeType: "text/markdown" },
    () => ({ contents: [{ uri: RULES_URI, mimeType: "text/markdown", text: rules.rules() }] }),
  );
  server.registerResource(
    "states",
    STATES_URI,
    { title: "States to render", description: "What a dashboard shows in each demo state: empty, waiting, signed out, no access, not connected, outage.", mimeType: "text/markdown" },
    () => ({ contents: [{ uri: STATES_URI, mimeType: "text/markdown", text: rules.states() }] }),
  );
  server.registerPrompt(
    "write_dashboard",
    {
      title: "Write a dashboard",
      description: "The writing rules, then the task: start a dashboard with them in hand.",
      argsSchema: z.object({ task: z.string().optional().meta({ description: "What the dashboard is for" }) }),
    },
    ({ task }) => ({
      messages: [{ role: "user", content: { type: "text", text: `${rules.rules()}${task ? `\n## The task\n\n${task}\n` : ""}` } }],
    }),
  );

  return server;
}

const envelopeOf = (status: number, error: string, hint: string) => json({ error, hint }, status);

/** An operation's answer as a tool hands it on: the value, or its JSON text as the route writes it (a draft's stored JSON). */
type ToolAnswer = { value: unknown } | { text: string };

const logThrown = (log: (line: string) => void) => (e: unknown) => log(`unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);

/**
 * A demo read: the demo API's answer, whatever its status, as fields the view hands to the
 * dashboard. A read refused before it reached the API (a write, a path outside it, an unknown
 * draft, a spent allowance) is the tool's own error, with the status a browser's broker would
 * have answered.
 */
async function demoDataResult(answer: () => Promise<{ relayed: { status: number; body: unknown } } | Response>, log: (line: string) => void): Promise<CallToolResult> {
  let done: { relayed: { status: number; body: unknown } } | Response;
  try {
    done = await answer();
  } catch (err) {
    done = fromThrown(err, logThrown(log));
  }
  if (done instanceof Response) {
    const status = done.status;
    const result = await refusalResult(done);
    return { ...result, structuredContent: { ...(result.structuredContent as Record<string, unknown>), status } };
  }
  const body = stringify(done.relayed.body);
  const read = { status: done.relayed.status, contentType: JSON_CONTENT_TYPE, body };
  return { content: [{ type: "text", text: `${read.status} ${body.slice(0, 200)}` }], structuredContent: read };
}

/**
 * An operation's answer as a tool result: structured content, beside the body as JSON text for
 * an initialize-era client (`whole`) or a short summary for one that reads structured content;
 * a refusal as `code: hint` with the envelope as structured content.
 */
async function toolResult(answer: () => Promise<ToolAnswer>, log: (line: string) => void, whole: boolean): Promise<CallToolResult> {
  let text: string;
  try {
    const done = await answer();
    text = "text" in done ? done.text : stringify(done.value);
  } catch (err) {
    return refusalResult(fromThrown(err, logThrown(log)));
  }
  const structured = JSON.parse(text) as Record<string, unknown>;
  return { content: [{ type: "text", text: whole ? text : summaryOf(structured) }], structuredContent: structured };
}

/** A refusal, the envelope an HTTP caller would have been answered, as a tool result. */
async function refusalResult(response: Response): Promise<CallToolResult> {
  const envelope = JSON.parse(await response.text()) as { error: string; hint?: string };
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

/**
 * An answer in a few lines, for a client that reads the answer itself from structured content:
 * each scalar field, the size of each list (and a finding's words, which an agent acts on), and
 * the names of the fields an object holds.
 */
function summaryOf(answer: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(answer)) {
    if (value === null || typeof value !== "object") {
      const shown = typeof value === "string" && value.length > SUMMARY_STRING_MAX ? `(${value.length} characters)` : JSON.stringify(value);
      lines.push(`${key}: ${shown}`);
    } else if (Array.isArray(value)) {
      lines.push(`${key}: ${value.length} item${value.length === 1 ? "" : "s"}`);
      for (const item of value.slice(0, SUMMARY_FINDINGS_MAX)) {
        const f = item as { severity?: unknown; message?: unknown; line?: unknown };
        if (typeof f?.message === "string") lines.push(`  - ${typeof f.severity === "string" ? `${f.severity} ` : ""}${typeof f.line === "number" ? `line ${f.line}: ` : ""}${f.message}`);
      }
    } else {
      lines.push(`${key}: {${Object.keys(value).join(", ")}}`);
    }
  }
  return `${lines.join("\n")}\n(The whole answer is the structured content.)`;
}

const SUMMARY_STRING_MAX = 120;
const SUMMARY_FINDINGS_MAX = 20;

/** A render as a tool result: the picture as image content beside the answer, or the envelope as text. */
async function renderResult(render: () => Promise<{ answer: RenderAnswer; png: Uint8Array | null }>, log: (line: string) => void, whole: boolean): Promise<CallToolResult> {
  let done: Awaited<ReturnType<typeof render>>;
  try {
    done = await render();
  } catch (err) {
    return refusalResult(fromThrown(err, logThrown(log)));
  }
  const { answer, png } = done;
  const summary = `Revision ${answer.revision} at ${answer.viewport} (${answer.picture.width}×${answer.picture.height}), scenario ${answer.scenario}: ${answer.report.errors.length} error(s), ${answer.report.refusals.length} refusal(s), ${answer.report.settled ? "settled" : "not settled"}. Picture: ${answer.picture.url}`;
  return {
    content: [
      ...(png ? [{ type: "image" as const, data: Buffer.from(png).toString("base64"), mimeType: "image/png" }] : []),
      { type: "text", text: whole ? `${summary}\n${JSON.stringify(answer)}` : summary },
    ],
    structuredContent: answer as unknown as Record<string, unknown>,
  };
}

/**
 * A read as an agent writes it, under the demo API's base: `/cx/book?owner=…` is relative to
 * the API base, as an endpoint's path is listed.
 */
function underApiBase(raw: string): string {
  const trimmed = raw.trim();
  // A whole URL, the demo base's own spelling and the live base's (refused, as a dashboard's
  // read of /api is refused on demo data) are read as written.
  if (!trimmed.startsWith("/") || trimmed.startsWith(`${PLAYGROUND_API_BASE}/`) || trimmed === PLAYGROUND_API_BASE || trimmed.startsWith("/api/") || trimmed.startsWith("//")) return trimmed;
  return `${PLAYGROUND_API_BASE}${trimmed}`;
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

function describeEndpoint(raw: string, schemas: boolean) {
  let path = new URL(raw.trim(), "http://localhost/").pathname;
  for (const base of [PLAYGROUND_API_BASE, "/api"]) {
    if (path.startsWith(`${base}/`)) {
      path = path.slice(base.length);
      break;
    }
  }
  const body = endpointsBody();
  const def = endpoints.find((e) => e.path === path) ?? matchPath(path)?.endpoint;
  const endpoint = body.endpoints.find((e) => e.id === def?.id);
  if (!def || !endpoint) {
    throw new ApiError("not_found", `No API endpoint at ${JSON.stringify(raw.slice(0, 200))}. The endpoints: ${endpoints.map((e) => e.path).join(", ")}.`);
  }
  return {
    apiBase: body.apiBase,
    liveApiBase: body.liveApiBase,
    path: endpoint.path,
    summary: endpoint.summary,
    ...(endpoint.description !== undefined ? { description: endpoint.description } : {}),
    ...(endpoint.permission !== undefined ? { permission: endpoint.permission } : {}),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    query: queryFacts(def.query),
    answer: describeShape(def.response),
    errors: endpoint.errors.map((e) => `${e.status} ${e.error}`),
    ...(endpoint.pagedList !== undefined ? { pagedList: endpoint.pagedList } : {}),
    demoVariants: scenariosBody().paths.find((p) => p.path === endpoint.path)?.variants ?? [],
    notes: [...(endpoint.tag === "cx" ? [body.cxWrapper] : []), ...(endpoint.pagedList !== undefined ? [body.paging] : [])],
    ...(schemas ? { schemas: { query: endpoint.query, response: endpoint.response, errorEnvelope: body.errorEnvelope } } : {}),
  };
}
