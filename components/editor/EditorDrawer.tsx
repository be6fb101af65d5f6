"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { focusToolbarControl } from "./toolbar-ids";
import styles from "./editor.module.css";

const DRAWER_ID = "editor-drawer";
const TOGGLE_ID = "editor-drawer-toggle";

/** The toolbar button that opens and closes the drawer. */
export function DrawerToggle({ open, onToggle, disabled, className }: { open: boolean; onToggle: () => void; disabled?: boolean; className?: string }) {
  return (
    <button type="button" id={TOGGLE_ID} className={`${styles.toolButton} ${className ?? ""}`} aria-expanded={open} aria-controls={DRAWER_ID} onClick={onToggle} disabled={disabled}>
      Examples &amp; data
    </button>
  );
}

/**
 * The examples and the per-endpoint variants, in a panel over the preview so they never push the
 * editor down. Not modal: the editor and preview stay usable while it is open, so an example can
 * be tried and another picked. Opening moves focus into it; Escape or Close hands focus back to
 * the toolbar button.
 */
export function EditorDrawer({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const wasOpen = useRef(open);
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);

  useEffect(() => {
    if (open && !wasOpen.current) heading.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const close = () => {
    onClose();
    focusToolbarControl(TOGGLE_ID);
  };

  return (
    <aside
      id={DRAWER_ID}
      aria-labelledby="drawer-title"
      className={open ? `${styles.drawer} ${styles.drawerOpen}` : styles.drawer}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          close();
        }
      }}
      data-testid="editor-drawer"
    >
      <div className={styles.drawerHead}>
        <h2 id="drawer-title" ref={heading} tabIndex={-1}>
          Examples and data
        </h2>
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
      {/* Drawn on first opening, not with the page: the gallery and the variants are hundreds of
          elements the first paint and the first keystroke need not wait for. */}
      {opened ? children : null}
    </aside>
  );
}
