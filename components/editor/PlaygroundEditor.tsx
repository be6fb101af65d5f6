"use client";

import { useCallback, useMemo, useRef, useState } from "react";
import type { CodeAuthor } from "@/lib/consent/live";
import type { Saver } from "@/components/saved/SaveToSpace";
import { htmlTitle } from "@/lib/saved/slug";
import type { CodeEditorHandle } from "./CodeEditor";
import { DraftNotices } from "./DraftNotices";
import { EditorConfirmations } from "./EditorConfirmations";
import type { EditorExample } from "./editor-example";
import { EditorDock } from "./EditorDock";
import { EditorDrawer } from "./EditorDrawer";
import { EditorToolbar, SaveBox } from "./EditorToolbar";
import { ExampleGallery, ExampleNotice } from "./ExampleGallery";
import { formatSource } from "./format-source";
import { PaneSplitter } from "./PaneSplitter";
import { PreviewControls, VariantsPanel, type View } from "./PreviewControls";
import { PreviewPane } from "./PreviewPane";
import { SourcePane } from "./SourcePane";
import { ShortcutsDialog, useShortcuts } from "./ShortcutsDialog";
import type { Pane } from "./PaneSwitch";
import { StatusToast, type Status } from "./StatusToast";
import { useDebounced, useIdleDebounced } from "./useDebounced";
import { useDraftReads } from "./useDraftCheck";
import { useDraftSharing } from "./useDraftSharing";
import { useEditorLayout, SPLIT_MAX, SPLIT_MIN } from "./useEditorLayout";
import { useEditorSave } from "./useEditorSave";
import { useEditorSource } from "./useEditorSource";
import { useFindings } from "./useFindings";
import { draftLoading, useDurableDraft } from "./useDurableDraft";
import { useLeaveGuard } from "./useLeaveGuard";
import { usePreviewData } from "./usePreviewData";
import { usePreviewLogs } from "./usePreviewLogs";
import { usePreviewReport } from "./usePreviewReport";
import { useInteractive } from "@/components/interactive";
import styles from "./editor.module.css";

export type { EditorExample } from "./editor-example";

// A pause this long in typing updates the preview, at the page's next idle moment (at most
// PREVIEW_IDLE_MS later), so a keystroke shows in the preview in about a fifth of a second.
const PREVIEW_DEBOUNCE_MS = 120;
const PREVIEW_IDLE_MS = 60;
// Several frames restart at once in the matrix: wait for a longer pause in typing.
const MATRIX_DEBOUNCE_MS = 1_000;

/** Whose code the preview runs, as the consent gate names it. */
function authorOf(starter: EditorExample | undefined, edited: boolean): CodeAuthor {
  return {
    kind: "editor",
    from: starter?.source?.from ?? (starter ? `the “${starter.label}” example${edited ? ", with edits" : ""}` : "this editor"),
    own: starter?.source?.own ?? false,
  };
}

