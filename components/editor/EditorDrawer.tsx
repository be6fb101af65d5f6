"use client";

import { useEffect, useRef, type ReactNode } from "react";
import styles from "./editor.module.css";

const DRAWER_ID = "editor-drawer";
const TOGGLE_ID = "editor-drawer-toggle";

/** The toolbar button that opens and closes the drawer. */
export function DrawerToggle({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <button type="button" id={TOGGLE_ID} className={styles.toolButton} aria-expanded={open} aria-controls={DRAWER_ID} onClick={onToggle}>
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

  useEffect(() => {
    if (open && !wasOpen.current) heading.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const close = () => {
    onClose();
    document.getElementById(TOGGLE_ID)?.focus();
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
      {/* Without script the toggle cannot open it, so the drawer is simply shown. */}
      <noscript>
        <style>{`#${DRAWER_ID}{display:flex}`}</style>
      </noscript>
      <div className={styles.drawerHead}>
        <h2 id="drawer-title" ref={heading} tabIndex={-1}>
          Examples and data
        </h2>
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
      {children}
    </aside>
  );
}
