import "server-only";
import { mcpToolOf } from "@/lib/contract/operations";
import { draftCheck } from "@/lib/contract/playground";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { draftInputOf } from "@/lib/playground/stages";
import { toolResult } from "./results";
import { draftFields, reading, unnamed, type PlaygroundTool } from "./shared";

/** check_html: POST /check's stages and operation. */
export const checkHtml: PlaygroundTool = (server, ctx) =>
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
      toolResult(async () => {
        const p = await ctx.playground();
        p.stages.draftCheck(ctx.request);
        await p.stages.spend("checks", ctx.request);
        return { value: p.check(draftInputOf(input)) };
      }, ctx),
  );