interface PlaygroundEditorProps {
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

/**
 * The playground editor: source on one side, its live preview on the other, the dock of findings
 * and console under them, and sharing and saving in the toolbar. Each concern is a hook or a part
 * of its own; this joins them.
 */
export function PlaygroundEditor({ examples: starters, requestedExample, openHandoff, saver, draftId }: PlaygroundEditorProps) {
  const [status, setStatus] = useState<Status>({ text: "", seq: 0 });
  // Each message is a new toast, the same words said again included.
  const announce = useCallback((text: string) => setStatus((s) => ({ text, seq: s.seq + 1 })), []);
  const clearStatus = useCallback(() => setStatus((s) => (s.text ? { text: "", seq: s.seq + 1 } : s)), []);
  const source = useEditorSource(starters, requestedExample, announce, draftId ? draftLoading(draftId) : undefined);
  const { starter, html } = source;
  const [view, setView] = useState<View>("single");
  const data = usePreviewData();
  const interactive = useInteractive();

  // The document's key travels with its text, so the preview never pairs one document's consent
  // with another's code (a new document asks afresh: see PreviewPane).
  const typed = useMemo(() => ({ html, key: source.editorKey }), [html, source.editorKey]);
  const preview = useIdleDebounced(typed, PREVIEW_DEBOUNCE_MS, PREVIEW_IDLE_MS);
  const previewHtml = preview.html;
  const matrixHtml = useDebounced(html, MATRIX_DEBOUNCE_MS);
  const findings = useFindings(previewHtml, starters);
  const previewReads = useDraftReads(previewHtml, data.live);
  const sharing = useDraftSharing({ html, scenario: data.scenario, examples: data.examples, mode: data.mode, announce });
  const shared = sharing.share.kind === "shared";
  const editor = useRef<CodeEditorHandle>(null);
  const historyOf = useCallback(() => editor.current?.history(), []);
  const { savedRef, setSaved, saveNote, saveBox, onOwnHandoff } = useEditorSave({ saver, html, starter, sharing, announce });
  const durable = useDurableDraft({ draftId, openHandoff, source, data, sharing, announce, historyOf, onOwnHandoff });
  const report = usePreviewReport(data, sharing);
  const logs = usePreviewLogs(previewHtml);

  // Edits are lost on leaving only when this browser would not keep them, and they are neither
  // shared (then every edit is pushed) nor saved.
  const leaving = useLeaveGuard(source.edited && !durable.kept && !shared && html !== savedRef?.html ? "Leave the playground? Your edits are not shared or saved, and will be lost." : null);

  const jump = useCallback((line: number, column?: number) => editor.current?.goTo(line, column), []);
  const workspace = useRef<HTMLDivElement>(null);
  const layout = useEditorLayout(workspace);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The drawer lists the paths the draft reads first: the check's manifest, once it is open.
  const drawerReads = useDraftReads(previewHtml, drawerOpen);
  // On a phone the source and the preview take turns filling the screen; wide, both show.
  const [pane, setPane] = useState<Pane>("code");
  const shortcuts = useShortcuts();

  return (
    <section aria-labelledby="editor-title" className={styles.page}>
      <EditorToolbar
        name={(sharing.dash ?? htmlTitle(html)) ?? "Untitled dashboard"}
        pane={pane}
        onPane={setPane}
        drawerOpen={drawerOpen}
        onToggleDrawer={() => setDrawerOpen((o) => !o)}
        interactive={interactive}
        data={data}
        sharing={sharing}
        save={saver ? <SaveBox saver={saver} box={saveBox} saved={savedRef} suggested={savedRef?.slug ?? sharing.dash} html={html} note={saveNote} onSaved={(ref) => setSaved({ ref, starter })} retitle={durable.access === "write" ? (titled) => editor.current?.replaceAll(titled) : undefined} /> : null}
        onFormat={() => void formatSource(editor, html, announce)}
        onShortcuts={shortcuts.open}
      />
      <StatusToast status={status} />

      <DraftNotices durable={durable} interactive={interactive} />

      {source.unknownExample !== null ? <ExampleNotice requested={source.unknownExample} starter={starter} /> : null}

      <div
        ref={workspace}
        className={styles.workspace}
        style={{ ["--split" as string]: `${layout.split}%`, ["--dock" as string]: `${layout.dock}px` }}
        data-dragging={layout.resizing || undefined}
        data-pane={pane}
        data-view={view}
      >
        <SourcePane editor={editor} source={source} readOnly={durable.access !== "write"} onUserEdit={clearStatus} findings={findings} keysOpen={shortcuts.isOpen} onShortcuts={shortcuts.open} />
        <PaneSplitter
          value={layout.split}
          onChange={layout.setSplit}
          min={SPLIT_MIN}
          max={SPLIT_MAX}
          container={workspace}
          controls="editor-pane"
          label="Resize the editor and the preview"
          onDragging={layout.setResizing}
        />
        <PreviewPane
          view={view}
          onView={setView}
          data={data}
          preview={preview}
          matrixHtml={matrixHtml}
          author={authorOf(starter, source.edited)}
          reads={previewReads}
          signedIn={saver != null}
          shared={shared}
          ready={report.ready}
          frame={{ onReport: report.onReport, onRequest: logs.onRequest, onRuntime: logs.onRuntime, reportPage: "editor", renderKey: previewHtml }}
        />
        <EditorDock
          layout={layout}
          container={workspace}
          findings={findings}
          onJump={jump}
          consolePanel={view === "single" ? { report: report.report?.body ?? null, stale: report.report !== null && report.report.html !== previewHtml, requests: logs.requests, log: logs.log, onClear: logs.clearLog } : null}
        />
        <EditorDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)}>
          {/* On a phone the preview's data is chosen here; wider, in the toolbar's row. */}
          <PreviewControls data={data} shared={shared} className={styles.phoneOnly} />
          {starters.length > 1 ? <ExampleGallery examples={starters} current={starter} interactive={interactive} onChoose={source.chooseExample} /> : null}
          <VariantsPanel data={data} reads={drawerReads?.paths ?? null} />
        </EditorDrawer>
      </div>
      <ShortcutsDialog open={shortcuts.isOpen} onClose={shortcuts.close} />
      <EditorConfirmations source={source} shared={shared} leaving={leaving} />
    </section>
  );
}
