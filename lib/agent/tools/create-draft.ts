import "server-only";
import { mcpToolOf } from "@/lib/contract/operations";
import { draftCreated } from "@/lib/contract/playground";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { draftInputOf } from "@/lib/playground/stages";
import { DRAFT_VIEW_TOOL_META } from "../mcp-app";
import { toolResult } from "./results";
import { draftFields, unnamed, writing, type PlaygroundTool } from "./shared";

/** create_draft: POST /draft's stages and operation. */
export const createDraft: PlaygroundTool = (server, ctx) =>
  server.registerTool(
    mcpToolOf("playground.createDraft"),
    {
      title: "Create a draft dashboard",
      description:
        "Publish a new draft (revision 1) of ONE self-contained HTML document, on demo data unless dataMode is `live`. Answers postUrl (your write token: keep it) and watchUrl (give it to the human), with the check's `warnings`.",
      inputSchema: plainInput(draftFields),
      outputSchema: orRefusal(unnamed(draftCreated)),
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
  );
