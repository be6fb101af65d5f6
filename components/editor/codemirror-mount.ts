import { basicSetup, EditorView } from "codemirror";
import { historyField, indentWithTab } from "@codemirror/commands";
import { keymap } from "@codemirror/view";
import { html as htmlLanguage } from "@codemirror/lang-html";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { Compartment, EditorState, Transaction, type Extension, type Text } from "@codemirror/state";
import type { DraftWarning } from "@/lib/contract/resources";
import { readableHighlighting } from "./highlight";

// CodeMirror itself, apart from the component that shows it: the page is drawn and usable (a
// plain text area) before this module and its packages are loaded, in pieces (CodeEditor.tsx).

export interface MountOptions {
  doc: string;
  selection: { anchor: number; head: number };
  /** CodeMirror's state JSON with its undo history, from an earlier visit; used only if it is of `doc`. */
  history: unknown;
  label: string;
  describedBy?: string;
  readOnly: boolean;
  onChange: (value: string) => void;
  onUserEdit: () => void;
}

/** What the component does to a mounted editor. */
export interface MountedEditor {
  goTo(line: number, column: number): void;
  replaceAll(text: string): void;
  value(): string;
  history(): unknown;
  focus(): void;
  setReadOnly(readOnly: boolean): void;
  /** Draws the static check's findings, when they were computed on the text shown now. */
  showFindings(warnings: readonly DraftWarning[], checkedValue: string): void;
  destroy(): void;
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

// Read-only, not uneditable: the text stays focusable, so it can be read and copied by keyboard.
const readOnlyExtensions = (readOnly: boolean) => EditorState.readOnly.of(readOnly);

/** CodeMirror 6 with HTML (and its embedded JavaScript and CSS) highlighting and inline lint, in `parent`. */
export function mountEditor(parent: HTMLElement, options: MountOptions): MountedEditor {
  const readOnlyPart = new Compartment();
  const languagePart = new Compartment();
  const extensions = [
    basicSetup,
    readableHighlighting,
    // Tab indents, as in any code editor; Escape then Tab (CodeMirror's tab focus mode) moves
    // focus on, so keyboard users are never trapped.
    keymap.of([indentWithTab]),
    // The language comes a task later: parsing the text is the larger part of opening the editor,
    // and the text can be shown (and typed in) before it is coloured.
    languagePart.of([]),
    lintGutter(),
    EditorView.lineWrapping,
    readOnlyPart.of(readOnlyExtensions(options.readOnly)),
    // tabindex makes the editable content count as the scroller's focusable content for checkers
    // that do not treat contenteditable as focusable; Tab order is unchanged.
    EditorView.contentAttributes.of({ "aria-label": options.label, "aria-multiline": "true", tabindex: "0", ...(options.describedBy ? { "aria-describedby": options.describedBy } : {}) }),
    EditorView.updateListener.of((u) => {
      if (!u.docChanged) return;
      options.onChange(u.state.doc.toString());
      if (u.transactions.some((tr) => tr.annotation(Transaction.userEvent) !== undefined)) options.onUserEdit();
    }),
  ];
  const view = new EditorView({ parent, state: openingState(options.doc, options.selection, extensions, options.history) });
  const withLanguage = setTimeout(() => view.dispatch({ effects: languagePart.reconfigure(htmlLanguage()) }), 0);
  return {
    goTo(line, column) {
      const at = offsetOf(view.state.doc, line, column);
      view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: "center" }) });
      view.focus();
    },
    replaceAll(text) {
      if (text === view.state.doc.toString()) return;
      const head = Math.min(view.state.selection.main.head, text.length);
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: head } });
    },
    value: () => view.state.doc.toString(),
    history: () => view.state.toJSON({ history: historyField }),
    focus: () => view.focus(),
    setReadOnly(readOnly) {
      view.dispatch({ effects: readOnlyPart.reconfigure(readOnlyExtensions(readOnly)) });
    },
    showFindings(warnings, checkedValue) {
      // Offsets of findings on an older text would land on the wrong characters.
      if (view.state.doc.toString() !== checkedValue) return;
      view.dispatch(setDiagnostics(view.state, toDiagnostics(view.state.doc, warnings)));
    },
    destroy() {
      clearTimeout(withLanguage);
      view.destroy();
    },
  };
}
