"use client";

import type { ReactNode } from "react";
import type { DraftSharing } from "./useDraftSharing";
import styles from "./editor.module.css";

interface SharePanelProps {
  sharing: DraftSharing;
  interactive: boolean;
  /** The editor's status line. */
  status: string;
  /** Further actions beside sharing (saving), before the status line. */
  children?: ReactNode;
  /** Whether Ctrl/Cmd+S shares (when there is no saving), so the button can say so. */
  keepsOnCtrlS?: boolean;
}

/** Share (then the watch link to copy), the other actions, and the editor's status line. */
export function SharePanel({ sharing, interactive, status, children, keepsOnCtrlS = false }: SharePanelProps) {
  const { share, copied, shareDraft, copyWatchLink } = sharing;
  return (
    <div className={styles.share}>
      {share.kind === "shared" ? (
        <>
          <label htmlFor="watch-link">Watch link</label>
          <input id="watch-link" className={styles.link} readOnly value={share.watchUrl} onFocus={(e) => e.currentTarget.select()} data-testid="watch-link" />
          <button type="button" onClick={() => void copyWatchLink(share.watchUrl)}>
            {copied ? "Copied" : "Copy link"}
          </button>
        </>
      ) : (
        <button
          type="button"
          className="primary"
          onClick={() => void shareDraft()}
          disabled={!interactive || share.kind === "creating"}
          aria-keyshortcuts={keepsOnCtrlS ? "Control+S Meta+S" : undefined}
          title={keepsOnCtrlS ? "Share (Ctrl+S or ⌘S)" : undefined}
        >
          Share
        </button>
      )}
      {share.kind === "failed" ? <span className="error-text">{share.message}</span> : null}
      {children}
      <p className={styles.status} role="status" aria-live="polite" data-testid="editor-status">
        {status}
      </p>
    </div>
  );
}
