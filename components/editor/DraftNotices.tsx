"use client";

import type { DurableDraft } from "./useDurableDraft";
import styles from "./drafts.module.css";

const when = (ms: number) => new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

/** What the editor says about its draft's durability: read-only with Fork, or edits brought back. */
export function DraftNotices({ durable, interactive }: { durable: DurableDraft; interactive: boolean }) {
  const { access, restoredFrom, fork, forking, discardRestored, watchPath } = durable;
  return (
    <>
      {access === "read" ? (
        <div className={styles.notice} data-testid="read-only-notice">
          <p>
            <strong>Read only.</strong> This draft is written from another browser; you see its latest revision
            {watchPath ? (
              <>
                {" "}
                (<a href={watchPath}>watch it live</a>)
              </>
            ) : null}
            . Fork it to make a draft of your own from it.
          </p>
          <button type="button" className="primary" onClick={() => void fork()} disabled={!interactive || forking}>
            Fork
          </button>
        </div>
      ) : null}
      {restoredFrom !== null ? (
        <div className={styles.notice} data-testid="restored-notice">
          <p>
            Restored your unsaved edits, kept in this browser since <time dateTime={new Date(restoredFrom).toISOString()}>{when(restoredFrom)}</time>.
          </p>
          <button type="button" onClick={discardRestored} disabled={!interactive}>
            Discard them
          </button>
        </div>
      ) : null}
    </>
  );
}
