import "server-only";
import { defineRoute, type RouteModule } from "@/lib/http/edge";
import { mcpAnswer, readJsonRpc, type McpSource } from "./mcp";

// The agent surface's route: the playground's operations as Model Context Protocol tools, over
// the same Playground the playground's own routes use. Mounted by the app's route file; tests
// mount it on a playground of their own.

export interface AgentRoutes {
  /** /dashboards/playground/mcp: the playground's operations as Model Context Protocol tools */
  mcp: RouteModule;
}

export function agentRoutes(source: McpSource): AgentRoutes {
  const { log } = source;
  return {
    mcp: defineRoute({
      refuse: "MCP over Streamable HTTP without sessions: POST JSON-RPC messages here. With no session there is no stream to GET and nothing to DELETE.",
      log,
      // Tool results carry postUrl, a capability: no cache may keep them.
      headers: { "cache-control": "no-store", "referrer-policy": "no-referrer", "x-content-type-options": "nosniff" },
      methods: (on) => ({ POST: on({ body: readJsonRpc, handle: ({ request, body }) => mcpAnswer(request, body, source) }) }),
    }),
  };
}
