import "server-only";
import { z } from "zod";
import { describeShape } from "@/lib/contract/describe";
import { endpoints } from "@/lib/contract/endpoints";
import { ApiError } from "@/lib/contract/errors";
import { matchPath } from "@/lib/contract/match";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { PLAYGROUND_API_BASE } from "@/lib/contract/playground";
import { endpointDescriptionSchema } from "@/lib/contract/playground-bodies";
import { queryFacts } from "@/lib/contract/query-facts";
import { scenariosBody } from "@/lib/demo-api/answers";
import { endpointsBody } from "@/lib/demo-api/endpoints-doc";
import { toolResult } from "./results";
import { reading, playgroundTool } from "./shared";

const endpointFields = z
  .object({
    path: z.string({ error: (issue) => (issue.input === undefined ? 'required: an API path such as "/cx/book"' : 'must be an API path, a string such as "/cx/book"') }).meta({
      description: "As listed (`/crm/:instance/companies`) or concrete (`/crm/customers/companies`)",
    }),
    schemas: z.boolean({ error: "must be true or false" }).optional().meta({ description: "Add the JSON Schemas" }),
  })
  .strict();

/** describe_endpoint: one entry of what GET /endpoints answers, with its query's limits and its answer's shape. */
export const describeEndpointTool = playgroundTool("playground.endpoints", (server, ctx, { tool: { name, title, description } }) =>
  server.registerTool(
    name,
    {
      title,
      description,
      inputSchema: plainInput(endpointFields),
      outputSchema: orRefusal(endpointDescriptionSchema),
      annotations: reading,
    },
    ({ path, schemas }) => toolResult(async () => ({ value: describeEndpoint(path, schemas === true) }), ctx),
  ),
);

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
