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
  type McpHttpHandler,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { ApiError } from "@/lib/contract/errors";
import { DRAFT_HTML_MAX_BYTES, PLAYGROUND_BASE } from "@/lib/contract/playground";
import { readTextBody, withHeaders } from "@/lib/http/edge";
import { trustedOrigin } from "@/lib/http/origin";
import { json } from "@/lib/http/respond";
import { DASHBOARD_VIEW_URI, DRAFT_VIEW_RESOURCE_META, DRAFT_VIEW_URI, MCP_APP_MIME_TYPE, RULES_URI, STATES_URI, dashboardViewHtml, draftViewHtml } from "./mcp-app";
import { registerDashboardTools, type DashboardSource } from "./mcp-dashboard";
import { playgroundTools } from "./tools";
import { OAUTH_SCOPE, bearerIdentity } from "@/lib/auth/oauth";
import { loadUser, type SessionUser } from "@/lib/auth/session";
import type { Db } from "@/lib/db";
import { mcpResourceOf, resourceMetadataUrlOf } from "@/lib/signin/oauth-routes";
import type { Playground } from "@/lib/playground/service";
import { JSON_BODY_MAX } from "@/lib/playground/stages";
import { serverLog } from "@/lib/http/server-log";

// POST /dashboards/playground/mcp: the playground's agent loop as Model Context Protocol tools,
// over Streamable HTTP without sessions (a server per request), in both eras of the protocol: a
// request that names its revision in `_meta` is served by the SDK's 2026-07-28 handler (discover,
// resultType, cache hints, the Mcp-Method and Mcp-Name headers checked against the body, -32022
// for a revision it does not speak); an initialize-era request (2025-11-25 and before) by the
// streamable transport as before, answered as JSON. One server factory serves both.
//
// A tool (one module each, ./tools) is not a second implementation of the playground: each one
// runs its operation's stages (lib/playground/stages.ts) on the MCP request, whose address, Host and browser headers are the
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

/**
 * The answer to a request whose body (`parsedBody`, JSON-RPC) the route's body stage has read.
 * Who the caller is comes after the body, not before it: whether a token is wanted depends on
 * which tools it calls.
 */
export async function mcpAnswer(request: Request, parsedBody: unknown, source: McpSource): Promise<Response> {
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

/** The body stage: JSON-RPC 2.0 messages, or the envelope, so a body that is not one never reaches the SDK. */
export async function readJsonRpc(request: Request): Promise<unknown> {
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
  // One module per tool (./tools); each runs its operation's stages on this request.
  for (const tool of playgroundTools) tool.register(server, { request, playground, legacy, log: say });

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
