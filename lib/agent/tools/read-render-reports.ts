import "server-only";
import { z } from "zod";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { reportsQuery } from "@/lib/playground/stages";
import { toolResult } from "./results";
import { oneDraft, oneDraftMessage, readBy, readIdOf, reading, unnamed, playgroundTool } from "./shared";

const reportRevision = "must be a positive integer: the revision whose reports to read (e.g. 2)";

const reportFields = z
  .object({
    ...readBy,
    revision: z
      .number({ error: reportRevision })
      .int(reportRevision)
      .min(1, reportRevision)
      .optional()
      .meta({ description: "The revision whose reports to read; the current one when left out" }),
  })
  .strict()
  .refine(oneDraft, oneDraftMessage);

/** read_render_reports: GET /draft/<read_id>/reports's stages and operation. */
export const readRenderReports = playgroundTool("playground.renderReports", (server, ctx, { tool: { name, title, description }, answer }) =>
  server.registerTool(
    name,
    {
      title,
      description,
      inputSchema: plainInput(reportFields),
      outputSchema: orRefusal(unnamed(answer)),
      annotations: reading,
    },
    ({ revision, ...by }) =>
      toolResult(async () => {
        const id = readIdOf(by);
        const p = await ctx.playground();
        await p.stages.read(ctx.request, id);
        // The revision as GET …/reports?revision= takes it, so it is refused in the same words.
        const query = reportsQuery(new URLSearchParams(revision === undefined ? "" : `revision=${revision}`));
        return { value: await p.reports.list(id, query) };
      }, ctx),
  ),
);
