"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { DashboardFrame, type RenderReportBody } from "@/components/dashboard-frame/DashboardFrame";
import { RenderReportView } from "@/components/dashboard-frame/RenderReportView";
import { sendRenderReport } from "@/components/dashboard-frame/send-report";
import { PLAYGROUND_API_BASE } from "@/lib/contract/playground";
import { SaveToSpace, type Saver } from "@/components/saved/SaveToSpace";
import { htmlTitle } from "@/lib/saved/slug";
import { CodeEditor } from "./CodeEditor";
import { DraftNotices } from "./DraftNotices";
import type { EditorExample } from "./editor-example";
import { ExampleGallery, ExampleNotice } from "./ExampleGallery";
import { FindingsPanel } from "./FindingsPanel";
import { PreviewControls, type View } from "./PreviewControls";
import { SharePanel } from "./SharePanel";
import { StateMatrix } from "./StateMatrix";
import { useDebounced } from "./useDebounced";
import { preloadCheck } from "./useDraftCheck";
import { useDraftSharing } from "./useDraftSharing";
import { useEditorSource } from "./useEditorSource";
import { useFindings } from "./useFindings";
import { draftLoading, useDurableDraft } from "./useDurableDraft";
import { useLeaveGuard } from "./useLeaveGuard";
import { usePreviewData } from "./usePreviewData";
import { useInteractive } from "@/components/interactive";
import styles from "./editor.module.css";

export type { EditorExample } from "./editor-example";

const PREVIEW_DEBOUNCE_MS = 400;
// Several frames restart at once in the matrix: wait for a longer pause in typing.
const MATRIX_DEBOUNCE_MS = 1_000;

export interface PlaygroundEditorProps {
  examples: readonly EditorExample[];
  /** The example asked for in the address (`?example=<id>`); an unknown id starts on the first with a notice. */
  requestedExample?: string;
  /** `?open=saved`: start from the dashboard a saved dashboard's page handed over, not yet shared. */
  openHandoff?: boolean;
  /** A draft's own address (`/d/<read_id>`): its latest revision, editable where this browser created it. */
  draftId?: string;
  /** The signed-in person, who may save the source into their space from here. */
  saver?: Saver | null;
}

/** The playground editor: source on one side, its live preview on the other, and sharing. */
export function PlaygroundEditor({ examples: starters, requestedExample, openHandoff, saver, draftId }: PlaygroundEditorProps) {
  const [status, announce] = useState("");
  const source = useEditorSource(starters, requestedExample, announce, draftId ? draftLoading(draftId) : undefined);
  const { starter, html } = source;
  const [view, setView] = useState<View>("single");
  const data = usePreviewData();
  const [savedHtml, setSavedHtml] = useState<string | null>(null);
  const interactive = useInteractive();

  const previewHtml = useDebounced(html, PREVIEW_DEBOUNCE_MS);
  const matrixHtml = useDebounced(html, MATRIX_DEBOUNCE_MS);
  const findings = useFindings(previewHtml, starters);
  const sharing = useDraftSharing({ html, scenario: data.scenario, examples: data.examples, mode: data.mode, announce });
  const { revision } = sharing;
  const shared = sharing.share.kind === "shared";
  const durable = useDurableDraft({ draftId, openHandoff, source, data, sharing, announce });

  // The preview's render report is shown here; when the preview is exactly a revision watchers
  // have (a demo draft: same html, scenario and examples), it is also the agent's to read, once
  // per revision, whichever of the push and the render finishes first.
  const [previewReport, setPreviewReport] = useState<{ html: string; scenario: string; examples: string; body: RenderReportBody } | null>(null);
  const onPreviewReport = useCallback(
    (body: RenderReportBody, key: string | number | undefined) => {
      if (typeof key === "string") setPreviewReport({ html: key, scenario: data.scenario, examples: JSON.stringify(data.examples), body });
    },
    [data.scenario, data.examples],
  );
  const reportedRevisions = useRef(new Set<number>());
  const { sharedAs } = sharing;
  useEffect(() => {
    if (!sharedAs || sharedAs.live || !previewReport || reportedRevisions.current.has(sharedAs.revision)) return;
    const same = sharedAs.draft.html === previewReport.html && sharedAs.draft.scenario === previewReport.scenario && JSON.stringify(sharedAs.draft.examples) === previewReport.examples;
    if (!same) return;
    reportedRevisions.current.add(sharedAs.revision);
    void sendRenderReport(sharedAs.id, sharedAs.revision, previewReport.body);
  }, [sharedAs, previewReport]);

  // Edits are lost on leaving only when this browser would not keep them, and they are neither
  // shared (then every edit is pushed) nor saved.
  useLeaveGuard(source.edited && !durable.kept && !shared && html !== savedHtml ? "Leave the playground? Your edits are not shared or saved, and will be lost." : null);

  return (
    <section aria-labelledby="editor-title" className={styles.page}>
      <header className={styles.header}>
        <h1 id="editor-title">Dashboard playground</h1>
        <p className={`${styles.revision} muted`}>
          Revision <span data-testid="editor-revision">{revision ?? "not shared"}</span>
        </p>
      </header>

      <DraftNotices durable={durable} interactive={interactive} />

      {source.unknownExample !== null ? <ExampleNotice requested={source.unknownExample} starter={starter} /> : null}

      {starters.length > 1 ? <ExampleGallery examples={starters} current={starter} interactive={interactive} onChoose={(id) => source.chooseExample(id, shared)} /> : null}

      <PreviewControls view={view} onView={setView} data={data} shared={shared} />

      <SharePanel sharing={sharing} interactive={interactive} status={status}>
        {saver ? (
          <SaveToSpace
            handle={saver.handle}
            csrf={saver.csrf}
            suggested={sharing.dash ?? htmlTitle(html)}
            html={() => html}
            note={revision ? `From the playground editor, draft revision ${revision}` : "From the playground editor"}
            onSaved={setSavedHtml}
          />
        ) : null}
      </SharePanel>

      <div className={view === "matrix" ? `${styles.panes} ${styles.stacked}` : styles.panes}>
        <div className={styles.source} onFocus={() => void preloadCheck().catch(() => {})}>
          <CodeEditor
            initialValue={source.initialHtml}
            key={source.editorKey}
            readOnly={durable.access !== "write"}
            onChange={source.setHtml}
            warnings={findings.warnings}
            checkedValue={findings.check.kind === "done" ? findings.check.checked : ""}
            label="Dashboard HTML"
          />
          <FindingsPanel {...findings} />
        </div>
        {view === "single" ? (
          <div className={styles.preview}>
            <DashboardFrame
              html={previewHtml}
              apiBase={data.live ? "/api" : PLAYGROUND_API_BASE}
              mode={data.mode}
              scenario={data.live ? undefined : data.scenario || undefined}
              examples={data.live ? undefined : data.examples}
              title="Dashboard preview"
              onReport={onPreviewReport}
              reportPage="editor"
              renderKey={previewHtml}
            />
            {previewReport && previewReport.html === previewHtml ? <RenderReportView report={previewReport.body} /> : null}
          </div>
        ) : null}
      </div>
      {view === "matrix" ? <StateMatrix html={matrixHtml} /> : null}
    </section>
  );
}
