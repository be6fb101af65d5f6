import "server-only";
import { z } from "zod";
import { draftUpdate } from "@/lib/contract/playground";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { draftUpdateOf } from "@/lib/playground/stages";
import { DRAFT_VIEW_TOOL_META } from "../mcp-app";
import { toolResult } from "./results";
import { WRITE_URL, capabilityOf, required, unnamed, writing, playgroundTool } from "./shared";

const updateFields = draftUpdate
  // Fixed at creation: an update may only repeat it, which a tool caller has no reason to do.
  .omit({ dataMode: true })
  .extend({
    postUrl: z
      .string({ error: required("the postUrl create_draft answered, or the write token (its last segment)") })
      .meta({ description: "The postUrl create_draft answered (or its last segment, the write token)" }),
  });

/** update_draft: POST /draft/<write_token>'s stages and operation. */
export const updateDraft = playgroundTool("playground.updateDraft", (server, ctx, { tool: { name, title, description }, answer }) =>
  server.registerTool(
    name,
    {
      title,
      description,
      inputSchema: plainInput(updateFields),
      outputSchema: orRefusal(unnamed(answer)),
      annotations: writing,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    ({ postUrl, ...update }) =>
      toolResult(async () => {
        const token = capabilityOf(postUrl, WRITE_URL, "postUrl: pass the postUrl create_draft answered, or its last segment (the write token). A watchUrl carries only the read id, which never writes.");
        const p = await ctx.playground();
        const origin = p.stages.draftWrite(ctx.request);
        await p.stages.update(token);
        return { value: await p.update(token, draftUpdateOf(update), origin) };
      }, ctx),
  ),
);
