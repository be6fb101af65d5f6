"use client";

import { useEffect, useImperativeHandle, useRef, type Ref } from "react";
import { basicSetup, EditorView } from "codemirror";
import { indentWithTab } from "@codemirror/commands";
import { keymap } from "@codemirror/view";
import { html as htmlLanguage } from "@codemirror/lang-html";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { Compartment, EditorState, type Text } from "@codemirror/state";
import type { DraftWarning } from "@/lib/contract/resources";
import styles from "./editor.module.css";

export interface CodeEditorProps {
  /** The document the editor opens with; later changes of this prop are ignored. */
  initialValue: string;
  onChange: (value: string) => void;
  /** Findings of the static check, for the document they were computed on. */
  warnings: readonly DraftWarning[];
  /** The document the warnings were computed on: stale findings are not drawn on newer text. */
  checkedValue: string;
  label: string;
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
}

function offsetOf(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.min(Math.max(1, line), doc.lines));
  return Math.min(l.from + Math.max(0, column - 1), l.to);
}

export function toDiagnostics(doc: Text, warnings: readonly DraftWarning[]): Diagnostic[] {
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

// Read-only, not uneditable: the text stays focusable, so it can be read and copied by keyboard.
const readOnlyExtensions = (readOnly: boolean) => EditorState.readOnly.of(readOnly);

/** CodeMirror 6 with HTML (and its embedded JavaScript and CSS) highlighting and inline lint. */
export function CodeEditor({ initialValue, onChange, warnings, checkedValue, label, readOnly = false, ref }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const readOnlyPart = useRef(new Compartment());
  const readOnlyNow = useRef(readOnly);
  const latestChange = useRef(onChange);
  const initial = useRef(initialValue);

  useEffect(() => {
    latestChange.current = onChange;
  });

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      doc: initial.current,
      extensions: [
        basicSetup,
        // Tab indents, as in any code editor; Escape then Tab (CodeMirror's tab focus mode)
        // moves focus on, so keyboard users are never trapped.
        keymap.of([indentWithTab]),
        htmlLanguage(),
        lintGutter(),
        EditorView.lineWrapping,
        readOnlyPart.current.of(readOnlyExtensions(readOnlyNow.current)),
        // tabindex makes the editable content count as the scroller's focusable content for
        // checkers that do not treat contenteditable as focusable; Tab order is unchanged.
        EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true", tabindex: "0" }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) latestChange.current(u.state.doc.toString());
        }),
      ],
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, [label]);

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

  return <div ref={host} className={styles.editor} data-testid="code-editor" />;
}
