import { PLAYGROUND_BASE } from "./playground";

// Every operation the service answers outside /api (whose endpoints are lib/contract/endpoints.ts):
// the playground's, saving's, the OAuth server's that MCP hosts connect through, and the
// operators'. Each is declared once here, with the MCP tool that mirrors it; the reference
// (lib/reference/operations.ts) and the MCP server (lib/agent/mcp.ts) take their method, path, name and
// summary from here, and scripts/registry.test.ts fails when a playground, account or OAuth route,
// a documented operation or an MCP tool has no entry.

interface SiteOperationDef {
  id: string;
  method: "GET" | "POST";
  /** The path as documented: path values as `:name`, `:apiPath` for the rest of a path. */
  path: string;
  summary: string;
  /** The MCP tool that does the same, when there is one. */
  mcpTool?: string;
}

const base = PLAYGROUND_BASE;

export const siteOperations = [
  { id: "playground.createDraft", method: "POST", path: `${base}/draft`, summary: "Create a draft", mcpTool: "create_draft" },
  { id: "playground.checkDraft", method: "POST", path: `${base}/check`, summary: "Check a draft without publishing it", mcpTool: "check_html" },
  { id: "playground.updateDraft", method: "POST", path: `${base}/draft/:write_token`, summary: "Update a draft (POST to `postUrl`)", mcpTool: "update_draft" },
  { id: "playground.readDraft", method: "GET", path: `${base}/draft/:read_id`, summary: "The current draft, read-only, by its read id", mcpTool: "read_draft" },
  { id: "playground.drawDraft", method: "GET", path: `${base}/draft/:read_id/drawn`, summary: "A live draft drawn on the signed-in viewer's data (safe view)" },
  { id: "playground.draftRevisions", method: "GET", path: `${base}/draft/:read_id/revisions`, summary: "The draft's kept revisions, newest first, a page at a time" },
  { id: "playground.demoApi", method: "GET", path: `${base}/api/:apiPath`, summary: "The demo API: every API path, answered with canned demo data", mcpTool: "read_demo_data" },
  { id: "playground.scenarios", method: "GET", path: `${base}/scenarios`, summary: "The scenarios, their default, and every path with its demo variants", mcpTool: "list_scenarios" },
  { id: "playground.endpoints", method: "GET", path: `${base}/endpoints`, summary: "Every API endpoint's JSON Schemas, errors and the error envelope", mcpTool: "describe_endpoint" },
  { id: "playground.llms", method: "GET", path: `${base}/llms.txt`, summary: "The agent protocol's index as plain text (llms.txt): the loop, every endpoint and route in one line, the limits and states, with links to each one's Markdown" },
  { id: "playground.llmsFull", method: "GET", path: `${base}/llms-full.txt`, summary: "The whole agent protocol as plain text: every shape, example, recipe and state" },
  { id: "playground.mcp", method: "POST", path: `${base}/mcp`, summary: "The playground's agent loop as Model Context Protocol tools" },
  { id: "playground.draftEvents", method: "GET", path: `${base}/draft/:read_id/events`, summary: "The draft's live stream of revisions", mcpTool: "show_draft" },
  { id: "playground.render", method: "POST", path: `${base}/draft/:read_id/render`, summary: "Have the service draw a revision in its own browser: a picture of the whole dashboard and the render report", mcpTool: "render_draft" },
  { id: "playground.renderPicture", method: "GET", path: `${base}/draft/:read_id/render/:file`, summary: "A render's picture (PNG)" },
  { id: "playground.renderReports", method: "GET", path: `${base}/draft/:read_id/reports`, summary: "What browsers saw when they rendered a revision: errors with their lines, console.error, refused requests, requests", mcpTool: "read_render_reports" },
  { id: "playground.sendRenderReport", method: "POST", path: `${base}/draft/:read_id/reports`, summary: "Send a render report (the watch page does this)" },
  { id: "saving.save", method: "POST", path: "/~/:handle/:slug", summary: "Save a dashboard into your own space" },
  { id: "saving.show", method: "GET", path: "/~/:handle/:slug", summary: "Show a saved dashboard" },
  { id: "saving.list", method: "GET", path: "/~/:handle", summary: "List a space's saved dashboards" },
  { id: "saving.favourites", method: "POST", path: "/account/favourites", summary: "Star, unstar or reorder favourites" },
  { id: "saving.home", method: "POST", path: "/account/home", summary: "Set or clear the home page" },
  { id: "saving.trust", method: "POST", path: "/account/trust", summary: "Always run an author's dashboards on your data, or stop" },
  { id: "saving.snapshot", method: "POST", path: "/account/snapshots", summary: "Freeze one of your saved dashboards as a snapshot, share it or revoke it" },
  { id: "saving.snapshotShow", method: "GET", path: "/snapshots/:token", summary: "Open a snapshot" },
  { id: "saving.snapshotPicture", method: "GET", path: "/snapshots/:token/picture.png", summary: "A snapshot's picture, as PNG" },
  { id: "oauth.protectedResource", method: "GET", path: `/.well-known/oauth-protected-resource${base}/mcp`, summary: "The MCP endpoint's protected-resource metadata (RFC 9728): the resource, its authorization server and scope" },
  { id: "oauth.authorizationServer", method: "GET", path: "/.well-known/oauth-authorization-server", summary: "The authorization server's metadata (RFC 8414): its endpoints, grants, PKCE method and scope" },
  { id: "oauth.register", method: "POST", path: "/oauth/register", summary: "Register an MCP host as a public OAuth client (RFC 7591)" },
  { id: "oauth.authorize", method: "GET", path: "/oauth/authorize", summary: "The consent page: the signed-in person lets a host show their dashboards on their data" },
  { id: "oauth.answer", method: "POST", path: "/oauth/authorize", summary: "The person's answer on the consent page: a code for the host, or access_denied" },
  { id: "oauth.token", method: "POST", path: "/oauth/token", summary: "Exchange a code (with its PKCE verifier) or a refresh token for tokens" },
  { id: "oauth.revoke", method: "POST", path: "/oauth/revoke", summary: "A host gives up its tokens, ending its grant (RFC 7009)" },
  { id: "oauth.disconnect", method: "POST", path: "/oauth/connected-apps", summary: "Disconnect an app from your account" },
  { id: "operations.healthz", method: "GET", path: "/healthz", summary: "Liveness: the process is up and answering" },
  { id: "operations.readyz", method: "GET", path: "/readyz", summary: "Readiness: whether this instance should be sent traffic" },
  { id: "operations.metrics", method: "GET", path: "/metrics", summary: "This instance's Prometheus metrics" },
] as const satisfies readonly SiteOperationDef[];

export type SiteOperationId = (typeof siteOperations)[number]["id"];
type WithTool = Extract<(typeof siteOperations)[number], { mcpTool: string }>;
type McpToolName = WithTool["mcpTool"];

export function siteOperationById(id: SiteOperationId): SiteOperationDef {
  const found = siteOperations.find((o) => o.id === id);
  if (!found) throw new Error(`No operation ${id}`);
  return found;
}

/** The MCP tool that mirrors an operation, by the operation's id. */
export function mcpToolOf(id: WithTool["id"]): McpToolName {
  const found = siteOperations.find((o): o is WithTool => o.id === id && "mcpTool" in o);
  if (!found) throw new Error(`No MCP tool for ${id}`);
  return found.mcpTool;
}
