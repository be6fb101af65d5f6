"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { RenderReportBody } from "@/components/dashboard-frame/DashboardFrame";
import { sendRenderReport } from "@/components/dashboard-frame/send-report";
import type { DraftSharing } from "./useDraftSharing";
import type { PreviewData } from "./usePreviewData";

/** The preview's render report, for the document (its html) and the demo state it was drawn in. */
interface PreviewReport {
  html: string;
  scenario: string;
  examples: string;
  body: RenderReportBody;
}

/**
 * The preview's render report, shown in the editor's console; when the preview is exactly a
 * revision watchers have (a demo draft: same html, scenario and examples), it is also the agent's
 * to read, once per revision, whichever of the push and the render finishes first. `ready` once
 * the first dashboard has settled: until then the preview shows that it is working rather than a
 * half-drawn page (a table's headers without rows).
 */
export function usePreviewReport(data: PreviewData, sharing: DraftSharing) {
  const [report, setReport] = useState<PreviewReport | null>(null);
  const [ready, setReady] = useState(false);
  const onReport = useCallback(
    (body: RenderReportBody, key: string | number | undefined) => {
      setReady(true);
      if (typeof key === "string") setReport({ html: key, scenario: data.scenario, examples: JSON.stringify(data.examples), body });
    },
    [data.scenario, data.examples],
  );
  const reportedRevisions = useRef(new Set<number>());
  const { sharedAs } = sharing;
  const authorLink = sharing.share.kind === "shared" ? sharing.share.postUrl : null;
  useEffect(() => {
    if (!sharedAs || sharedAs.live || !report || reportedRevisions.current.has(sharedAs.revision)) return;
    const same = sharedAs.draft.html === report.html && sharedAs.draft.scenario === report.scenario && JSON.stringify(sharedAs.draft.examples) === report.examples;
    if (!same) return;
    reportedRevisions.current.add(sharedAs.revision);
    // This editor holds the write link: its report counts as the author's.
    void sendRenderReport(authorLink ? { postUrl: authorLink } : { readId: sharedAs.id }, sharedAs.revision, report.body);
  }, [sharedAs, report, authorLink]);
  return { report, ready, onReport };
}
