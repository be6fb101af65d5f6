import "server-only";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { renderAnswer, renderInput, type RenderAnswer } from "@/lib/contract/renders";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { renderInputOf } from "@/lib/playground/stages";
import { refusalResult, thrownResponse } from "./results";
import { oneDraft, oneDraftMessage, readBy, readIdOf, unnamed, playgroundTool, type ToolContext } from "./shared";

const renderFields = renderInput.extend(readBy).strict().refine(oneDraft, oneDraftMessage);

/** render_draft: POST /draft/<read_id>/render's stages and operation, then its picture as GET on its url reads it. */
export const renderDraft = playgroundTool("playground.render", (server, ctx, { tool: { name, title, description }, answer }) =>
  server.registerTool(
    name,
    {
      title,
      description,
      inputSchema: plainInput(renderFields),
      outputSchema: orRefusal(unnamed(answer)),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ readId, watchUrl, ...input }) =>
      renderResult(async () => {
        const id = readIdOf({ readId, watchUrl });
        const p = await ctx.playground();
        const origin = p.stages.render(ctx.request);
        p.stages.capability(id);
        const address = p.stages.address(ctx.request);
        // In the contract's field order, as the route's answer reads back.
        const answer = renderAnswer.parse(await p.renders.render(id, renderInputOf(input), { origin, address }));
        // Its picture, read as GET on its url is: one of the caller's reads.
        const file = new URL(answer.picture.url).pathname.split("/").pop() ?? "";
        await p.stages.spend("reads", ctx.request);
        const { png } = await p.renders.picture(id, file, address);
        return { answer, png };
      }, ctx),
  ),
);

/** A render as a tool result: the picture as image content beside the answer, or the envelope as text. */
async function renderResult(render: () => Promise<{ answer: RenderAnswer; png: Uint8Array }>, { legacy, log }: ToolContext): Promise<CallToolResult> {
  let done: Awaited<ReturnType<typeof render>>;
  try {
    done = await render();
  } catch (err) {
    return refusalResult(thrownResponse(err, log));
  }
  const { answer, png } = done;
  const summary = `Revision ${answer.revision} at ${answer.viewport} (${answer.picture.width}×${answer.picture.height}), scenario ${answer.scenario}: ${answer.report.errors.length} error(s), ${answer.report.refusals.length} refusal(s), ${answer.report.settled ? "settled" : "not settled"}. Picture: ${answer.picture.url}`;
  return {
    content: [
      { type: "image", data: Buffer.from(png).toString("base64"), mimeType: "image/png" },
      { type: "text", text: legacy ? `${summary}\n${JSON.stringify(answer)}` : summary },
    ],
    structuredContent: answer as unknown as Record<string, unknown>,
  };
}
