import "server-only";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { draftInputOf } from "@/lib/playground/stages";
import { toolResult } from "./results";
import { draftFields, reading, unnamed, playgroundTool } from "./shared";

/** check_html: POST /check's stages and operation. */
export const checkHtml = playgroundTool("playground.checkDraft", (server, ctx, { tool: { name, title, description }, answer }) =>
  server.registerTool(
    name,
    {
      title,
      description,
      inputSchema: plainInput(draftFields),
      outputSchema: orRefusal(unnamed(answer)),
      annotations: reading,
    },
    (input) =>
      toolResult(async () => {
        const p = await ctx.playground();
        p.stages.draftCheck(ctx.request);
        await p.stages.spend("checks", ctx.request);
        return { value: p.check(draftInputOf(input)) };
      }, ctx),
  ),
);
