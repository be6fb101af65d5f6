"use client";

import type { EditorExample } from "./editor-example";
import styles from "./editor.module.css";

const NOTICE_ID_MAX = 80;

/** Says the example the address asked for does not exist, and what the editor started from instead. */
export function ExampleNotice({ requested, starter }: { requested: string; starter: EditorExample | undefined }) {
  return (
    <p className={styles.notice} role="status" data-testid="example-notice">
      There is no example called “{requested.slice(0, NOTICE_ID_MAX)}”; the editor starts from {starter?.label ?? "an empty document"} instead.
    </p>
  );
}

interface ExampleGalleryProps {
  examples: readonly EditorExample[];
  /** The document the source started from; its example is marked loaded. */
  current: EditorExample | undefined;
  interactive: boolean;
  onChoose: (id: string) => void;
}

/** The examples to start from, each with its description. */
export function ExampleGallery({ examples, current: starter, interactive, onChoose }: ExampleGalleryProps) {
  return (
    <section aria-labelledby="gallery-title" className={styles.gallery}>
      <h2 id="gallery-title">Examples</h2>
      <ul>
        {examples.map((e) => {
          const current = e.id === starter?.id;
          return (
            <li key={e.id} className={current ? styles.currentExample : undefined}>
              <button
                type="button"
                onClick={() => onChoose(e.id)}
                disabled={!interactive}
                aria-describedby={`example-${e.id}-description`}
                aria-current={current ? "true" : undefined}
                data-testid={`example-${e.id}`}
              >
                {/* The label names the example; the picture shows it, so it is not read out again. */}
                {/* eslint-disable-next-line @next/next/no-img-element -- made at the size shown and addressed by content; an optimiser would only re-encode it */}
                {e.picture ? <img src={e.picture.src} width={e.picture.width} height={e.picture.height} alt="" className={styles.picture} loading="lazy" /> : null}
                {e.label}
                {current ? <span className={styles.loaded}> (loaded)</span> : null}
              </button>
              <p id={`example-${e.id}-description`} className="muted">
                {e.description}
              </p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
