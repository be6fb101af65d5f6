"use client";

import type { RefObject } from "react";
import { CodeEditor, type CodeEditorHandle } from "./CodeEditor";
import { preloadCheck } from "./useDraftCheck";
import type { EditorSource } from "./useEditorSource";
import type { Findings } from "./useFindings";
import styles from "./editor.module.css";

interface SourcePaneProps {
  editor: RefObject<CodeEditorHandle | null>;
  source: EditorSource;
  readOnly: boolean;
  /** An edit by the person: what the status line said was of the document before it. */
  onUserEdit: () => void;
  findings: Findings;
  /** The list of shortcuts is open: the hint stays, so focus has its button to return to. */
  keysOpen: boolean;
  onShortcuts: () => void;
}

/** The source: the code editor, marked with the check's warnings, and the hint of how to leave it. */
export function SourcePane({ editor, source, readOnly, onUserEdit, findings, keysOpen, onShortcuts }: SourcePaneProps) {
  return (
    <div id="editor-pane" className={styles.sourcePane} data-keys-open={keysOpen || undefined} onFocus={() => void preloadCheck().catch(() => {})} role="group" aria-label="Source">
      <CodeEditor
        ref={editor}
        initialValue={source.initialHtml}
        initialHistory={source.initialHistory}
        key={source.editorKey}
        readOnly={readOnly}
        onChange={source.setHtml}
        onUserEdit={onUserEdit}
        warnings={findings.warnings}
        checkedValue={findings.check.kind === "done" ? findings.check.checked : ""}
        label="Dashboard HTML"
        describedBy="editor-keys"
      />
      <p id="editor-keys" className={styles.keysHint} data-testid="editor-keys">
        Tab indents. To leave the editor, press Esc, then Tab.{" "}
        <button type="button" className={styles.linkButton} onClick={onShortcuts}>
          All shortcuts
        </button>
      </p>
    </div>
  );
}
