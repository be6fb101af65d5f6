"use client";

import { RelativeTime } from "@/components/ui/RelativeTime";
import { useInteractive } from "@/components/interactive";
import styles from "./viewer.module.css";

interface UpdatedStateProps {
  /** When the dashboard last finished rendering; null before its first render. */
  updatedAt: number | null;
  refreshing: boolean;
  /** What it is drawn from: the viewer's live data, demo data, or nothing yet (consent). */
  data: "live" | "demo" | "waiting";
  onRefresh: () => void;
  /** How often it refreshes by itself, for the sentence that says so. */
  everyMinutes: number;
}

/** "Updated 2 minutes ago · live" and a Refresh button: whether a dashboard left open is current. */
export function UpdatedState({ updatedAt, refreshing, data, onRefresh, everyMinutes }: UpdatedStateProps) {
  const interactive = useInteractive();
  const kind = data === "waiting" ? "waiting" : refreshing || updatedAt === null ? "refreshing" : "updated";
  const dataText = data === "live" ? "live" : data === "demo" ? "demo data" : "";
  return (
    <div className={styles.updated}>
      <p className={`${styles.state} ${kind === "updated" && data === "live" ? styles.live : ""}`} role="status" data-testid="updated-state" data-state={kind}>
        {kind === "waiting" ? (
          "waiting for your consent"
        ) : kind === "refreshing" ? (
          "Refreshing…"
        ) : (
          <>
            {/* On a phone the line is the dot and the time; the rest stays for assistive technology. */}
            <span className={styles.wideText}>Updated </span>
            {updatedAt !== null ? <RelativeTime ms={updatedAt} /> : null}
            <span className={styles.wideText}> · {dataText}</span>
            <span className={styles.srOnly}>, refreshed every {everyMinutes} minutes</span>
          </>
        )}
      </p>
      <button type="button" onClick={onRefresh} disabled={!interactive || data === "waiting" || refreshing} data-testid="refresh">
        <span className={styles.icon} aria-hidden="true">
          ↻
        </span>
        <span className={styles.wideText}>Refresh</span>
      </button>
    </div>
  );
}
