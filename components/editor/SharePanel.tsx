"use client";

import type { ReactNode } from "react";
import type { DraftSharing } from "./useDraftSharing";
import styles from "./editor.module.css";

interface SharePanelProps {
  sharing: DraftSharing;
  interactive: boolean;
  /** Further actions beside sharing (saving). */
  children?: ReactNode;
  /** Whether Ctrl/Cmd+S shares (when there is no saving), so the button can say so. */
  keepsOnCtrlS?: boolean;
}

/** Share (then the watch link to copy) and the other actions. */
export function SharePanel({ sharing, interactive, children, keepsOnCtrlS = false }: SharePanelProps) {
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
      {/* One line however long: the whole message is its title. */}
      {share.kind === "failed" ? (
        <span className={`error-text ${styles.shareError}`} title={share.message}>
          {share.message}
        </span>
      ) : null}
      {children}
    </div>
  );
}
