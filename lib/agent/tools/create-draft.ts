import "server-only";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { draftInputOf } from "@/lib/playground/stages";
import { DRAFT_VIEW_TOOL_META } from "../mcp-app";
import { toolResult } from "./results";
import { draftFields, unnamed, writing, playgroundTool } from "./shared";

/** create_draft: POST /draft's stages and operation. */
export const createDraft = playgroundTool("playground.createDraft", (server, ctx, { tool: { name, title, description }, answer }) =>
  server.registerTool(
    name,
    {
      title,
      description,
      inputSchema: plainInput(draftFields),
      outputSchema: orRefusal(unnamed(answer)),
      annotations: writing,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    (input) =>
      toolResult(async () => {
        const p = await ctx.playground();
        const origin = p.stages.draftWrite(ctx.request);
        await p.stages.spend("creates", ctx.request);
        return { value: await p.create(draftInputOf(input), origin) };
      }, ctx),
  ),
);
