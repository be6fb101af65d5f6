import "server-only";
import { z } from "zod";
import { SHOW_DRAFT_WAIT_MS } from "@/lib/contract/operations/renders";
import { draftView } from "@/lib/contract/playground";
import { orRefusal, plainInput } from "@/lib/contract/mcp-outputs";
import { DRAFT_VIEW_TOOL_META } from "../mcp-app";
import { toolResult } from "./results";
import { oneDraft, oneDraftMessage, readBy, readDraft, readIdOf, reading, playgroundTool } from "./shared";

const showFields = z
  .object({
    ...readBy,
    afterRevision: z
      .number({ error: "must be a whole number: the revision already shown" })
      .int("must be a whole number: the revision already shown")
      .min(0, "must be a whole number: the revision already shown")
      .optional()
      .meta({ description: `The revision already shown: the answer waits (up to ${SHOW_DRAFT_WAIT_MS / 1000} s) for a newer one` }),
  })
  .strict()
  .refine(oneDraft, oneDraftMessage);

/** show_draft: the draft as watchers see it, without its document. */
const shownDraft = draftView.omit({ html: true }).extend({ htmlBytes: z.number().int().min(0).meta({ description: "The document's size in bytes" }) });

/** show_draft: a draft read as GET /draft/<read_id> reads it, waiting on the event stream's hub for a newer revision than the caller has. */
export const showDraft = playgroundTool("playground.draftEvents", (server, ctx, { tool: { name, title, description } }) =>
  server.registerTool(
    name,
    {
      title,
      description,
      inputSchema: plainInput(showFields),
      outputSchema: orRefusal(shownDraft),
      annotations: reading,
      _meta: DRAFT_VIEW_TOOL_META,
    },
    ({ afterRevision, ...by }) =>
      toolResult(async () => {
        const id = readIdOf(by);
        const p = await ctx.playground();
        const readNow = async () => draftView.parse(JSON.parse(await readDraft(ctx, p, id)));
        // Registered before the read, so a revision written in between is not missed; ended with
        // the caller's request, or as soon as the read shows a newer revision already.
        const stop = new AbortController();
        let next: Promise<number | null> | null = null;
        if (afterRevision !== undefined) {
          // Revisions written on other instances reach this one's hub only while it listens.
          await p.listening();
          next = p.hub.nextRevision(id, afterRevision, SHOW_DRAFT_WAIT_MS, AbortSignal.any([ctx.request.signal, stop.signal]));
        }
        try {
          let view = await readNow();
          if (next && afterRevision !== undefined && view.revision <= afterRevision && (await next) !== null) view = await readNow();
          const { html, ...shown } = view;
          return { value: { ...shown, htmlBytes: Buffer.byteLength(html) } };
        } finally {
          stop.abort();
        }
      }, ctx),
  ),
);
