"use client";

import type { ReactNode, RefObject } from "react";
import { SaveToSpace, type SavedRef, type Saver } from "@/components/saved/SaveToSpace";
import { MenuButton } from "@/components/ui/MenuButton";
import { DrawerToggle } from "./EditorDrawer";
import { PaneSwitch, type Pane } from "./PaneSwitch";
import { PreviewControls } from "./PreviewControls";
import { SharePanel } from "./SharePanel";
import { MORE_ID, MORE_TOGGLE_ID } from "./toolbar-ids";
import type { DraftSharing } from "./useDraftSharing";
import type { PreviewData } from "./usePreviewData";
import styles from "./editor.module.css";

interface EditorToolbarProps {
  /** The document's name: the draft's, else its <title>. */
  name: string;
  pane: Pane;
  onPane: (pane: Pane) => void;
  drawerOpen: boolean;
  onToggleDrawer: () => void;
  interactive: boolean;
  data: PreviewData;
  sharing: DraftSharing;
  /** Saving to the person's space, when signed in: Ctrl/Cmd+S saves then, and shares otherwise. */
  save: ReactNode;
  onFormat: () => void;
  onShortcuts: () => void;
}

/**
 * One row at every desktop width, whatever the title or the state: what does not fit is under
 * More, and messages are toasts (StatusToast) rather than text in the row.
 */
export function EditorToolbar({ name, pane, onPane, drawerOpen, onToggleDrawer, interactive, data, sharing, save, onFormat, onShortcuts }: EditorToolbarProps) {
  const shared = sharing.share.kind === "shared";
  return (
    <div className={styles.toolbar} data-testid="editor-toolbar">
      <h1 id="editor-title" className={styles.title}>
        Dashboard playground
      </h1>
      <span className={styles.docName} title={name} data-testid="editor-name">
        {name}
      </span>
      <p className={styles.revision}>
        Revision <span data-testid="editor-revision">{sharing.revision ?? "not shared"}</span>
      </p>
      <PaneSwitch pane={pane} onPane={onPane} />
      <DrawerToggle open={drawerOpen} disabled={!interactive} onToggle={onToggleDrawer} className={styles.wideOnly} />
      <PreviewControls data={data} shared={shared} className={styles.wideOnly} />
      <SharePanel sharing={sharing} interactive={interactive} keepsOnCtrlS={!save}>
        {save}
      </SharePanel>
      <MenuButton
        id={MORE_ID}
        buttonId={MORE_TOGGLE_ID}
        label={
          <>
            More <span aria-hidden="true">▾</span>
          </>
        }
        menuLabel="More actions"
        className={styles.moreBox}
        buttonClassName={styles.moreToggle}
        menuClassName={styles.menu}
      >
        {/* On a phone the drawer opens from here; wider, its button is in the row. */}
        <button type="button" role="menuitem" className={styles.phoneOnly} aria-controls="editor-drawer" disabled={!interactive} onClick={onToggleDrawer}>
          Examples &amp; data
        </button>
        <button type="button" role="menuitem" disabled={!interactive} onClick={onFormat}>
          Format
        </button>
        <button type="button" role="menuitem" aria-keyshortcuts="?" onClick={onShortcuts}>
          Shortcuts
        </button>
      </MenuButton>
    </div>
  );
}

interface SaveBoxProps {
  saver: Saver;
  /** Where Ctrl/Cmd+S finds the form or its button (useEditorSave). */
  box: RefObject<HTMLSpanElement | null>;
  saved: SavedRef | null;
  suggested: string | null;
  html: string;
  note: string;
  onSaved: (ref: SavedRef) => void;
  /** Puts a retitled document in the editor, when the person may edit it. */
  retitle: ((titled: string) => void) | undefined;
}

/** Saving the source into the signed-in person's space, from the toolbar's share panel. */
export function SaveBox({ saver, box, saved, suggested, html, note, onSaved, retitle }: SaveBoxProps) {
  return (
    <span ref={box} className={styles.save}>
      <SaveToSpace handle={saver.handle} csrf={saver.csrf} suggested={suggested} html={html} note={note} saved={saved} onSaved={onSaved} retitle={retitle} keyShortcuts="Control+S Meta+S" />
    </span>
  );
}
