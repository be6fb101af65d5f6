"use client";

import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import { DashboardFrame, type ConsoleNotice, type ErrorNotice, type RenderReportBody, type RequestLogEntry } from "@/components/dashboard-frame/DashboardFrame";
import { ConsentedFrame } from "@/components/dashboard-frame/ConsentedFrame";
import { sendRenderReport } from "@/components/dashboard-frame/send-report";
import type { CodeAuthor } from "@/lib/consent/live";
import { SaveToSpace, saveRevision, type SavedRef, type Saver } from "@/components/saved/SaveToSpace";
import { htmlTitle } from "@/lib/saved/slug";
import { ConfirmDialog } from "@/components/ui/ConfirmDialog";
import { CodeEditor, type CodeEditorHandle } from "./CodeEditor";
import { ConsolePanel } from "./ConsolePanel";
import { emptyLog, logged, type ConsoleLog } from "./console-log";
import { DraftNotices } from "./DraftNotices";
import type { EditorExample } from "./editor-example";
import { DrawerToggle, EditorDrawer } from "./EditorDrawer";
import { ExampleGallery, ExampleNotice } from "./ExampleGallery";
import { FindingsPanel } from "./FindingsPanel";
import { PaneSplitter } from "./PaneSplitter";
import { ActiveState, PreviewControls, VariantsPanel, ViewSwitch, type View } from "./PreviewControls";
import { SharePanel } from "./SharePanel";
import { isTyping, ShortcutsDialog } from "./ShortcutsDialog";
import { PaneSwitch, type Pane } from "./PaneSwitch";
import { MORE_ID, MORE_TOGGLE_ID } from "./toolbar-ids";
import { StateMatrix } from "./StateMatrix";
import { StatusToast, type Status } from "./StatusToast";
import { MenuButton } from "@/components/ui/MenuButton";
import { useDebounced, useIdleDebounced } from "./useDebounced";
import { preloadCheck, useDraftReads } from "./useDraftCheck";
import { useDraftSharing } from "./useDraftSharing";
import { useEditorSource } from "./useEditorSource";
import { useFindings } from "./useFindings";
import { draftLoading, useDurableDraft } from "./useDurableDraft";
import { useLeaveGuard } from "./useLeaveGuard";
import { usePaneSplit } from "./usePaneSplit";
import { usePreviewData } from "./usePreviewData";
import { useInteractive } from "@/components/interactive";
import styles from "./editor.module.css";

export type { EditorExample } from "./editor-example";

// A pause this long in typing updates the preview, at the page's next idle moment (at most
// PREVIEW_IDLE_MS later), so a keystroke shows in the preview in about a fifth of a second.
const PREVIEW_DEBOUNCE_MS = 120;
const PREVIEW_IDLE_MS = 60;
// Several frames restart at once in the matrix: wait for a longer pause in typing.
const MATRIX_DEBOUNCE_MS = 1_000;
/** The editor's share of the width, in percent, and how far the splitter may move it. */
const SPLIT_DEFAULT = 50;
const SPLIT_MIN = 25;
const SPLIT_MAX = 75;
/**
 * The dock under the panes (the check's findings, the console) in px: tall enough that the first
 * finding reads whole and three fit at 1440×900, never so tall the panes above drop under PANES_MIN.
 */
const DOCK_DEFAULT = 340;
const DOCK_MIN = 150;
const DOCK_LIMIT = 4_000;
const PANES_MIN = 200;
/** The request log keeps the newest entries of the dashboard now running. */
const REQUESTS_SHOWN = 200;

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

