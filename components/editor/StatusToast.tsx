"use client";

import { useEffect, useState } from "react";
import styles from "./editor.module.css";

/** A message for the status line; `seq` tells the same words said again from the first time. */
export interface Status {
  text: string;
  seq: number;
}

/** How long a toast stays, by its length: time to read it, within bounds. */
const shownMs = (text: string) => Math.min(10_000, 4_000 + text.length * 40);
const FADE_MS = 400;

/**
 * The editor's messages: a toast over the page that fades after a few seconds, so a message never
 * moves or crowds the toolbar, and a polite live region (visually hidden) that keeps the words
 * after the toast has gone, for assistive technology to read out and read again. The toast is
 * hidden from assistive technology, which has the live region.
 */
export function StatusToast({ status }: { status: Status }) {
  const [fading, setFading] = useState<number | null>(null);
  const [gone, setGone] = useState<number | null>(null);

  useEffect(() => {
    if (!status.text) return;
    const seq = status.seq;
    const fade = setTimeout(() => setFading(seq), shownMs(status.text));
    const hide = setTimeout(() => setGone(seq), shownMs(status.text) + FADE_MS);
    return () => {
      clearTimeout(fade);
      clearTimeout(hide);
    };
  }, [status]);

  const shown = status.text !== "" && gone !== status.seq;
  return (
    <>
      <p className={styles.visuallyHidden} role="status" aria-live="polite" data-testid="editor-status">
        {status.text}
      </p>
      {shown ? (
        <div className={styles.toast} aria-hidden="true" data-fading={fading === status.seq || undefined} data-testid="editor-toast" onClick={() => setGone(status.seq)}>
          {status.text}
        </div>
      ) : null}
    </>
  );
}
