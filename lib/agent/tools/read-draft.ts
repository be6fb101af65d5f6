import "server-only";
import { z } from "zod";
import { mcpToolOf } from "@/lib/contract/operations";
import { draftView } from "@/lib/contract/playground";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { DRAFT_VIEW_TOOL_META } from "../mcp-app";
import { toolResult } from "./results";
import { oneDraft, oneDraftMessage, readBy, readDraft, readIdOf, reading, unnamed, type PlaygroundTool } from "./shared";

const readFields = z.object(readBy).strict().refine(oneDraft, oneDraftMessage);

/** read_draft: GET /draft/<read_id>'s stages and operation, its stored JSON handed on as written. */
export const readDraftTool: PlaygroundTool = (server, ctx) =>
  server.registerTool(
    mcpToolOf("playground.readDraft"),
    {
      title: "Read a draft as its watchers see it",
      description:
        "The current revision of a draft by its watchUrl or read id, with its findings and reads.",
      inputSchema: plainInput(readFields),
      outputSchema: orRefusal(unnamed(draftView)),
      annotations: reading,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    (by) => toolResult(async () => ({ text: await readDraft(ctx, await ctx.playground(), readIdOf(by)) }), ctx),
  );
