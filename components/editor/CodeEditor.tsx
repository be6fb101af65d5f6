"use client";

import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import type { DraftWarning } from "@/lib/contract/resources";
import type { MountedEditor } from "./codemirror-mount";
import styles from "./editor.module.css";

interface CodeEditorProps {
  /** The document the editor opens with; later changes of this prop are ignored. */
  initialValue: string;
  /** The undo history to open with (CodeMirror's state JSON of `initialValue`), kept from an earlier visit. */
  initialHistory?: unknown;
  onChange: (value: string) => void;
  /** The author changed the text themselves (typing, pasting, undo), not the page. */
  onUserEdit?: () => void;
  /** Findings of the static check, for the document they were computed on. */
  warnings: readonly DraftWarning[];
  /** The document the warnings were computed on: stale findings are not drawn on newer text. */
  checkedValue: string;
  label: string;
  /** The id of text that describes the editor (how to leave it with the keyboard). */
  describedBy?: string;
  /** Shown but not editable (a draft someone else writes). */
  readOnly?: boolean;
  ref?: Ref<CodeEditorHandle>;
}

/** What the page around the editor may do to it. */
export interface CodeEditorHandle {
  /** Puts the cursor at `line` (and `column`, from 1), scrolls it into view and focuses the editor. */
  goTo: (line: number, column?: number) => void;
  /** Replaces the whole document as one edit, which undo takes back. */
  replaceAll: (text: string) => void;
  value: () => string;
  /** The state as JSON with its undo history, to keep beside the text. */
  history: () => unknown;
}

/** Lets the browser paint and take input before the next piece of work. */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * CodeMirror's packages, each evaluated in a task of its own with the browser free in between:
 * loaded at once they held a phone's main thread for over a second while the page was already
 * drawn and its text area was taking keystrokes.
 */
async function loadCodeMirror() {
  for (const load of [() => import("@codemirror/state"), () => import("@codemirror/view"), () => import("@codemirror/language"), () => import("@codemirror/lang-html"), () => import("codemirror")]) {
    await load();
    await yieldToBrowser();
  }
  return import("./codemirror-mount");
}

/**
 * The phone layout (editor.module.css, `max-width: 640px`). There the text area stays until the
 * author touches the source: building CodeMirror costs a phone's CPU about a second of main
 * thread, and a phone visitor often only reads or previews. On wider screens it mounts at once.
 */
const EDITOR_ON_TOUCH_QUERY = "(max-width: 640px)";

