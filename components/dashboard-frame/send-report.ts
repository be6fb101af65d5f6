import { PLAYGROUND_BASE } from "@/lib/contract/playground";
import { renderReportInput } from "@/lib/contract/reports";
import type { RenderReportBody } from "./render-report";

/**
 * Sends what this browser saw rendering a revision of a demo draft to the draft's render
 * reports, for the agent that wrote it. Callers send only for demo drafts (the server refuses
 * the rest). Best effort: a report that is refused or lost is not tried again.
 */
export async function sendRenderReport(readId: string, revision: number, report: RenderReportBody): Promise<void> {
  const body = renderReportInput.safeParse({ revision, ...report });
  if (!body.success) return;
  try {
    await fetch(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(readId)}/reports`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body.data),
      credentials: "omit",
      cache: "no-store",
    });
  } catch {
    // The page goes on without it.
  }
}
