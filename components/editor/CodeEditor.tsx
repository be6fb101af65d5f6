"use client";

import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import { basicSetup, EditorView } from "codemirror";
import { historyField, indentWithTab } from "@codemirror/commands";
import { keymap } from "@codemirror/view";
import { html as htmlLanguage } from "@codemirror/lang-html";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { Compartment, EditorState, Transaction, type Extension, type Text } from "@codemirror/state";
import type { DraftWarning } from "@/lib/contract/resources";
import { readableHighlighting } from "./highlight";
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

function offsetOf(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.min(Math.max(1, line), doc.lines));
  return Math.min(l.from + Math.max(0, column - 1), l.to);
}

function toDiagnostics(doc: Text, warnings: readonly DraftWarning[]): Diagnostic[] {
  return warnings.map((w) => {
    const from = offsetOf(doc, w.line, w.column);
    const lineEnd = doc.lineAt(from).to;
    return {
      from,
      to: Math.max(from, lineEnd),
      severity: w.severity,
      source: w.rule,
      message: `${w.message}\nHint: ${w.hint}`,
    };
  });
}

/**
 * The state the editor opens in: with the undo history kept from an earlier visit when there is
 * one of this very text, else a fresh one. A history that does not fit is dropped, never the text.
 */
function openingState(doc: string, selection: { anchor: number; head: number }, extensions: Extension[], history: unknown): EditorState {
  if (history !== null && typeof history === "object" && (history as { doc?: unknown }).doc === doc) {
    try {
      const restored = EditorState.fromJSON(history, { extensions }, { history: historyField });
      if (restored.doc.toString() === doc) return restored;
    } catch {
      // Written by another version of the editor, or tampered with: start a fresh history.
    }
  }
  return EditorState.create({ doc, selection, extensions });
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The plain text area the page is drawn with, as markup (the parser drops the newline after the tag, never the value's own). */
function earlySourceHtml(value: string, label: string, readOnly: boolean): string {
  return `<textarea class="${styles.earlySource}" aria-label="${escapeHtml(label)}" data-testid="early-source" spellcheck="false" autocapitalize="off" autocomplete="off"${readOnly ? " readonly" : ""}>\n${escapeHtml(value)}</textarea>`;
}

// Read-only, not uneditable: the text stays focusable, so it can be read and copied by keyboard.
const readOnlyExtensions = (readOnly: boolean) => EditorState.readOnly.of(readOnly);

/** CodeMirror 6 with HTML (and its embedded JavaScript and CSS) highlighting and inline lint. */
export function CodeEditor({ initialValue, initialHistory, onChange, onUserEdit, warnings, checkedValue, label, describedBy, readOnly = false, ref }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  // Until CodeMirror has mounted, the page's own HTML holds the source in a plain text area, so
  // typing works as soon as the page is drawn; what was typed there (and where the cursor was)
  // carries over into CodeMirror, and nothing typed is lost.
  const early = useRef<HTMLDivElement>(null);
  const [mounted, setMounted] = useState(false);
  const view = useRef<EditorView | null>(null);
  const readOnlyPart = useRef(new Compartment());
  const readOnlyNow = useRef(readOnly);
  const latestChange = useRef(onChange);
  const initial = useRef(initialValue);
  const initialHistoryRef = useRef(initialHistory);

  const latestUserEdit = useRef(onUserEdit);
  useEffect(() => {
    latestChange.current = onChange;
    latestUserEdit.current = onUserEdit;
  });

  useEffect(() => {
    if (!host.current) return;
    const area = early.current?.querySelector("textarea") ?? null;
    const typed = area && area.value !== initial.current ? area.value : null;
    const doc = typed ?? initial.current;
    const hadFocus = area !== null && document.activeElement === area;
    const anchor = area && hadFocus ? Math.min(area.selectionStart, doc.length) : 0;
    const head = area && hadFocus ? Math.min(area.selectionEnd, doc.length) : 0;
    const extensions = [
        basicSetup,
        readableHighlighting,
        // Tab indents, as in any code editor; Escape then Tab (CodeMirror's tab focus mode)
        // moves focus on, so keyboard users are never trapped.
        keymap.of([indentWithTab]),
        htmlLanguage(),
        lintGutter(),
        EditorView.lineWrapping,
        readOnlyPart.current.of(readOnlyExtensions(readOnlyNow.current)),
        // tabindex makes the editable content count as the scroller's focusable content for
        // checkers that do not treat contenteditable as focusable; Tab order is unchanged.
        EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true", tabindex: "0", ...(describedBy ? { "aria-describedby": describedBy } : {}) }),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          latestChange.current(u.state.doc.toString());
          if (u.transactions.some((tr) => tr.annotation(Transaction.userEvent) !== undefined)) latestUserEdit.current?.();
        }),
      ];
    const v = new EditorView({ parent: host.current, state: openingState(doc, { anchor, head }, extensions, typed === null ? initialHistoryRef.current : undefined) });
    view.current = v;
    // From here on keystrokes belong to CodeMirror: the text area goes at once, not at React's
    // next render, so nothing can be typed into it and lost.
    if (area) area.hidden = true;
    if (hadFocus) v.focus();
    if (typed !== null) latestChange.current(typed);
    setMounted(true);
    return () => {
      v.destroy();
      view.current = null;
    };
  }, [label, describedBy]);

  useImperativeHandle(
    ref,
    () => ({
      goTo: (line, column = 1) => {
        const v = view.current;
        if (!v) return;
        const at = offsetOf(v.state.doc, line, column);
        v.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: "center" }) });
        v.focus();
      },
      replaceAll: (text) => {
        const v = view.current;
        if (!v || text === v.state.doc.toString()) return;
        const head = Math.min(v.state.selection.main.head, text.length);
        v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text }, selection: { anchor: head } });
      },
      value: () => view.current?.state.doc.toString() ?? initial.current,
      history: () => view.current?.state.toJSON({ history: historyField }),
    }),
    [],
  );

  useEffect(() => {
    readOnlyNow.current = readOnly;
    view.current?.dispatch({ effects: readOnlyPart.current.reconfigure(readOnlyExtensions(readOnly)) });
  }, [readOnly]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    // Offsets of findings on an older text would land on the wrong characters.
    if (v.state.doc.toString() !== checkedValue) return;
    v.dispatch(setDiagnostics(v.state, toDiagnostics(v.state.doc, warnings)));
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
