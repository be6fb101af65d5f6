import "server-only";
import { orRefusal } from "@/lib/contract/mcp-outputs";
import { scenariosBody } from "@/lib/demo-api/answers";
import { toolResult } from "./results";
import { reading, unnamed, playgroundTool } from "./shared";

/** list_scenarios: what GET /scenarios answers. */
export const listScenarios = playgroundTool("playground.scenarios", (server, ctx, { tool: { name, title, description }, answer }) =>
  server.registerTool(
    name,
    {
      title,
      description,
      outputSchema: orRefusal(unnamed(answer)),
      annotations: reading,
    },
    () => toolResult(async () => ({ value: scenariosBody() }), ctx),
  ),
);
