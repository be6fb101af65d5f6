import type { Ref } from "react";
import { When } from "./SavedHeader";
import styles from "./saved.module.css";

interface SavedHistoryProps {
  boxRef: Ref<HTMLDetailsElement>;
  path: string;
  history: { revision: number; note: string | null; savedAt: string }[];
  shownRevision: number;
  latestRevision: number;
  isOwner: boolean;
  ready: boolean;
  restore: (revision: number) => Promise<boolean>;
}

/** The saved dashboard's revisions, each to view or (for its owner) to restore. */
export function SavedHistory({ boxRef, path, history, shownRevision, latestRevision, isOwner, ready, restore }: SavedHistoryProps) {
  return (
    <details ref={boxRef} id="saved-history" className={styles.history} data-testid="history">
      <summary>History ({history.length} {history.length === 1 ? "revision" : "revisions"})</summary>
      <ol reversed>
        {history.map((r) => (
          <li key={r.revision} data-testid="history-entry">
            <span>
              Revision {r.revision} · <When iso={r.savedAt} />
              {r.note ? <span className="muted"> · {r.note}</span> : null}
              {r.revision === shownRevision ? <strong> (shown)</strong> : null}
            </span>{" "}
            {r.revision !== shownRevision ? <a href={`${path}?revision=${r.revision}`}>View revision {r.revision}</a> : null}
            {isOwner && r.revision !== latestRevision ? (
              <button type="button" onClick={() => void restore(r.revision)} disabled={!ready}>
                Restore revision {r.revision}
              </button>
            ) : null}
          </li>
        ))}
      </ol>
    </details>
  );
}
