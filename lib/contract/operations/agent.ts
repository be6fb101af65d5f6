import { endpoints } from "../endpoints";
import { PLAYGROUND_BASE as base, SCENARIO_PARAM, VARIANT_PARAM } from "../playground";
import { endpointsBodySchema, scenariosBodySchema } from "../playground-bodies";
import type { SiteOperationDef } from "./types";

// What an agent reads beside its drafts: the demo API, the scenarios and endpoints, llms.txt, and
// the MCP endpoint that serves the loop as tools.

export const agentOperations = [
  {
    id: "playground.demoApi",
    method: "GET",
    path: `${base}/api/:apiPath`,
    summary: "The demo API: every API path, answered with canned demo data",
    section: "demo-api",
    description: [
      `The same paths, path values and query rules as the API, with no sign-in. The answer is the variant chosen by \`?${VARIANT_PARAM}\`, \`?${SCENARIO_PARAM}\`, the draft's choices or the default scenario, and may be any answer the endpoint documents, errors included. A path without an example answers 404 \`no_example\`.`,
    ],
    errors: ["no_example", "unknown_scenario", "unknown_example", "invalid_query", "invalid_cursor", "rate_limited"],
    tool: {
      name: "read_demo_data",
      title: "Read demo data",
      description: "One demo-API read as a dashboard makes it, in a draft's demo state (readId) or a scenario's: {status, contentType, body}.",
    },
  },
  {
    id: "playground.scenarios",
    method: "GET",
    path: `${base}/scenarios`,
    summary: "The scenarios, their default, and every path with its demo variants",
    section: "demo-api",
    errors: [],
    answer: scenariosBodySchema,
    tool: {
      name: "list_scenarios",
      title: "List the demo scenarios and variants",
      description: "The demo scenarios (a draft's `scenario`), the default, and every API path with its variants (a draft's `examples`).",
    },
  },
  {
    id: "playground.endpoints",
    method: "GET",
    path: `${base}/endpoints`,
    summary: "Every API endpoint's JSON Schemas, errors and the error envelope",
    section: "demo-api",
    errors: [],
    answer: endpointsBodySchema,
    tool: {
      name: "describe_endpoint",
      title: "Describe one API endpoint",
      description: `An API endpoint's query parameters with their limits, its answer's shape, errors and demo variants. Paths: ${endpoints.map((e) => e.path).join(", ")}.`,
    },
  },
  {
    id: "playground.llms",
    method: "GET",
    path: `${base}/llms.txt`,
    summary: "The agent protocol's index as plain text (llms.txt): the loop, every endpoint and route in one line, the limits and states, with links to each one's Markdown",
    section: "demo-api",
    description: ["Read in one pass (at most 15 KB). Each line links its reference page as Markdown; llms-full.txt holds the whole protocol."],
    errors: [],
  },
  {
    id: "playground.llmsFull",
    method: "GET",
    path: `${base}/llms-full.txt`,
    summary: "The whole agent protocol as plain text: every shape, example, recipe and state",
    section: "demo-api",
    errors: [],
  },
  {
    id: "playground.mcp",
    method: "POST",
    path: `${base}/mcp`,
    summary: "The playground's agent loop as Model Context Protocol tools",
    section: "demo-api",
    description: [
      "An MCP server over Streamable HTTP, without sessions: each POST carries JSON-RPC 2.0 messages and is answered with JSON (`202` with no body for notifications alone); `GET` and `DELETE` answer 405, since there is no session stream. It speaks two eras of the protocol: revision 2026-07-28 to a request that names it in `_meta` (`server/discover` answers the revision, capabilities and identity; `Mcp-Method` and `Mcp-Name` must match the body, or `400` with -32020; a revision it does not speak is `400` with -32022 and the list it does), and 2025-11-25 or earlier to a client that opens with `initialize`. Tools: `check_html`, `create_draft`, `update_draft`, `read_draft`, `show_draft`, `list_scenarios`, `describe_endpoint`, `read_render_reports`, `render_draft`, `read_demo_data`, `show_dashboard`, `read_dashboard`, `read_live_data`, `draw_dashboard`; their input schemas are the draft bodies, the reports query and the render body above. `render_draft` answers the picture as image content beside the render's answer. The draft tools name a view as an MCP App (the resource `ui://dashboards-playground/draft.html`): hosts that render MCP Apps draw the dashboard inline on its demo data and follow its revisions, its reads relayed to `read_demo_data`, a tool only the view calls.",
      "`show_dashboard` (handle, slug) draws a saved dashboard inline on the signed-in person's live data (the resource `ui://dashboards/saved-dashboard.html`); its view reads the code with `read_dashboard` and each of the dashboard's reads with `read_live_data`, answered by the API as that person. Only the person's own dashboards and those of authors they trust (the list on /account, written only by the person at this site's pages) run there; someone else's is shown drawn by this site on the person's data, with no question: the view gets it from `draw_dashboard`, the service's own drawing as an inert document (no script, no address but `data:` images), and shows it in a frame that runs no script, with a link to its page on this site for it interactive, where the person decides; its reads through `read_live_data` answer `403` `live_not_granted`. Nothing over MCP trusts, agrees or saves. These four act as a person: without a valid access token the HTTP answer is `401` `unauthorized` with `WWW-Authenticate: Bearer resource_metadata=\"…/.well-known/oauth-protected-resource/dashboards/playground/mcp\"` (and `error=\"invalid_token\"` for a bad one), from which an MCP host runs OAuth 2.1 against this service's sign-in: `/.well-known/oauth-authorization-server`, `/oauth/register`, `/oauth/authorize`, `/oauth/token` (PKCE S256, `resource` the MCP endpoint). The draft tools stay public.",
      "Each tool goes through the same operation as the route it names, as the same caller (address, Host, browser headers), so validation, rate limits and refusals are those of the routes. A refusal is a tool result with `isError` and the text `<code>: <hint>` (`invalid_draft: html: the document is empty…`), not a protocol error. The envelope below answers only requests that are not MCP.",
      { kind: "code", lang: "json", label: "An MCP client's configuration", text: `{\n  "mcpServers": {\n    "dashboards-playground": { "type": "http", "url": "{origin}${base}/mcp" }\n  }\n}` },
      {
        kind: "code",
        lang: "sh",
        label: "The tool list with curl",
        text: `curl -sS -X POST '{origin}${base}/mcp' -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\\n  --data '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'`,
      },
    ],
    errors: ["unauthorized", "unsupported_media_type", "invalid_request", "draft_too_large", "method_not_allowed", "internal_error"],
  },
] as const satisfies readonly SiteOperationDef[];
