"use client";

import type { ComponentProps, RefObject } from "react";
import { ConsolePanel } from "./ConsolePanel";
import { FindingsPanel } from "./FindingsPanel";
import { PaneSplitter } from "./PaneSplitter";
import { DOCK_MIN, type EditorLayout } from "./useEditorLayout";
import type { Findings } from "./useFindings";
import styles from "./editor.module.css";

interface EditorDockProps {
  layout: EditorLayout;
  /** The workspace the dock is at the bottom of. */
  container: RefObject<HTMLElement | null>;
  findings: Findings;
  /** The console, shown under the preview when it draws one dashboard (not the matrix). */
  consolePanel: Omit<ComponentProps<typeof ConsolePanel>, "onJump"> | null;
  onJump: (line: number, column?: number) => void;
}

/**
 * The dock: the check's findings under the source and the console under the preview, one height
 * for both, resized from the separator above them.
 */
export function EditorDock({ layout, container, findings, consolePanel, onJump }: EditorDockProps) {
  return (
    <>
      <PaneSplitter
        orientation="horizontal"
        value={layout.dock}
        onChange={layout.setDock}
        min={DOCK_MIN}
        max={layout.dockMax}
        container={container}
        controls="editor-dock"
        label="Resize the check and the console"
        valueText={`${Math.round(layout.dock)} pixels`}
        onDragging={layout.setResizing}
        className={styles.dockSplitter}
        testId="dock-splitter"
      />
      <div id="editor-dock" className={styles.dock} data-testid="editor-dock">
        <div className={styles.checkPane}>
          <FindingsPanel {...findings} onJump={onJump} />
        </div>
        {consolePanel ? (
          <div className={styles.consolePane}>
            <ConsolePanel {...consolePanel} onJump={onJump} />
          </div>
        ) : null}
      </div>
    </>
  );
}
