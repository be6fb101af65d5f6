import { PLAYGROUND_BASE } from "@/lib/contract/playground-limits";
import type { RenderReportBody } from "./render-report";

/** Whose report it is: a watcher's (the read id), or the author's (the draft's write link). */
type ReportSender = { readId: string } | { postUrl: string };

/**
 * Sends what this browser saw rendering a revision of a demo draft to the draft's render
 * reports, for the agent that wrote it. Callers send only for demo drafts (the server refuses
 * the rest). Sent with the write link, the server counts it as the author's own. Best effort: a
 * report that is refused or lost is not tried again.
 */
export async function sendRenderReport(sender: ReportSender, revision: number, report: RenderReportBody): Promise<void> {
  // The recorder already bounds every field by the contract's numbers (render-report.test.ts holds
  // its reports to the schema), and the server checks what arrives: loading the schema library
  // here would cost a phone a long task right after the dashboard paints.
  const body = { revision, ...report };
  // Same-origin path only: the write token never goes into a cross-origin request.
  const base = "postUrl" in sender ? new URL(sender.postUrl).pathname : `${PLAYGROUND_BASE}/draft/${encodeURIComponent(sender.readId)}`;
  try {
    await fetch(`${base}/reports`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    });
  } catch {
    // The page goes on without it.
  }
}
