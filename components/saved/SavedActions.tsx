"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import styles from "./saved.module.css";

interface SavedActionsProps {
  path: string;
  revision: number;
  starred: boolean;
  isHome: boolean;
  ready: boolean;
  toggleStar: () => void;
  toggleHome: () => void;
  openInPlayground: () => void;
  showHistory: () => void;
}

/** The saved dashboard's action row; on a phone the actions past Star wait under More, so the dashboard starts near the top. */
export function SavedActions({ path, revision, starred, isHome, ready, toggleStar, toggleHome, openInPlayground, showHistory }: SavedActionsProps) {
  const [moreOpen, setMoreOpen] = useState(false);
  const moreToggle = useRef<HTMLButtonElement>(null);
  return (
    <div
      className={`${styles.actions} control-row`}
      role="group"
      aria-label="Dashboard actions"
      onKeyDown={(e) => {
        if (e.key !== "Escape" || !moreOpen) return;
        e.stopPropagation();
        setMoreOpen(false);
        moreToggle.current?.focus();
      }}
    >
      <button type="button" aria-pressed={starred} onClick={toggleStar} disabled={!ready}>
        {/* On a phone the star alone; its name stays whole for assistive technology. */}
        {starred ? "★" : "☆"}
        <span className={styles.wideText}>{starred ? " Starred" : " Star"}</span>
      </button>
      <button ref={moreToggle} type="button" className={styles.moreToggle} aria-expanded={moreOpen} aria-controls="saved-more" onClick={() => setMoreOpen((o) => !o)}>
        More <span aria-hidden="true">▾</span>
      </button>
      {/* Wide, these sit in the row as if the wrapper were not there; on a phone they open under More. */}
      <div id="saved-more" className={styles.more} data-open={moreOpen || undefined}>
        <button type="button" aria-pressed={isHome} onClick={toggleHome} disabled={!ready}>
          {isHome ? "Your home" : "Set as home"}
        </button>
        <a className="button" href={`${path}/source?revision=${revision}`}>
          View source
        </a>
        {isHome ? (
          <Link className="button" href="/?start">
            Start page
          </Link>
        ) : null}
        <button type="button" onClick={openInPlayground} disabled={!ready}>
          Open in playground
        </button>
        <button
          type="button"
          aria-controls="saved-history"
          onClick={() => {
            setMoreOpen(false);
            showHistory();
          }}
        >
          History
        </button>
      </div>
    </div>
  );
}
