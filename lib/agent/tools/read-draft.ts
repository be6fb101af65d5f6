import "server-only";
import { z } from "zod";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { DRAFT_VIEW_TOOL_META } from "../mcp-app";
import { toolResult } from "./results";
import { oneDraft, oneDraftMessage, readBy, readDraft, readIdOf, reading, unnamed, playgroundTool } from "./shared";

const readFields = z.object(readBy).strict().refine(oneDraft, oneDraftMessage);

/** read_draft: GET /draft/<read_id>'s stages and operation, its stored JSON handed on as written. */
export const readDraftTool = playgroundTool("playground.readDraft", (server, ctx, { tool: { name, title, description }, answer }) =>
  server.registerTool(
    name,
    {
      title,
      description,
      inputSchema: plainInput(readFields),
      outputSchema: orRefusal(unnamed(answer)),
      annotations: reading,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    (by) => toolResult(async () => ({ text: await readDraft(ctx, await ctx.playground(), readIdOf(by)) }), ctx),
  ),
);
