import "server-only";
import { mcpToolOf } from "@/lib/contract/operations";
import { orRefusal } from "@/lib/contract/mcp-outputs";
import { scenariosBodySchema } from "@/lib/contract/playground-bodies";
import { scenariosBody } from "@/lib/demo-api/answers";
import { toolResult } from "./results";
import { reading, unnamed, type PlaygroundTool } from "./shared";

/** list_scenarios: what GET /scenarios answers. */
export const listScenarios: PlaygroundTool = (server, ctx) =>
  server.registerTool(
    mcpToolOf("playground.scenarios"),
    {
      title: "List the demo scenarios and variants",
      description:
        "The demo scenarios (a draft's `scenario`), the default, and every API path with its variants (a draft's `examples`).",
      outputSchema: orRefusal(unnamed(scenariosBodySchema)),
      annotations: reading,
    },
    () => toolResult(async () => ({ value: scenariosBody() }), ctx),
  );