/** The playground editor: source on one side, its live preview on the other, and sharing. */
export function PlaygroundEditor({ examples: starters, requestedExample, openHandoff, saver, draftId }: PlaygroundEditorProps) {
  const [status, setStatus] = useState<Status>({ text: "", seq: 0 });
  // Each message is a new toast, the same words said again included.
  const announce = useCallback((text: string) => setStatus((s) => ({ text, seq: s.seq + 1 })), []);
  const clearStatus = useCallback(() => setStatus((s) => (s.text ? { text: "", seq: s.seq + 1 } : s)), []);
  const source = useEditorSource(starters, requestedExample, announce, draftId ? draftLoading(draftId) : undefined);
  const { starter, html } = source;
  const [view, setView] = useState<View>("single");
  const data = usePreviewData();
  // The revision of the person's space this document last went to (saved here, or handed over
  // from their space), for the document it was: another example or draft starts unsaved again.
  const [saved, setSaved] = useState<{ ref: SavedRef; starter: EditorExample | undefined } | null>(null);
  const savedRef = saved && saved.starter === starter ? saved.ref : null;
  const interactive = useInteractive();

  // The document's key travels with its text, so the preview never pairs one document's consent
  // with another's code (a new document asks afresh: see the preview below).
  const typed = useMemo(() => ({ html, key: source.editorKey }), [html, source.editorKey]);
  const preview = useIdleDebounced(typed, PREVIEW_DEBOUNCE_MS, PREVIEW_IDLE_MS);
  const previewHtml = preview.html;
  const matrixHtml = useDebounced(html, MATRIX_DEBOUNCE_MS);
  const findings = useFindings(previewHtml, starters);
  // On live data the preview is served only the paths its code names, after the viewer agreed.
  const previewReads = useDraftReads(previewHtml, data.live);
  const [previewData, setPreviewData] = useState<"live" | "demo" | "waiting">("demo");
  const sharing = useDraftSharing({ html, scenario: data.scenario, examples: data.examples, mode: data.mode, announce });
  const { revision } = sharing;
  const shared = sharing.share.kind === "shared";
  const editor = useRef<CodeEditorHandle>(null);
  const historyOf = useCallback(() => editor.current?.history(), []);
  const onOwnHandoff = useCallback(
    (from: { starter: EditorExample; slug: string; revision: number; html: string }) => {
      if (saver) setSaved({ starter: from.starter, ref: { path: `/~/${saver.handle}/${from.slug}`, slug: from.slug, revision: from.revision, html: from.html } });
    },
    [saver],
  );
  const durable = useDurableDraft({ draftId, openHandoff, source, data, sharing, announce, historyOf, onOwnHandoff });

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
  const authorLink = sharing.share.kind === "shared" ? sharing.share.postUrl : null;
  useEffect(() => {
    if (!sharedAs || sharedAs.live || !previewReport || reportedRevisions.current.has(sharedAs.revision)) return;
    const same = sharedAs.draft.html === previewReport.html && sharedAs.draft.scenario === previewReport.scenario && JSON.stringify(sharedAs.draft.examples) === previewReport.examples;
    if (!same) return;
    reportedRevisions.current.add(sharedAs.revision);
    // This editor holds the write link: its report counts as the author's.
    void sendRenderReport(authorLink ? { postUrl: authorLink } : { readId: sharedAs.id }, sharedAs.revision, previewReport.body);
  }, [sharedAs, previewReport, authorLink]);

  // Edits are lost on leaving only when this browser would not keep them, and they are neither
  // shared (then every edit is pushed) nor saved.
  const leaving = useLeaveGuard(source.edited && !durable.kept && !shared && html !== savedRef?.html ? "Leave the playground? Your edits are not shared or saved, and will be lost." : null);

  const jump = useCallback((line: number, column?: number) => editor.current?.goTo(line, column), []);
  const workspace = useRef<HTMLDivElement>(null);
  const [split, setSplit] = usePaneSplit("playground.editor-split", SPLIT_DEFAULT, SPLIT_MIN, SPLIT_MAX);
  const [dockKept, setDock] = usePaneSplit("playground.dock-height", DOCK_DEFAULT, DOCK_MIN, DOCK_LIMIT);
  // The dock may grow until the panes above it would be shorter than PANES_MIN, in this window.
  const [dockMax, setDockMax] = useState(DOCK_LIMIT);
  useEffect(() => {
    const el = workspace.current;
    if (!el || typeof ResizeObserver !== "function") return;
    const observer = new ResizeObserver(() => setDockMax(Math.max(DOCK_MIN, el.clientHeight - PANES_MIN)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const dock = Math.min(dockKept, dockMax);
  const [resizing, setResizing] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The drawer lists the paths the draft reads first: the check's manifest, once it is open.
  const drawerReads = useDraftReads(previewHtml, drawerOpen);

  // The preview starts once the page has hydrated and has a moment to spare: the dashboard's own
  // work (its reads, its drawing) never stands between the page and the author's first keystroke.
  const [previewOn, setPreviewOn] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback !== "function") {
      const t = setTimeout(() => setPreviewOn(true), 0);
      return () => clearTimeout(t);
    }
    const id = window.requestIdleCallback(() => setPreviewOn(true), { timeout: 300 });
    return () => window.cancelIdleCallback(id);
  }, []);

  // Until the first dashboard has settled, the preview shows that it is working rather than a
  // half-drawn page (a table's headers without rows).
  const [previewReady, setPreviewReady] = useState(false);
  const onReport = useCallback(
    (body: RenderReportBody, key: string | number | undefined) => {
      setPreviewReady(true);
      onPreviewReport(body, key);
    },
    [onPreviewReport],
  );

  // Every console line and uncaught error of the dashboard now in the preview, from its start:
  // a new document starts a new log, a restart of the same one (a scenario switch) goes on with it.
  const [consoleLog, setConsoleLog] = useState<ConsoleLog>(() => emptyLog(""));
  const onRuntime = useCallback((notice: ErrorNotice | ConsoleNotice) => setConsoleLog((log) => logged(log, previewHtml, notice)), [previewHtml]);
  const logShown = consoleLog.html === previewHtml ? consoleLog : emptyLog(previewHtml);
  const clearLog = useCallback(() => setConsoleLog(emptyLog(previewHtml)), [previewHtml]);

  // The requests of the dashboard now in the preview: a new document starts a new log.
  const [requestLog, setRequestLog] = useState<{ html: string; entries: RequestLogEntry[] }>({ html: "", entries: [] });
  const onRequest = useCallback(
    (entry: RequestLogEntry) =>
      setRequestLog((log) => {
        const entries = log.html === previewHtml ? [...log.entries, entry].slice(-REQUESTS_SHOWN) : [entry];
        return { html: previewHtml, entries };
      }),
    [previewHtml],
  );
  const requests = requestLog.html === previewHtml ? requestLog.entries : [];
  const reportStale = previewReport !== null && previewReport.html !== previewHtml;

  // The check that the formatted copy reads the same (the HTML parser with it) is fetched when
  // Format is first pressed, not with the editor.
  const format = async () => {
    const before = editor.current?.value() ?? html;
    const { formatChecked } = await import("./format-check");
    const outcome = formatChecked(before);
    // Typed over while the check loaded: what was checked is no longer the document.
    if ((editor.current?.value() ?? html) !== before) return;
    if (outcome.kind === "refused") announce(outcome.message);
    else if (outcome.kind === "unchanged") announce("Already formatted.");
    else {
      editor.current?.replaceAll(outcome.text);
      announce("Formatted: indentation follows the nesting. Undo puts it back.");
    }
  };

  const saveNote = revision ? `From the playground editor, draft revision ${revision}` : "From the playground editor";
  const savingNow = useRef(false);
  // A dashboard already in the person's space takes the source as its next revision at once.
  const saveAgain = async (to: SavedRef, by: Saver) => {
    if (savingNow.current) return;
    const now = html;
    if (now === to.html) {
      announce(`Nothing to save: revision ${to.revision} at ${to.path} is what the editor has.`);
      return;
    }
    savingNow.current = true;
    announce(`Saving to ${to.path}…`);
    const res = await saveRevision(by, to.slug, now, saveNote);
    savingNow.current = false;
    if (!res.ok) {
      announce(`Not saved. ${res.message} Your edits are still in the editor.`);
      return;
    }
    setSaved({ ref: res.saved, starter });
    announce(`Saved revision ${res.saved.revision} to ${res.saved.path}`);
  };

  // Ctrl/Cmd+S keeps the work the way this person can: saved to their space when signed in,
  // shared as a draft otherwise; never the browser's "save page as".
  const saveBox = useRef<HTMLSpanElement>(null);
  const { share: shareState, shareDraft } = sharing;
  const keep = useEffectEvent(() => {
    if (saver) {
      const box = saveBox.current;
      const form = box?.querySelector("form");
      if (form) form.requestSubmit();
      else if (savedRef) void saveAgain(savedRef, saver);
      // The first save asks for a title and an address; opening the form puts focus in its title.
      else box?.querySelector("button")?.click();
      return;
    }
    if (shareState.kind === "idle" || shareState.kind === "failed") void shareDraft();
    else if (shareState.kind === "shared") announce("Already shared: every edit reaches watchers.");
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== "s") return;
      e.preventDefault();
      if (!e.repeat) keep();
    };
    // In the capture phase, so the key is taken before anything inside the page sees it.
    window.addEventListener("keydown", onKey, { capture: true });
    return () => window.removeEventListener("keydown", onKey, { capture: true });
  }, []);

  // On a phone the source and the preview take turns filling the screen; wide, both show.
  const [pane, setPane] = useState<Pane>("code");
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      e.preventDefault();
      setShortcutsOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const name = (sharing.dash ?? htmlTitle(html)) ?? "Untitled dashboard";
  const author: CodeAuthor = {
    kind: "editor",
    from: starter?.source?.from ?? (starter ? `the “${starter.label}” example${source.edited ? ", with edits" : ""}` : "this editor"),
    own: starter?.source?.own ?? false,
  };
  const previewFrame = { onReport, onRequest, onRuntime, reportPage: "editor" as const, renderKey: previewHtml };

  return (
    <section aria-labelledby="editor-title" className={styles.page}>
      {/* One row at every desktop width, whatever the title or the state: what does not fit is
          under More, and messages are toasts (StatusToast) rather than text in the row. */}
      <div className={styles.toolbar} data-testid="editor-toolbar">
        <h1 id="editor-title" className={styles.title}>
          Dashboard playground
        </h1>
        <span className={styles.docName} title={name} data-testid="editor-name">
          {name}
        </span>
        <p className={styles.revision}>
          Revision <span data-testid="editor-revision">{revision ?? "not shared"}</span>
        </p>
        <PaneSwitch pane={pane} onPane={setPane} />
        <DrawerToggle open={drawerOpen} disabled={!interactive} onToggle={() => setDrawerOpen((o) => !o)} className={styles.wideOnly} />
        <PreviewControls data={data} shared={shared} className={styles.wideOnly} />
        <SharePanel sharing={sharing} interactive={interactive} keepsOnCtrlS={!saver}>
          {saver ? (
            <span ref={saveBox} className={styles.save}>
              <SaveToSpace
                handle={saver.handle}
                csrf={saver.csrf}
                suggested={savedRef?.slug ?? sharing.dash}
                html={html}
                note={saveNote}
                saved={savedRef}
                onSaved={(ref) => setSaved({ ref, starter })}
                retitle={durable.access === "write" ? (titled) => editor.current?.replaceAll(titled) : undefined}
                keyShortcuts="Control+S Meta+S"
              />
            </span>
          ) : null}
        </SharePanel>
        <MenuButton id={MORE_ID} buttonId={MORE_TOGGLE_ID} label={
            <>
              More <span aria-hidden="true">▾</span>
            </>
          }
          menuLabel="More actions" className={styles.moreBox} buttonClassName={styles.moreToggle} menuClassName={styles.menu}>
          {/* On a phone the drawer opens from here; wider, its button is in the row. */}
          <button type="button" role="menuitem" className={styles.phoneOnly} aria-controls="editor-drawer" disabled={!interactive} onClick={() => setDrawerOpen((o) => !o)}>
            Examples &amp; data
          </button>
          <button type="button" role="menuitem" disabled={!interactive} onClick={() => void format()}>
            Format
          </button>
          <button type="button" role="menuitem" aria-keyshortcuts="?" onClick={() => setShortcutsOpen(true)}>
            Shortcuts
          </button>
        </MenuButton>
      </div>
      <StatusToast status={status} />

      <DraftNotices durable={durable} interactive={interactive} />

      {source.unknownExample !== null ? <ExampleNotice requested={source.unknownExample} starter={starter} /> : null}

      <div
        ref={workspace}
        className={styles.workspace}
        style={{ ["--split" as string]: `${split}%`, ["--dock" as string]: `${dock}px` }}
        data-dragging={resizing || undefined}
        data-pane={pane}
        data-view={view}
      >
        <div
          id="editor-pane"
          className={styles.sourcePane}
          // The hint stays while its list of shortcuts is open, so focus has its button to return to.
          data-keys-open={shortcutsOpen || undefined}
          onFocus={() => void preloadCheck().catch(() => {})}
          role="group"
          aria-label="Source"
        >
          <CodeEditor
            ref={editor}
            initialValue={source.initialHtml}
            initialHistory={source.initialHistory}
            key={source.editorKey}
            readOnly={durable.access !== "write"}
            onChange={source.setHtml}
            // What the status line said was of the document before this edit.
            onUserEdit={clearStatus}
            warnings={findings.warnings}
            checkedValue={findings.check.kind === "done" ? findings.check.checked : ""}
            label="Dashboard HTML"
            describedBy="editor-keys"
          />
          <p id="editor-keys" className={styles.keysHint} data-testid="editor-keys">
            Tab indents. To leave the editor, press Esc, then Tab.{" "}
            <button type="button" className={styles.linkButton} onClick={() => setShortcutsOpen(true)}>
              All shortcuts
            </button>
          </p>
        </div>
        <PaneSplitter
          value={split}
          onChange={setSplit}
          min={SPLIT_MIN}
          max={SPLIT_MAX}
          container={workspace}
          controls="editor-pane"
          label="Resize the editor and the preview"
          onDragging={setResizing}
        />
        <div id="preview-pane" className={styles.previewPane} role="group" aria-label="Preview">
          <div className={styles.paneBar}>
            <ViewSwitch view={view} onView={setView} />
            <ActiveState data={data} />
          </div>
          {view === "single" ? (
            <div className={styles.previewStage} aria-busy={!previewReady} data-testid="preview-stage">
              {!previewOn ? null : data.live ? (
                // A new document (another example, a draft, a saved dashboard) asks afresh.
                <ConsentedFrame
                  key={preview.key}
                  html={previewHtml}
                  title="Dashboard preview"
                  author={author}
                  reads={previewReads}
                  signedIn={saver != null}
                  reask="inline"
                  // Once shared, the draft's data is fixed: declining shows demo data here only.
                  onDecline={shared ? undefined : () => data.setMode("demo")}
                  demo={{ scenario: data.scenario || undefined, examples: data.examples }}
                  onDataChange={setPreviewData}
                  frame={previewFrame}
                />
              ) : (
                <DashboardFrame
                  html={previewHtml}
                  data={{ mode: "demo", scenario: data.scenario || undefined, examples: data.examples }}
                  title="Dashboard preview"
                  {...previewFrame}
                />
              )}
              {previewReady || (data.live && previewData === "waiting") ? null : (
                <p className={styles.loading} role="status" data-testid="preview-loading">
                  Rendering preview…
                </p>
              )}
            </div>
          ) : (
            <StateMatrix html={matrixHtml} />
          )}
        </div>
        {/* The dock: the check's findings under the source and the console under the preview,
            one height for both, resized from the separator above them. */}
        <PaneSplitter
          orientation="horizontal"
          value={dock}
          onChange={setDock}
          min={DOCK_MIN}
          max={dockMax}
          container={workspace}
          controls="editor-dock"
          label="Resize the check and the console"
          valueText={`${Math.round(dock)} pixels`}
          onDragging={setResizing}
          className={styles.dockSplitter}
          testId="dock-splitter"
        />
        <div id="editor-dock" className={styles.dock} data-testid="editor-dock">
          <div className={styles.checkPane}>
            <FindingsPanel {...findings} onJump={jump} />
          </div>
          {view === "single" ? (
            <div className={styles.consolePane}>
              <ConsolePanel report={previewReport?.body ?? null} stale={reportStale} requests={requests} log={logShown} onClear={clearLog} onJump={jump} />
            </div>
          ) : null}
        </div>
        <EditorDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)}>
          {/* On a phone the preview's data is chosen here; wider, in the toolbar's row. */}
          <PreviewControls data={data} shared={shared} className={styles.phoneOnly} />
          {starters.length > 1 ? <ExampleGallery examples={starters} current={starter} interactive={interactive} onChoose={source.chooseExample} /> : null}
          <VariantsPanel data={data} reads={drawerReads?.paths ?? null} />
        </EditorDrawer>
      </div>
      <ShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />
      <ConfirmDialog
        open={source.pendingExample !== null}
        title={`Load the “${source.pendingExample?.label ?? ""}” example?`}
        confirmLabel="Load it"
        cancelLabel="Keep my edits"
        danger
        onConfirm={() => source.answerPending(true)}
        onCancel={() => source.answerPending(false)}
      >
        <p>{shared ? "Your edits will be lost, and watchers will see the example as the next revision." : "Your edits will be lost."}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={leaving.pendingHref !== null}
        title="Leave the playground?"
        confirmLabel="Leave"
        cancelLabel="Stay"
        danger
        onConfirm={() => leaving.answer(true)}
        onCancel={() => leaving.answer(false)}
      >
        <p>Your edits are not shared or saved, and this browser cannot keep them: they will be lost.</p>
      </ConfirmDialog>
    </section>
  );
}
