import "server-only";
import { z } from "zod";
import { mcpToolOf } from "@/lib/contract/operations";
import { draftUpdate, draftUpdated } from "@/lib/contract/playground";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { draftUpdateOf } from "@/lib/playground/stages";
import { DRAFT_VIEW_TOOL_META } from "../mcp-app";
import { toolResult } from "./results";
import { WRITE_URL, capabilityOf, required, unnamed, writing, type PlaygroundTool } from "./shared";

const updateFields = draftUpdate
  // Fixed at creation: an update may only repeat it, which a tool caller has no reason to do.
  .omit({ dataMode: true })
  .extend({
    postUrl: z
      .string({ error: required("the postUrl create_draft answered, or the write token (its last segment)") })
      .meta({ description: "The postUrl create_draft answered (or its last segment, the write token)" }),
  });

/** update_draft: POST /draft/<write_token>'s stages and operation. */
export const updateDraft: PlaygroundTool = (server, ctx) =>
  server.registerTool(
    mcpToolOf("playground.updateDraft"),
    {
      title: "Update a draft",
      description:
        "The next revision of a draft, through its postUrl; watchers see it at once. A field sent replaces its value, null clears it, one left out is kept; baseRevision refuses a stale update.",
      inputSchema: plainInput(updateFields),
      outputSchema: orRefusal(unnamed(draftUpdated)),
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
  );