/** Offset of `line`/`column` (from 1) in plain text, for the text area shown before CodeMirror. */
function plainOffset(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf("\n", at);
    if (next === -1) break;
    at = next + 1;
  }
  const end = text.indexOf("\n", at);
  return Math.min(at + Math.max(0, column - 1), end === -1 ? text.length : end);
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The plain text area the page is drawn with, as markup (the parser drops the newline after the tag, never the value's own). */
function earlySourceHtml(value: string, label: string, readOnly: boolean): string {
  return `<textarea class="${styles.earlySource}" aria-label="${escapeHtml(label)}" data-testid="early-source" spellcheck="false" autocapitalize="off" autocomplete="off"${readOnly ? " readonly" : ""}>\n${escapeHtml(value)}</textarea>`;
}

/**
 * Starts CodeMirror at once, or on a phone when the author first touches the text area: focus
 * covers a tap, a keyboard's Tab and a finding's jump to its line (which focuses the text area);
 * the caret and anything typed meanwhile carry over. Answers how to stop waiting.
 */
function startWhenWanted(untouched: HTMLTextAreaElement | null, start: () => void): () => void {
  if (!untouched || !window.matchMedia(EDITOR_ON_TOUCH_QUERY).matches) {
    start();
    return () => {};
  }
  const stop = () => {
    untouched.removeEventListener("focus", onTouch);
    untouched.removeEventListener("pointerdown", onTouch);
  };
  const onTouch = () => {
    stop();
    start();
  };
  untouched.addEventListener("focus", onTouch);
  untouched.addEventListener("pointerdown", onTouch);
  return stop;
}

/** The handle the page holds: on the text area until CodeMirror has mounted, then on CodeMirror. */
function editorHandle(earlyArea: () => HTMLTextAreaElement | null, editor: { current: MountedEditor | null }, changed: (text: string) => void, initial: { current: string }): CodeEditorHandle {
  return {
    goTo: (line, column = 1) => {
      const area = earlyArea();
      if (area) {
        const at = plainOffset(area.value, line, column);
        area.focus();
        area.setSelectionRange(at, at);
        return;
      }
      editor.current?.goTo(line, column);
    },
    replaceAll: (text) => {
      const area = earlyArea();
      if (area) {
        if (area.value === text) return;
        area.value = text;
        changed(text);
        return;
      }
      editor.current?.replaceAll(text);
    },
    value: () => editor.current?.value() ?? earlyArea()?.value ?? initial.current,
    history: () => editor.current?.history(),
  };
}

/** The source editor: CodeMirror 6 once loaded, a plain text area holding the text until then. */
export function CodeEditor({ initialValue, initialHistory, onChange, onUserEdit, warnings, checkedValue, label, describedBy, readOnly = false, ref }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  // Until CodeMirror has mounted, the page's own HTML holds the source in a plain text area, so
  // typing works as soon as the page is drawn and the preview follows it; what was typed there
  // (and where the cursor was) carries over into CodeMirror, and nothing typed is lost.
  const early = useRef<HTMLDivElement>(null);
  const [mounted, setMounted] = useState(false);
  const editor = useRef<MountedEditor | null>(null);
  const readOnlyNow = useRef(readOnly);
  const findings = useRef({ warnings, checkedValue });
  const latestChange = useRef(onChange);
  const initial = useRef(initialValue);
  const initialHistoryRef = useRef(initialHistory);

  const latestUserEdit = useRef(onUserEdit);
  useEffect(() => {
    latestChange.current = onChange;
    latestUserEdit.current = onUserEdit;
  });

  const earlyArea = () => (editor.current ? null : (early.current?.querySelector("textarea") ?? null));

  useEffect(() => {
    const area = earlyArea();
    if (!area) return;
    const typed = () => {
      latestChange.current(area.value);
      latestUserEdit.current?.();
    };
    // Typed before the page's script ran.
    if (area.value !== initial.current) typed();
    area.addEventListener("input", typed);
    return () => area.removeEventListener("input", typed);
  }, []);

  useEffect(() => {
    let cancelled = false;
    let mountedHere: MountedEditor | null = null;
    const start = () => loadCodeMirror().then(({ mountEditor }) => {
      if (cancelled || !host.current) return;
      const area = earlyArea();
      const typed = area && area.value !== initial.current ? area.value : null;
      const doc = typed ?? initial.current;
      const hadFocus = area !== null && document.activeElement === area;
      const anchor = area && hadFocus ? Math.min(area.selectionStart, doc.length) : 0;
      const head = area && hadFocus ? Math.min(area.selectionEnd, doc.length) : 0;
      mountedHere = mountEditor(host.current, {
        doc,
        selection: { anchor, head },
        history: typed === null ? initialHistoryRef.current : undefined,
        label,
        describedBy,
        readOnly: readOnlyNow.current,
        onChange: (value) => latestChange.current(value),
        onUserEdit: () => latestUserEdit.current?.(),
      });
      editor.current = mountedHere;
      // From here on keystrokes belong to CodeMirror: the text area goes at once, not at React's
      // next render, so nothing can be typed into it and lost.
      if (area) area.hidden = true;
      if (hadFocus) mountedHere.focus();
      mountedHere.showFindings(findings.current.warnings, findings.current.checkedValue);
      setMounted(true);
    });
    const stopWaiting = startWhenWanted(earlyArea(), () => void start());
    return () => {
      stopWaiting();
      cancelled = true;
      mountedHere?.destroy();
      if (editor.current === mountedHere) editor.current = null;
    };
  }, [label, describedBy]);

  useImperativeHandle(ref, () => editorHandle(earlyArea, editor, (text) => latestChange.current(text), initial), []);

  useEffect(() => {
    readOnlyNow.current = readOnly;
    editor.current?.setReadOnly(readOnly);
  }, [readOnly]);

  useEffect(() => {
    findings.current = { warnings, checkedValue };
    editor.current?.showFindings(warnings, checkedValue);
  }, [warnings, checkedValue]);

  return (
    <div className={styles.editor} data-testid="code-editor">
      <div ref={host} className={styles.editorHost} />
      {mounted ? null : (
        // Markup React does not manage: hydrating a text area puts its first value back, which
        // would drop what was typed before the page's script ran.
        <div ref={early} className={styles.earlyHost} dangerouslySetInnerHTML={{ __html: earlySourceHtml(initialValue, label, readOnly) }} suppressHydrationWarning />
      )}
    </div>
  );
}
